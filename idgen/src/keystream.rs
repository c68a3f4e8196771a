//! The keystreams a [`crate::Pool`] hands out: each writes 16-byte IDs straight into a slice.

use aes::Aes128;
use aes::cipher::consts::U16;
use aes::cipher::typenum::Unsigned;
use aes::cipher::{
    Array, BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, KeyInit, ParBlocks,
};

use crate::fork;

#[cfg(all(target_arch = "x86_64", not(aes_backend = "soft")))]
mod vaes;

/// A source of 16-byte blocks, written in place.
pub trait Keystream: Sized {
    /// `write` takes a multiple of this many IDs.
    const IDS_PER_CALL: usize;

    /// Seeded from the OS.
    fn from_os() -> Self;

    /// Fills every ID of `out` (`out.len()` a multiple of [`Self::IDS_PER_CALL`]) with the next
    /// bytes of the stream.
    fn write(&mut self, out: &mut [[u8; 16]]);

    /// What `write` would, laid down from the last ID of `out` to the first: a pool hands out
    /// from its top, and so takes the stream in order.
    fn write_down(&mut self, out: &mut [[u8; 16]]);
}

/// AES-128 in counter mode: key = seed bytes 0..16; each counter block is a 64-bit little-endian
/// counter (starting at seed bytes 16..24, wrapping) then the nonce, seed bytes 24..32: RustCrypto
/// `ctr`'s `Ctr64LE`. 2^64 blocks before the stream would repeat, never reached. On x86-64 with
/// VAES but no AVX-512 the rounds are idgen's own (`keystream/vaes.rs`); elsewhere the `aes`
/// crate picks VAES-512, AES-NI or constant-time software rounds at run time.
pub struct AesCtr {
    rounds: Rounds,
    counter: u64,
    nonce: u64,
}

/// Who runs the rounds: one key, one stream, whichever it is.
enum Rounds {
    #[cfg(all(target_arch = "x86_64", not(aes_backend = "soft")))]
    Vaes(vaes::Vaes),
    Crate(Aes128),
}

impl Rounds {
    /// The `aes` crate's, keyed with seed bytes 0..16.
    fn of_crate(seed: &[u8; 32]) -> Self {
        Self::Crate(Aes128::new(&Array::try_from(&seed[..16]).expect("16 key bytes")))
    }
}

impl AesCtr {
    pub fn from_seed(seed: [u8; 32]) -> Self {
        #[cfg(all(target_arch = "x86_64", not(aes_backend = "soft")))]
        if let Some(rounds) = vaes::Vaes::new(seed[..16].try_into().expect("16 key bytes")) {
            return Self::with_rounds(Rounds::Vaes(rounds), seed);
        }
        Self::with_rounds(Rounds::of_crate(&seed), seed)
    }

    /// The same stream with the `aes` crate's rounds on every CPU: what `from_seed` gave before
    /// idgen had rounds of its own, kept to time the two in one run.
    #[cfg(feature = "compare")]
    pub fn with_crate_rounds(seed: [u8; 32]) -> Self {
        Self::with_rounds(Rounds::of_crate(&seed), seed)
    }

    fn with_rounds(rounds: Rounds, seed: [u8; 32]) -> Self {
        let word = |i: usize| u64::from_le_bytes(seed[i..i + 8].try_into().expect("8 bytes"));
        Self { rounds, counter: word(16), nonce: word(24) }
    }
}

impl Keystream for AesCtr {
    const IDS_PER_CALL: usize = 1;

    fn from_os() -> Self {
        Self::from_seed(fork::os_seed())
    }

    fn write(&mut self, out: &mut [[u8; 16]]) {
        self.write_in::<false>(out);
    }

    fn write_down(&mut self, out: &mut [[u8; 16]]) {
        self.write_in::<true>(out);
    }
}

impl AesCtr {
    fn write_in<const DOWN: bool>(&mut self, out: &mut [[u8; 16]]) {
        let first = self.counter;
        self.counter = first.wrapping_add(out.len() as u64);
        match &self.rounds {
            #[cfg(all(target_arch = "x86_64", not(aes_backend = "soft")))]
            Rounds::Vaes(rounds) => rounds.write::<DOWN>(first, self.nonce, out),
            Rounds::Crate(cipher) => cipher.encrypt_with_backend(Ctr::<DOWN> { out, first, nonce: self.nonce }),
        }
    }
}

