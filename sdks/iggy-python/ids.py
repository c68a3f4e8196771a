"""Message IDs as the client's public API takes them: `SendMessage(data, id=...)` accepts a Python
int (an unsigned 128-bit value) or None, and the client replaces a missing or zero id with a
UUIDv4 of its own (minted in its Rust core, per message, before the frame's checksum).

Each strategy is a maker: given the arm's message count it returns `fill(n)`, which gives the
next batch's n `id` arguments at once (one call per batch). The ids come from the lean Python
producer's minters (../python/mint.py), so they are seeded and reseeded in a forked child as
those are; importing this module puts that folder on the path, after this one."""

import pathlib
import sys
from functools import partial
from itertools import repeat

LEAN = str(pathlib.Path(__file__).resolve().parent.parent / "python")
if LEAN not in sys.path:
    sys.path.append(LEAN)
from mint import POOL_BYTES, CounterMinter, FastMinter, PresetMinter  # noqa: E402

# A zero id would make the client mint one; `fast` and `preset` give one with probability 2^-128
# and `counter` only from a start of 0, and the id is then still unique.
_as_int = partial(int.from_bytes, byteorder="little")


def sdk_ids(count):
    """No id: the client mints its own (the SDK's path)."""
    return partial(repeat, None)


def _as_ints(fill):
    """A batch fill of 16-byte ids as one of 128-bit ints, read as the batch's messages are
    built."""
    return lambda n: map(int.from_bytes, fill(n), repeat("little", n))


def fast_ids(count, pool_bytes=POOL_BYTES):
    """`fast`'s batch fill: the batch's 16-byte ids cut from the keystream pool at once, each read
    as a 128-bit int."""
    return _as_ints(FastMinter(pool_bytes).fill)


def preset_ids(count):
    """Every id of the arm made with `fast` before the first send; the hot path hands them out."""
    return PresetMinter(count, cast=_as_int).fill


def counter_ids(count, pool_bytes=POOL_BYTES):
    """A floor, never a default: the lean `counter` (a per-process count of pools from a random
    start, not collision-safe across processes), read as `fast`'s is."""
    return _as_ints(CounterMinter(pool_bytes=pool_bytes).fill)


# `uuid` is the SDK's path under the name the lean rows give it, as in the `iggy` row.
STRATEGIES = {"sdk": sdk_ids, "uuid": sdk_ids, "fast": fast_ids, "preset": preset_ids,
              "counter": counter_ids}
