"""Paired mode's block order (sdks/README.md, "Paired mode"): SplitMix64 seeded with SEED and a
Fisher-Yates shuffle of the arms per block."""

MASK = (1 << 64) - 1


def splitmix64(seed):
    state = seed & MASK

    def next_value():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    return next_value


def block_orders(seed, arms, blocks):
    """The order of the arms in each of `blocks` blocks."""
    next_value = splitmix64(seed)
    orders = []
    for _ in range(blocks):
        order = list(range(arms))
        for i in range(arms - 1, 0, -1):
            j = next_value() % (i + 1)
            order[i], order[j] = order[j], order[i]
        orders.append(order)
    return orders
