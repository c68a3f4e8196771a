"""Message IDs as the client's public API takes them: `SendMessage(data, id=...)` accepts a Python
int (an unsigned 128-bit value) or None, and the client replaces a missing or zero id with a
UUIDv4 of its own (minted in its Rust core, per message, before the frame's checksum).

Each strategy is a maker: given the arm's message count it returns a zero-argument callable that
gives the next message's `id` argument."""

import os

# Bytes fetched per os.urandom call by `fast`: one syscall serves POOL_BYTES // 16 IDs (one page).
POOL_BYTES = 4096
ID_BYTES = 16


def sdk_ids(count):
    """No id: the client mints its own (the SDK's path)."""
    return lambda: None


def fast_ids(count, pool_bytes=POOL_BYTES):
    """OS randomness fetched a pool at a time and cut into 128-bit ints."""
    urandom, from_bytes = os.urandom, int.from_bytes

    def pools():
        while True:
            pool = urandom(pool_bytes)
            for start in range(0, pool_bytes, ID_BYTES):
                # A zero id would make the client mint one; it has probability 2^-128, and the
                # id is then still unique.
                yield from_bytes(pool[start:start + ID_BYTES], "little")

    return pools().__next__


def preset_ids(count):
    """Every id of the arm minted with `fast` before the first send; the hot path hands them out."""
    mint = fast_ids(count)
    return iter([mint() for _ in range(count)]).__next__


# `uuid` is the SDK's path under the name the lean rows give it, as in the `iggy` row.
STRATEGIES = {"sdk": sdk_ids, "uuid": sdk_ids, "fast": fast_ids, "preset": preset_ids}
