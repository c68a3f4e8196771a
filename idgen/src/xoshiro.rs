//! `Xoshiro`: Xoshiro256++ (256-bit state), two 64-bit outputs per ID. Fast and well
//! distributed, but not a CSPRNG: its state can be recovered from its outputs.

use std::mem::MaybeUninit;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::fork::{self, Wiped};
use crate::{MessageId, Mint};

/// All zeroes is unseeded, so a child (whose copy is wiped) reseeds.
struct State {
    seeded: u8,
    rng: MaybeUninit<Xoshiro256PlusPlus>,
}

pub struct Xoshiro {
    state: Wiped<State>,
}

impl Xoshiro {
    /// Seeded from the OS on first use.
    pub fn new() -> Self {
        Self { state: Wiped::new() }
    }

    /// A fixed state, for tests and reproducible benchmarks. A child process reseeds from the OS.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let xoshiro = Self::new();
        // SAFETY: the region is live and ours alone.
        unsafe { (*xoshiro.state.get()).seed(seed) };
        xoshiro
    }
}

impl State {
    fn seed(&mut self, seed: [u8; 32]) {
        self.rng.write(Xoshiro256PlusPlus::from_seed(seed));
        self.seeded = 1;
    }

    #[cold]
    #[inline(never)]
    fn reseed(&mut self) {
        self.seed(fork::os_seed());
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
        // SAFETY: the region lives as long as `self`, and `&mut self` makes this the only use.
        let state = unsafe { &mut *self.state.get() };
        if state.seeded == 0 {
            state.reseed();
        }
        // SAFETY: seeded just above or earlier; a wipe clears `seeded` with the state.
        let rng = unsafe { state.rng.assume_init_mut() };
        let low = rng.next_u64();
        let high = rng.next_u64();
        MessageId::from_u128(u128::from(high) << 64 | u128::from(low))
    }
}
