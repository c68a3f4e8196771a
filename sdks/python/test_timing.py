from timing import percentile, spin


def test_percentile_is_nearest_rank():
    values = list(range(1, 1001))
    assert percentile(values, 0.5) == 500
    assert percentile(values, 0.99) == 990
    assert percentile(values, 0.999) == 999
    assert percentile([7], 0.999) == 7


def test_spin_lasts_at_least_what_it_was_asked():
    assert spin(200_000) >= 200_000
