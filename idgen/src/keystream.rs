//! The keystreams a [`crate::Pool`] hands out: each writes 16-byte IDs straight into a slice.

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};

use crate::fork;

/// A source of 16-byte blocks, written in place.
pub trait Keystream: Sized {
    /// `write` takes a multiple of this many IDs.
    const IDS_PER_CALL: usize;

    /// Seeded from the OS.
    fn from_os() -> Self;

    /// Fills every ID of `out` (`out.len()` a multiple of [`Self::IDS_PER_CALL`]) with the next
    /// bytes of the stream.
    fn write(&mut self, out: &mut [[u8; 16]]);
}

/// AES-128 in counter mode: key = seed bytes 0..16; each counter block is a 64-bit little-endian
/// counter (starting at seed bytes 16..24, wrapping) then the nonce, seed bytes 24..32: RustCrypto
/// `ctr`'s `Ctr64LE`. 2^64 blocks before the stream would repeat, never reached. The `aes` crate
/// picks VAES-512, VAES-256, AES-NI or constant-time software rounds at run time.
pub struct AesCtr {
    cipher: Aes128,
    counter: u64,
    nonce: u64,
}

impl AesCtr {
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let word = |i: usize| u64::from_le_bytes(seed[i..i + 8].try_into().expect("8 bytes"));
        Self {
            cipher: Aes128::new(&Array::try_from(&seed[..16]).expect("16 key bytes")),
            counter: word(16),
            nonce: word(24),
        }
    }
}

impl Keystream for AesCtr {
    const IDS_PER_CALL: usize = 1;

    fn from_os() -> Self {
        Self::from_seed(fork::os_seed())
    }

    fn write(&mut self, out: &mut [[u8; 16]]) {
        // The counter blocks where the keystream goes, then encrypted in place.
        let nonce = self.nonce.to_le_bytes();
        for block in out.iter_mut() {
            let (counter, high) = block.split_at_mut(8);
            counter.copy_from_slice(&self.counter.to_le_bytes());
            high.copy_from_slice(&nonce);
            self.counter = self.counter.wrapping_add(1);
        }
        self.cipher.encrypt_blocks(Array::cast_slice_from_core_mut(out));
    }
}

/// The kernel's randomness: one `getrandom` call per write. Nothing to seed.
pub struct OsRandom;

impl Keystream for OsRandom {
    const IDS_PER_CALL: usize = 1;

    fn from_os() -> Self {
        Self
    }

    fn write(&mut self, out: &mut [[u8; 16]]) {
        getrandom::fill(out.as_flattened_mut()).expect("the OS random source failed");
    }
}

#[cfg(feature = "compare")]
pub use chacha::ChaCha8;

#[cfg(feature = "compare")]
mod chacha {
    use chacha20::rand_core::SeedableRng;
    use chacha20::rand_core::block::Generator;
    use chacha20::{ChaChaCore, R8, variants::Legacy};

    use super::Keystream;
    use crate::fork;

    /// ChaCha8 with a 64-bit block counter (`rand_chacha`'s ChaCha8Rng stream), four blocks
    /// (16 IDs) per call of the `chacha20` crate's AVX2/SSE2/soft core.
    pub struct ChaCha8(ChaChaCore<R8, Legacy>);

    impl ChaCha8 {
        pub fn from_seed(seed: [u8; 32]) -> Self {
            Self(ChaChaCore::from_seed(seed))
        }
    }

    impl Keystream for ChaCha8 {
        const IDS_PER_CALL: usize = 16;

        fn from_os() -> Self {
            Self::from_seed(fork::os_seed())
        }

        fn write(&mut self, out: &mut [[u8; 16]]) {
            let mut words = [0u32; 64];
            for chunk in out.chunks_exact_mut(Self::IDS_PER_CALL) {
                self.0.generate(&mut words);
                for (id, four) in chunk.iter_mut().zip(words.chunks_exact(4)) {
                    for (bytes, word) in id.chunks_exact_mut(4).zip(four) {
                        bytes.copy_from_slice(&word.to_le_bytes());
                    }
                }
            }
        }
    }
}
