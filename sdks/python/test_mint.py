import hashlib
import os
from itertools import chain

import pytest

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from mint import (COUNTER_STARTS, ID_BYTES, MAX_CUT_IDS, STRATEGIES, CounterMinter, FastMinter,
                  MtMinter, ShakeMinter, UrandomMinter, make_minter)

# Batch sizes that cross pools, the struct's cut and each other's boundaries.
CUTS = (1, 3, 7, 2, MAX_CUT_IDS + 5, 4, 64)
# Every minter the producer or the benchmark makes, by name.
MINTERS = {**{name: lambda name=name: make_minter(name, 2 * sum(CUTS)) for name in STRATEGIES},
           "urandom": UrandomMinter, "shake": ShakeMinter,
           "fast-small-pool": lambda: FastMinter(pool_bytes=48),
           "counter-small-pool": lambda: CounterMinter(pool_bytes=48)}


def is_id(value):
    return type(value) is bytes and len(value) == ID_BYTES


def test_the_producers_names_are_the_runners():
    assert list(STRATEGIES) == ["uuid", "fast", "mt", "preset", "counter"]


@pytest.mark.parametrize("name", sorted(MINTERS))
def test_fill_and_mint_give_distinct_16_byte_ids(name):
    minter = MINTERS[name]()
    batches = [minter.fill(count) for count in CUTS]
    assert [len(batch) for batch in batches] == list(CUTS)
    ids = [*chain.from_iterable(batches), *(minter.mint() for _ in range(sum(CUTS)))]
    assert all(map(is_id, ids))
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("make", [lambda: MtMinter(seed=7),
                                  lambda: CounterMinter(start=7, pool_bytes=64),
                                  lambda: FastMinter(pool_bytes=64, seed=bytes(range(32))),
                                  lambda: ShakeMinter(pool_bytes=64, key=bytes(range(32)))],
                         ids=["mt", "counter", "fast", "shake"])
def test_a_seeded_fill_is_the_single_id_stream(make):
    filled, single = make(), make()
    batches = list(chain.from_iterable(filled.fill(count) for count in CUTS))
    assert batches == [single.mint() for _ in range(sum(CUTS))]


@pytest.mark.parametrize("name", sorted(MINTERS))
def test_a_forked_child_mints_none_of_its_parents_ids(name):
    minter = MINTERS[name]()
    minter.fill(3)  # a pool part used, a preset part handed out
    count = sum(CUTS)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        status = 1
        try:
            with os.fdopen(write, "wb") as out:
                out.write(b"".join(minter.fill(count - 1) + (minter.mint(),)))
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        theirs = pipe.read()
    assert os.waitpid(child, 0)[1] == 0
    ours = set(minter.fill(count - 1) + (minter.mint(),))
    theirs = {theirs[at:at + ID_BYTES] for at in range(0, len(theirs), ID_BYTES)}
    assert len(theirs) == len(ours) == count
    assert not ours & theirs


def test_counter_counts_pools_from_a_random_start_in_16_little_endian_bytes():
    # Pools of 3 IDs: the fill, the single ID and the next fill cross two refills. Lane i of
    # pool n holds n * 2^64 + i.
    minter = CounterMinter(start=(1 << 64) - (1 << 40) - 2, pool_bytes=3 * ID_BYTES)
    ids = minter.fill(3) + (minter.mint(),) + minter.fill(5)
    first = (1 << 64) - (1 << 40) - 2
    assert [int.from_bytes(value, "little") for value in ids] == [
        ((first + pool) << 64) + lane for pool in range(3) for lane in range(3)]
    starts = [int.from_bytes(CounterMinter().mint(), "little") >> 64 for _ in range(2)]
    assert starts[0] != starts[1] and all(0 <= start < COUNTER_STARTS for start in starts)


def test_fast_is_aes_128_of_its_counter_blocks():
    # Block i of the stream is AES-128 of the seed's counter block plus i (128-bit big-endian),
    # computed here block by block in ECB mode; the fills cross pools of 4 blocks.
    key, start = bytes(range(16)), (1 << 128) - 3
    aes = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    expected = [aes.update(((start + i) % (1 << 128)).to_bytes(16, "big")) for i in range(10)]
    minter = FastMinter(pool_bytes=64, seed=key + start.to_bytes(16, "big"))
    assert list(minter.fill(3) + minter.fill(6) + (minter.mint(),)) == expected


def test_shake_is_shake_128_of_its_key_and_pool_index():
    key = bytes(range(32))
    pool = hashlib.shake_128(key + (1).to_bytes(8, "little")).digest(64)
    minter = ShakeMinter(pool_bytes=64, key=key)
    minter.fill(4)  # pool 0
    assert b"".join(minter.fill(4)) == pool


@pytest.mark.parametrize("make", [FastMinter, ShakeMinter, UrandomMinter, CounterMinter])
def test_a_pool_that_is_not_whole_ids_is_refused(make):
    with pytest.raises(ValueError):
        make(pool_bytes=24)


def test_preset_hands_out_exactly_the_run_in_any_form():
    minter = make_minter("preset", 5)
    assert len(minter.fill(2) + minter.fill(3)) == 5
    with pytest.raises(IndexError):
        minter.fill(1)
    as_ints = STRATEGIES["preset"](3, cast=int.from_bytes)
    assert all(type(value) is int for value in as_ints.fill(3))


def test_mt_producers_are_seeded_apart():
    assert make_minter("mt", 1).mint() != make_minter("mt", 1).mint()


def test_unknown_strategy():
    with pytest.raises(KeyError):
        make_minter("nope", 1)
