//! `Xoshiro`: Xoshiro256++ (256-bit state), two 64-bit outputs per ID. Fast and well
//! distributed, but not a CSPRNG: its state can be recovered from its outputs.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::{MessageId, Mint, fork};

pub struct Xoshiro {
    generation: u64,
    rng: Xoshiro256PlusPlus,
}

impl Xoshiro {
    /// Seeded with 32 bytes from the OS.
    pub fn new() -> Self {
        let mut xoshiro = Self::from_seed([0; 32]);
        xoshiro.reseed();
        xoshiro
    }

    /// A fixed state, for tests and reproducible benchmarks. A forked child reseeds from the OS.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        fork::register();
        Self {
            generation: fork::generation(),
            rng: Xoshiro256PlusPlus::from_seed(seed),
        }
    }

    #[cold]
    #[inline(never)]
    fn reseed(&mut self) {
        self.generation = fork::generation();
        self.rng = Xoshiro256PlusPlus::from_seed(fork::os_seed());
    }
}

impl Default for Xoshiro {
    fn default() -> Self {
        Self::new()
    }
}

impl Mint for Xoshiro {
    #[inline(always)]
    fn mint(&mut self) -> MessageId {
        if self.generation != fork::generation() {
            self.reseed();
        }
        let low = self.rng.next_u64();
        let high = self.rng.next_u64();
        MessageId::from_u128(u128::from(high) << 64 | u128::from(low))
    }
}
