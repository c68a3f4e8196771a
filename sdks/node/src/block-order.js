// The order of the arms inside each block of a paired run (sdks/README.md, "Paired mode"):
// SplitMix64 seeded with SEED drives a Fisher-Yates shuffle per block, so every language deals
// the same order from the same seed. BigInt keeps the u64 arithmetic exact.

const U64 = 64;

export class SplitMix64 {
  /** @param {bigint} seed a u64 */
  constructor(seed) {
    this.state = BigInt.asUintN(U64, seed);
  }

  /** @returns {bigint} the next u64 */
  next() {
    this.state = BigInt.asUintN(U64, this.state + 0x9e3779b97f4a7c15n);
    let z = this.state;
    z = BigInt.asUintN(U64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(U64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  }
}

/** Deals, block after block, the arm indices 0..arms-1 in that block's order. */
export class BlockOrder {
  constructor(seed, arms) {
    this.rng = new SplitMix64(seed);
    this.arms = arms;
  }

  /** @returns {number[]} */
  next() {
    const order = Array.from({ length: this.arms }, (_, i) => i);
    for (let i = this.arms - 1; i >= 1; i--) {
      const j = Number(this.rng.next() % BigInt(i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }
}
