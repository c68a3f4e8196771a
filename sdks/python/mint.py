"""Message-ID minting strategies. Each maker returns a minter: `fill(n)` gives the next n 16-byte
IDs at once, as a tuple of `bytes` (the producer calls it once per batch and reads the IDs per
message as it encodes), and `mint()` gives one, the single-ID path, from the same stream.

A minter with state of its own seeds it from the OS when it is made and again in a forked child
(one os.register_at_fork hook for all live minters), so a child never repeats its parent's IDs.
A minter serves one arm on one thread: none is shared."""

import hashlib
import os
import random
import secrets
import struct
import sys
import uuid
import weakref
from array import array
from functools import lru_cache

from message_id import ID_BYTES

# Keystream bytes per pool: one refill (an AES-CTR call, a SHAKE-128 squeeze or an os.urandom
# call) serves POOL_BYTES // 16 IDs, so small batches share a refill. bench_mint.py's
# fast-pool-4096 row is a pool smaller than the runner's default batch (1000 IDs), one refill
# per batch.
POOL_BYTES = 65536
# The most IDs one struct cuts at once: a Struct holds one format code per ID, so a larger fill
# (a `preset` arm's whole run) is cut in pieces rather than compiled into one huge Struct.
MAX_CUT_IDS = 4096
# A counter's pool number starts below this, so it never passes 2^64 within 2^40 pools.
COUNTER_STARTS = (1 << 64) - (1 << 40)

_live = weakref.WeakSet()


def _reseed_in_child():
    for minter in list(_live):
        minter.reseed()


os.register_at_fork(after_in_child=_reseed_in_child)


@lru_cache(maxsize=8)
def _cutter(count):
    return struct.Struct(f"{ID_BYTES}s" * count).unpack


def split_ids(data):
    """The 16-byte IDs that `data` holds back to back, as a tuple, cut in C (one struct unpack
    makes every `bytes` object: cheaper than a slice per ID)."""
    count = len(data) // ID_BYTES
    if count <= MAX_CUT_IDS:
        return _cutter(count)(data)
    step = MAX_CUT_IDS * ID_BYTES
    return tuple(cut for at in range(0, len(data), step) for cut in split_ids(data[at:at + step]))


class _Minter:
    """Seeds itself now and again in a forked child; subclasses define `reseed`."""

    def __init__(self):
        self.reseed()
        _live.add(self)


class UuidMinter:
    """The SDK's path before the fix: a UUIDv4 object per ID (os.urandom(16) plus object work).
    No state of its own: every ID comes from the kernel's generator."""

    def mint(self):
        return uuid.uuid4().int.to_bytes(ID_BYTES, "little")

    def fill(self, count):
        return tuple(self.mint() for _ in range(count))


