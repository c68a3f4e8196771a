"""pyperf benchmark of minting message IDs with every strategy as the producer does (one `fill`
per batch of BATCH IDs, each ID then read once), plus the alternates `fast` was chosen from. Run
through mint-bench.sh, which turns pyperf's JSON into the raw sample file."""

import time
from functools import partial
from itertools import repeat

import pyperf

from mint import STRATEGIES, FastMinter, ShakeMinter, UrandomMinter, make_minter

# IDs per fill: the runner's default BATCH.
BATCH = 1000
# Batches per timed stretch: a fresh minter is made between stretches, untimed, so `preset` never
# holds more than STRETCH * BATCH IDs however many loops pyperf calibrates. A stretch spans
# several of `fast`'s pools, so the part of the last one left unread is small.
STRETCH = 64
# A pool smaller than a batch: one refill per batch, against the chosen pool's one per
# POOL_BYTES // 16 IDs.
SMALL_POOL_BYTES = 4096


def time_filling(loops, make):
    """Seconds to fill `loops` batches from minters of `make(count)` and read every ID once."""
    clock = time.perf_counter
    total = 0.0
    left = loops
    while left:
        batches = min(left, STRETCH)
        fill = make(batches * BATCH).fill
        started = clock()
        for _ in repeat(None, batches):
            for _ in fill(BATCH):
                pass
        total += clock() - started
        left -= batches
    return total


def time_minting(loops, make):
    """Seconds to mint `loops` IDs one call at a time (the single-ID path)."""
    mint = make().mint
    started = time.perf_counter()
    for _ in repeat(None, loops):
        mint()
    return time.perf_counter() - started


def main():
    runner = pyperf.Runner()
    runner.metadata["description"] = "seconds per minted 16-byte message ID"
    fill = partial(runner.bench_time_func, inner_loops=BATCH)
    for name in STRATEGIES:
        fill(name, time_filling, partial(make_minter, name))
    fill("urandom", time_filling, lambda count: UrandomMinter())
    fill("shake", time_filling, lambda count: ShakeMinter())
    fill(f"fast-pool-{SMALL_POOL_BYTES}", time_filling, lambda count: FastMinter(SMALL_POOL_BYTES))
    runner.bench_time_func("fast-single", time_minting, FastMinter)


if __name__ == "__main__":
    main()
