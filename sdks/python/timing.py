"""A producer run's clock work: injected work's spin and the round trips' percentiles. The
iggy-python row times its runs with it too."""

import math
import time

clock = time.perf_counter_ns  # monotonic, ns


def percentile(sorted_values, fraction):
    """Nearest-rank percentile: the smallest value with at least `fraction` of values at or
    below it."""
    rank = max(math.ceil(fraction * len(sorted_values)), 1)
    return sorted_values[rank - 1]


def spin(started, ns):
    """Injected work: spins on the monotonic clock until `ns` have passed since the batch's start
    (`clock()` ns); returns the measured ns since that start, the call included."""
    now = clock()
    while now - started < ns:
        now = clock()
    return now - started