class PoolMinter(_Minter):
    """A pool of keystream, refilled pool_bytes at a time and cut into IDs a batch at a time;
    subclasses give the keystream (`_keystream`) and take their own state anew in `reseed`.
    A forked child drops the pool, so its IDs come from its own stream."""

    def __init__(self, pool_bytes=POOL_BYTES):
        if pool_bytes < ID_BYTES or pool_bytes % ID_BYTES:
            raise ValueError(
                f"pool_bytes must be a positive multiple of {ID_BYTES}, got {pool_bytes}")
        self._pool_bytes = pool_bytes
        super().__init__()

    def reseed(self):
        self._pool, self._at = b"", 0

    def _take(self, size):
        end = self._at + size
        if end > len(self._pool):
            # Whole pools after what is left of this one: the stream is the same however it is cut.
            pools = -(-(end - len(self._pool)) // self._pool_bytes)
            self._pool = self._pool[self._at:] + self._keystream(pools)
            self._at, end = 0, size
        taken = self._pool[self._at:end]
        self._at = end
        return taken

    def mint(self):
        return self._take(ID_BYTES)

    def fill(self, count):
        return split_ids(self._take(count * ID_BYTES))


@lru_cache(maxsize=4)
def _zeros(size):
    """`size` zero bytes, made once: what CTR mode encrypts into its keystream."""
    return bytes(size)


class FastMinter(PoolMinter):
    """The chosen fast path: the pool filled with AES-128-CTR keystream (`cryptography`, which
    uses AES-NI where the CPU has it), keyed and started from 256 bits of the OS: a 128-bit key
    and a 128-bit initial counter block. A forked child takes new ones. `seed` (32 bytes: key,
    then counter block) fixes the stream (tests)."""

    def __init__(self, pool_bytes=POOL_BYTES, seed=None):
        self._seed = seed
        super().__init__(pool_bytes)

    def reseed(self):
        # Imported here: only `fast` and `preset` need it, so the other strategies, and the
        # released client's row when its client is missing, load without it.
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        super().reseed()
        seed = os.urandom(32) if self._seed is None else self._seed
        self._aes = Cipher(algorithms.AES(seed[:16]), modes.CTR(seed[16:])).encryptor()
        self._seed = None

    def _keystream(self, pools):
        # CTR mode's output for zeros is its keystream; the encryptor carries the counter on.
        return self._aes.update(_zeros(pools * self._pool_bytes))


class ShakeMinter(PoolMinter):
    """An alternate keystream for `fast`'s pool, in the benchmark only: SHAKE-128 keyed with 256
    bits from the OS, pool i being SHAKE-128(key || i as 8 little-endian bytes). A forked child
    takes a new key. `key` fixes the stream (tests)."""

    def __init__(self, pool_bytes=POOL_BYTES, key=None):
        self._key = key
        super().__init__(pool_bytes)

    def reseed(self):
        super().reseed()
        self._shake = hashlib.shake_128(os.urandom(32) if self._key is None else self._key)
        self._key, self._next_pool = None, 0

    def _keystream(self, pools):
        first = self._next_pool
        self._next_pool += pools
        return b"".join(self._block(index) for index in range(first, first + pools))

    def _block(self, index):
        shake = self._shake.copy()
        shake.update(index.to_bytes(8, "little"))
        return shake.digest(self._pool_bytes)


class UrandomMinter(PoolMinter):
    """An alternate keystream for `fast`'s pool, in the benchmark only: the kernel's generator,
    one os.urandom call per pool. No state but the pool."""

    def _keystream(self, pools):
        return os.urandom(pools * self._pool_bytes)


class MtMinter(_Minter):
    """Mersenne Twister seeded with 256 bits from the OS. Fast but predictable: its 19937-bit
    state can be recovered from 624 outputs, so later IDs can be guessed. `seed` fixes the
    stream (tests); a forked child reseeds from the OS."""

    def __init__(self, seed=None):
        self._seed = seed
        super().__init__()

    def reseed(self):
        self._random = random.Random(os.urandom(32) if self._seed is None else self._seed)
        self._seed = None

    def mint(self):
        return self._random.randbytes(ID_BYTES)

    def fill(self, count):
        # randbytes(16 n) is randbytes(16) n times over: the same 32-bit words in the same order.
        return split_ids(self._random.randbytes(count * ID_BYTES))


@lru_cache(maxsize=8)
def _lane_indexes(lanes):
    """`lanes` 16-byte lanes as 64-bit halves, lane i's low half holding i."""
    halves = array("Q", [0]) * (2 * lanes)
    halves[0::2] = array("Q", range(lanes))
    return halves


class CounterMinter(PoolMinter):
    """A floor, never a default: a per-process count of pools from a random start below
    COUNTER_STARTS, in `fast`'s pool in place of its keystream, so the two differ in the
    keystream alone. Lane i of pool n is the 16 little-endian bytes of n * 2^64 + i, the pool
    built from a cached array of lane indexes with its high halves set in one slice: no Python
    work per ID. Two processes can overlap, so it is not collision-safe across processes; a
    forked child restarts from a new random value. `start` fixes the stream (tests)."""

    def __init__(self, start=None, pool_bytes=POOL_BYTES):
        self._start = start
        super().__init__(pool_bytes)

    def reseed(self):
        super().reseed()
        self._next = secrets.randbelow(COUNTER_STARTS) if self._start is None else self._start
        self._start = None

    def _keystream(self, pools):
        first = self._next
        self._next += pools
        return b"".join(self._pool_of(number) for number in range(first, first + pools))

    def _pool_of(self, number):
        lanes = self._pool_bytes // ID_BYTES
        halves = _lane_indexes(lanes)[:]
        halves[1::2] = array("Q", [number]) * lanes
        if sys.byteorder == "big":
            halves.byteswap()
        return halves.tobytes()


class PresetMinter:
    """Every ID of the run minted with `fast` before the first batch; `fill` only hands them out.
    `cast` turns each ID into the form the caller sends (default: the 16 bytes)."""

    def __init__(self, count, cast=None):
        self._cast = cast
        self._ids, self._at = self._minted(count), 0
        _live.add(self)

    def _minted(self, count):
        ids = FastMinter().fill(count)
        return ids if self._cast is None else tuple(map(self._cast, ids))

    def reseed(self):
        """In a forked child the IDs not handed out yet are the parent's too: mints them anew,
        from a pool of the child's own."""
        self._ids, self._at = self._minted(len(self._ids) - self._at), 0

    def mint(self):
        return self.fill(1)[0]

    def fill(self, count):
        if self._at + count > len(self._ids):
            raise IndexError(
                f"preset holds {len(self._ids)} IDs, {self._at} handed out, {count} asked")
        ids = self._ids[self._at:self._at + count]
        self._at += count
        return ids


STRATEGIES = {
    "uuid": lambda count: UuidMinter(),
    "fast": lambda count: FastMinter(),
    "mt": lambda count: MtMinter(),
    "preset": PresetMinter,
    "counter": lambda count: CounterMinter(),
}


def make_minter(name, count):
    """The minter of strategy `name`, ready to mint `count` IDs; KeyError names an unknown
    strategy."""
    return STRATEGIES[name](count)
