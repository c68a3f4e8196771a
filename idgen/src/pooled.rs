//! `Pooled`: a ChaCha8 keystream generated in bulk into a 4 KiB pool, handed out 16 bytes at a
//! time. The generator behind [`crate::mint`].

use chacha20::rand_core::SeedableRng;
use chacha20::rand_core::block::Generator;
use chacha20::{ChaChaCore, R8, variants::Legacy};

use crate::slots::Slots;
use crate::{MessageId, Mint, fork};

/// ChaCha8 with a 64-bit block counter (2^64 blocks before the stream would wrap).
type Core = ChaChaCore<R8, Legacy>;
/// Words per call of the core's 4-block (AVX2-wide) generator: sixteen calls fill a pool.
const WORDS_PER_CALL: usize = 64;

pub struct Pooled {
    /// The fork generation the core was seeded in.
    seeded_in: u64,
    /// `None` until first use, so the thread-local behind `mint()` can start out const.
    core: Option<Core>,
    slots: Slots,
}

impl Pooled {
    /// Seeded with 32 bytes from the OS.
    pub fn new() -> Self {
        let mut pooled = Self::UNSEEDED;
        pooled.reseed();
        pooled
    }

    /// A fixed ChaCha8 key, for tests and reproducible benchmarks: the IDs are the keystream
    /// bytes in order. A forked child still reseeds from the OS.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        fork::register();
        Self {
            seeded_in: fork::generation(),
            core: Some(Core::from_seed(seed)),
            ..Self::UNSEEDED
        }
    }

    /// Empty and unseeded: the first `mint` seeds from the OS.
    pub(crate) const UNSEEDED: Self = Self { seeded_in: 0, core: None, slots: Slots::EMPTY };

    fn reseed(&mut self) {
        fork::register();
        self.seeded_in = fork::generation();
        self.core = Some(Core::from_seed(fork::os_seed()));
    }

    /// The slow path, once per 256 IDs: seed if needed, then refill and hand out slot 0.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> MessageId {
        if self.core.is_none() || self.seeded_in != fork::generation() {
            self.reseed();
        }
        let core = self.core.as_mut().expect("seeded above");
        self.slots.refill(|pool| {
            let mut words = [0u32; WORDS_PER_CALL];
            for chunk in pool.chunks_exact_mut(WORDS_PER_CALL / 4) {
                core.generate(&mut words);
                for (dst, word) in chunk.as_flattened_mut().chunks_exact_mut(4).zip(words) {
                    dst.copy_from_slice(&word.to_le_bytes());
                }
            }
        })
    }
}

impl Default for Pooled {
    fn default() -> Self {
        Self::new()
    }
}

impl Mint for Pooled {
    /// An index check, a generation check and one 16-byte copy.
    #[inline(always)]
    fn mint(&mut self) -> MessageId {
        match self.slots.take() {
            Some(id) => id,
            None => self.refill(),
        }
    }
}
