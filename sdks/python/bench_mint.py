"""pyperf benchmark of minting one message ID with every strategy, plus the pool sizes `fast`
was chosen from. Run through bench.sh, which turns pyperf's JSON into the raw sample file."""

import time
from functools import partial
from itertools import repeat

import pyperf

from mint import STRATEGIES, fast_mint, make_mint

# IDs per timed stretch: a fresh minter is made between stretches, untimed, so `preset` never
# holds more than this many IDs however many loops pyperf calibrates.
STRETCH = 16384
POOL_SIZES = (256, 1024, 4096, 16384, 65536)


def time_minting(loops, make):
    """Seconds to mint `loops` IDs with minters from `make(count)`."""
    clock = time.perf_counter
    total = 0.0
    left = loops
    while left:
        count = min(left, STRETCH)
        mint = make(count)
        started = clock()
        for _ in repeat(None, count):
            mint()
        total += clock() - started
        left -= count
    return total


def main():
    runner = pyperf.Runner()
    runner.metadata["description"] = "seconds per minted 16-byte message ID"
    for name in STRATEGIES:
        runner.bench_time_func(name, time_minting, partial(make_mint, name))
    for pool_bytes in POOL_SIZES:
        runner.bench_time_func(f"fast-pool-{pool_bytes}", time_minting,
                               lambda count, size=pool_bytes: fast_mint(size))


if __name__ == "__main__":
    main()
