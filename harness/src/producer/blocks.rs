//! The order of the arms inside each block of a paired run (sdks/README.md, "Paired mode"):
//! SplitMix64 seeded with SEED drives a Fisher-Yates shuffle per block, so every language deals
//! the same order from the same seed and a report's seed reproduces it.

/// SplitMix64 (Steele, Lea and Flood 2014): one u64 of state, one output per step.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Yields, block after block, the arm indices 0..arms in that block's order.
pub struct BlockOrder {
    rng: SplitMix64,
    arms: usize,
}

impl BlockOrder {
    pub fn new(seed: u64, arms: usize) -> BlockOrder {
        BlockOrder { rng: SplitMix64::new(seed), arms }
    }
}

impl Iterator for BlockOrder {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let mut order: Vec<usize> = (0..self.arms).collect();
        for i in (1..self.arms).rev() {
            let j = (self.rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        Some(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_published_reference() {
        // The first outputs for seed 1234567 of the reference C code (prng.di.unimi.it/splitmix64.c).
        let mut rng = SplitMix64::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(first, [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423]);
    }

    #[test]
    fn every_block_is_a_permutation_and_orders_vary() {
        let blocks: Vec<Vec<usize>> = BlockOrder::new(42, 4).take(200).collect();
        for b in &blocks {
            let mut sorted = b.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
        }
        let first_arm_first = blocks.iter().filter(|b| b[0] == 0).count();
        assert!((20..80).contains(&first_arm_first), "arm 0 leads {first_arm_first} of 200 blocks");
        assert_ne!(
            BlockOrder::new(1, 4).take(10).collect::<Vec<_>>(),
            BlockOrder::new(2, 4).take(10).collect::<Vec<_>>()
        );
    }
}
