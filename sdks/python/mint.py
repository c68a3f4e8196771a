"""Message-ID minting strategies. Each maker returns a zero-argument callable that gives the next
16-byte ID as `bytes`, so the producer's hot path is one call whatever the strategy."""

import os
import random
import uuid
from functools import partial
from itertools import chain

from message_id import ID_BYTES

# Bytes fetched per os.urandom call by `fast`: one syscall serves POOL_BYTES // 16 IDs. Chosen by
# measurement (bench_mint.py's fast-pool-* rows, results/sdk-python-mint.md): 256 B pools were the
# slowest or near it in every run, while 1 KiB to 64 KiB stay within noise of each other on a
# shared 2-core machine, so one 4 KiB page.
POOL_BYTES = 4096


def uuid_mint():
    """The SDK's path before the fix: a UUIDv4 object per ID (os.urandom(16) plus object work)."""
    uuid4 = uuid.uuid4

    def mint():
        return uuid4().int.to_bytes(ID_BYTES, "little")

    return mint


def fast_mint(pool_bytes=POOL_BYTES):
    """The chosen fast path: OS randomness fetched a pool at a time and sliced 16 bytes per ID."""
    if pool_bytes < ID_BYTES or pool_bytes % ID_BYTES:
        raise ValueError(f"pool_bytes must be a positive multiple of {ID_BYTES}, got {pool_bytes}")
    cuts = [slice(start, start + ID_BYTES) for start in range(0, pool_bytes, ID_BYTES)]

    def pools():
        # map and chain slice in C; this generator resumes once per pool, not once per ID
        # (about 10% less per ID than yielding each slice from here).
        urandom = os.urandom
        while True:
            yield map(urandom(pool_bytes).__getitem__, cuts)

    return chain.from_iterable(pools()).__next__


def mt_mint():
    """Mersenne Twister seeded from the OS once per producer. Fast but predictable: its 19937-bit
    state can be recovered from 624 outputs, so later IDs can be guessed."""
    return partial(random.Random(os.urandom(32)).randbytes, ID_BYTES)


def preset_mint(count):
    """Every ID of the run minted with `fast` up front; the hot path only hands them out."""
    mint = fast_mint()
    return iter([mint() for _ in range(count)]).__next__


STRATEGIES = {
    "uuid": lambda count: uuid_mint(),
    "fast": lambda count: fast_mint(),
    "mt": lambda count: mt_mint(),
    "preset": preset_mint,
}


def make_mint(name, count):
    """The strategy `name` ready to mint `count` IDs; KeyError names an unknown strategy."""
    return STRATEGIES[name](count)
