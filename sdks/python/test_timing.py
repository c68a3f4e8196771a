from timing import clock, percentile, spin


def test_percentile_is_nearest_rank():
    values = list(range(1, 1001))
    assert percentile(values, 0.5) == 500
    assert percentile(values, 0.99) == 990
    assert percentile(values, 0.999) == 999
    assert percentile([7], 0.999) == 7


def test_spin_lasts_at_least_what_it_was_asked_from_the_batch_start():
    assert spin(clock(), 200_000) >= 200_000
    # Time already past since the batch's start counts toward the target.
    assert spin(clock() - 50_000_000, 1_000) >= 50_000_000
