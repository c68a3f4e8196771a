import pytest

from mint import ID_BYTES, STRATEGIES, fast_mint, make_mint


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_strategy_mints_distinct_16_byte_ids(name):
    mint = make_mint(name, 1000)
    ids = [mint() for _ in range(1000)]
    assert all(type(minted) is bytes and len(minted) == ID_BYTES for minted in ids)
    assert len(set(ids)) == len(ids)


def test_fast_refills_its_pool():
    mint = fast_mint(pool_bytes=32)
    ids = [mint() for _ in range(10)]
    assert len(set(ids)) == 10


def test_fast_rejects_a_pool_that_is_not_whole_ids():
    with pytest.raises(ValueError):
        fast_mint(pool_bytes=24)


def test_preset_mints_exactly_the_run():
    mint = make_mint("preset", 3)
    for _ in range(3):
        mint()
    with pytest.raises(StopIteration):
        mint()


def test_mt_producers_are_seeded_apart():
    assert make_mint("mt", 1)() != make_mint("mt", 1)()


def test_unknown_strategy():
    with pytest.raises(KeyError):
        make_mint("nope", 1)