/// One `write` inside the cipher's backend (AES-NI, VAES or software, picked at run time):
/// each group of the backend's parallel blocks has its counter blocks made on the stack, where
/// the compiler keeps them in registers, and encrypted straight into `out`. `DOWN` gives the
/// last slot the first counter.
struct Ctr<'a, const DOWN: bool> {
    out: &'a mut [[u8; 16]],
    first: u64,
    nonce: u64,
}

impl<const DOWN: bool> BlockSizeUser for Ctr<'_, DOWN> {
    type BlockSize = U16;
}

impl<const DOWN: bool> BlockCipherEncClosure for Ctr<'_, DOWN> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let n = self.out.len();
        let counter_block = |slot: usize| {
            let i = if DOWN { n - 1 - slot } else { slot };
            let mut block = Array::<u8, U16>::default();
            let (counter, nonce) = block.split_at_mut(8);
            counter.copy_from_slice(&self.first.wrapping_add(i as u64).to_le_bytes());
            nonce.copy_from_slice(&self.nonce.to_le_bytes());
            block
        };
        let par = B::ParBlocksSize::USIZE;
        let out = Array::cast_slice_from_core_mut(self.out);
        let (groups, tail) = out.split_at_mut(n - n % par);
        for (g, group) in groups.chunks_exact_mut(par).enumerate() {
            let counters: ParBlocks<B> = Array::from_fn(|j| counter_block(g * par + j));
            backend.encrypt_par_blocks((&counters, group.try_into().expect("a whole group")).into());
        }
        for (j, block) in tail.iter_mut().enumerate() {
            backend.encrypt_block((&counter_block(n - n % par + j), block).into());
        }
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

    /// Fresh kernel bytes have no order to keep.
    fn write_down(&mut self, out: &mut [[u8; 16]]) {
        self.write(out);
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

        /// The next four blocks (16 IDs) into `ids`, in the order it yields them.
        fn next_16<'a>(&mut self, ids: impl Iterator<Item = &'a mut [u8; 16]>) {
            let mut words = [0u32; 64];
            self.0.generate(&mut words);
            for (id, four) in ids.zip(words.chunks_exact(4)) {
                for (bytes, word) in id.chunks_exact_mut(4).zip(four) {
                    bytes.copy_from_slice(&word.to_le_bytes());
                }
            }
        }
    }

    impl Keystream for ChaCha8 {
        const IDS_PER_CALL: usize = 16;

        fn from_os() -> Self {
            Self::from_seed(fork::os_seed())
        }

        fn write(&mut self, out: &mut [[u8; 16]]) {
            for chunk in out.chunks_exact_mut(Self::IDS_PER_CALL) {
                self.next_16(chunk.iter_mut());
            }
        }

        fn write_down(&mut self, out: &mut [[u8; 16]]) {
            for chunk in out.rchunks_exact_mut(Self::IDS_PER_CALL) {
                self.next_16(chunk.iter_mut().rev());
            }
        }
    }
}

#[cfg(all(test, target_arch = "x86_64", not(aes_backend = "soft")))]
mod tests {
    use super::*;

    /// Both of `AesCtr`'s round runners for one seed.
    fn both(seed: [u8; 32]) -> Option<[AesCtr; 2]> {
        let vaes = vaes::Vaes::new(seed[..16].try_into().expect("16 key bytes"))?;
        Some([AesCtr::with_rounds(Rounds::Vaes(vaes), seed), AesCtr::with_rounds(Rounds::of_crate(&seed), seed)])
    }

    /// The VAES rounds write the `aes` crate's stream, up and down, at every length around a
    /// group of 16 blocks, call after call, and across the counter's wrap.
    #[test]
    fn vaes_rounds_write_the_aes_crate_stream() {
        let mut seed: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(151).wrapping_add(7));
        if both(seed).is_none() {
            eprintln!("idgen's own rounds do not run on this CPU (no VAES, or AVX-512): nothing to compare");
            return;
        }
        for start in [0, u64::MAX - 40] {
            seed[16..24].copy_from_slice(&start.to_le_bytes());
            for down in [false, true] {
                let [mut vaes, mut reference] = both(seed).expect("VAES found above");
                for len in 0..=49 {
                    let (mut ours, mut theirs) = (vec![[0u8; 16]; len], vec![[1u8; 16]; len]);
                    if down {
                        vaes.write_down(&mut ours);
                        reference.write_down(&mut theirs);
                    } else {
                        vaes.write(&mut ours);
                        reference.write(&mut theirs);
                    }
                    assert_eq!(ours, theirs, "from counter {start}, {len} blocks, down {down}");
                }
            }
        }
    }
}
