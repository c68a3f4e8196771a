//! The order of the arms inside each block of a paired run (sdks/README.md, "Paired mode"):
//! SplitMix64 seeded with SEED drives a Fisher-Yates shuffle per block, so every language deals
//! the same order from the same seed and a report's seed reproduces it.

use crate::splitmix::SplitMix64;

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
