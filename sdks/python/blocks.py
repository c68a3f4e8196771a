"""The order of the arms inside each block of a paired run (../README.md, "Paired mode"):
SplitMix64 seeded with SEED drives a Fisher-Yates shuffle per block, so every language deals the
same order from the same seed."""

MASK = 2**64 - 1


def splitmix64(seed):
    """SplitMix64 (Steele, Lea and Flood 2014): yields its u64 outputs from `seed`."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def block_orders(seed, arms):
    """Yields, block after block, the arm indices 0..arms-1 in that block's order."""
    rng = splitmix64(seed)
    while True:
        order = list(range(arms))
        for i in range(arms - 1, 0, -1):
            j = next(rng) % (i + 1)
            order[i], order[j] = order[j], order[i]
        yield order
