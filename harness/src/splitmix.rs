//! SplitMix64 (Steele, Lea and Flood 2014): the one generator of the project's seeds and shuffles.
//! The paired block order (`producer`'s `BlockOrder`, the same in every language) and the
//! runner's per-process seeds draw from it.

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
}
