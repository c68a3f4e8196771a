//! AES-128-CTR on VAES, round-major: eight 256-bit registers (16 counter blocks) go through each
//! round before the next begins, the round keys read from memory.
//!
//! Why not the `aes` crate here: its VAES-256 backend encrypts 30 blocks in 15 registers, which
//! with 11 round keys do not fit 16, and LLVM's generic schedule keeps the keys and takes two
//! registers at a time through all ten rounds. A Zen 3 core (AMD EPYC, family 25 model 1) overlaps
//! too few of those 40-cycle chains and runs at about twice the 2.5 cycles per block its two VAES
//! units allow; this order comes close to them (results/mint-costs.md: `fill` against
//! `fill-aes-crate`, and each over the floor). Where VAES is missing, AVX-512 gives the crate its
//! VAES-512 rounds, or its portable rounds are forced (`--cfg aes_backend="soft"`), the crate
//! does all of it.

use std::arch::x86_64::{
    __m128i, __m256i, _mm_aeskeygenassist_si128, _mm_loadu_si128, _mm_shuffle_epi32, _mm_slli_si128, _mm_xor_si128,
    _mm256_add_epi64, _mm256_aesenc_epi128, _mm256_aesenclast_epi128, _mm256_broadcastsi128_si256, _mm256_set_epi64x,
    _mm256_storeu_si256, _mm256_xor_si256,
};

/// 256-bit registers in flight: 8 hide the VAES latency of 4 cycles at two a cycle.
const LANES: usize = 8;
/// Counter blocks per group of `LANES` registers.
const GROUP: usize = 2 * LANES;

/// The 11 AES-128 round keys, each in both halves of a 256-bit register.
pub(super) struct Vaes {
    keys: [__m256i; 11],
}

impl Vaes {
    /// `key` expanded, where the `aes` crate would run VAES-256: VAES with AES-NI and AVX2, but
    /// no AVX-512 (the crate's VAES-512 rounds ran close to the floor on this project's Intel
    /// Xeon, results/mint-costs.* of 4443174, and stay); `None` elsewhere.
    pub(super) fn new(key: &[u8; 16]) -> Option<Self> {
        let here = is_x86_feature_detected!("aes")
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("vaes")
            && !is_x86_feature_detected!("avx512f");
        // SAFETY: the features `expand` needs were just detected.
        here.then(|| unsafe { expand(key) })
    }

    /// The blocks `first`, `first + 1`, .. (64-bit little-endian counter, wrapping, then `nonce`)
    /// encrypted into `out`, the first at the first slot, or with `DOWN` at the last.
    pub(super) fn write<const DOWN: bool>(&self, first: u64, nonce: u64, out: &mut [[u8; 16]]) {
        // SAFETY: a `Vaes` exists only where `new` found the features.
        unsafe { self.write_in::<DOWN>(first, nonce, out) }
    }

    #[target_feature(enable = "avx2,vaes")]
    fn write_in<const DOWN: bool>(&self, first: u64, nonce: u64, out: &mut [[u8; 16]]) {
        // A register's two blocks are consecutive slots: counters `c, c + 1` upward, `c, c - 1`
        // downward, the next register's two further on.
        let (start, sign) = if DOWN { (first.wrapping_add(out.len() as u64).wrapping_sub(1), -1) } else { (first, 1) };
        let nonce = nonce as i64;
        let mut counters = _mm256_set_epi64x(nonce, (start as i64).wrapping_add(sign), nonce, start as i64);
        let step = _mm256_set_epi64x(0, 2 * sign, 0, 2 * sign);
        let mut group = || {
            let mut blocks = [counters; LANES];
            for block in &mut blocks {
                *block = _mm256_xor_si256(counters, self.keys[0]);
                counters = _mm256_add_epi64(counters, step);
            }
            for key in &self.keys[1..10] {
                for block in &mut blocks {
                    *block = _mm256_aesenc_epi128(*block, *key);
                }
            }
            blocks.map(|block| _mm256_aesenclast_epi128(block, self.keys[10]))
        };
        let store = |to: &mut [[u8; 16]; GROUP], blocks: [__m256i; LANES]| {
            let to: *mut __m256i = to.as_mut_ptr().cast();
            for (i, block) in blocks.into_iter().enumerate() {
                // SAFETY: `to` holds GROUP blocks, LANES registers of two; unaligned stores.
                unsafe { _mm256_storeu_si256(to.add(i), block) };
            }
        };
        let (groups, tail) = out.as_chunks_mut::<GROUP>();
        for to in groups {
            store(to, group());
        }
        if !tail.is_empty() {
            // The tail's counters continue the stream; the group's surplus blocks are dropped.
            let mut spare = [[0u8; 16]; GROUP];
            store(&mut spare, group());
            let len = tail.len();
            tail.copy_from_slice(&spare[..len]);
        }
    }
}

/// FIPS-197's AES-128 key expansion, each round key from the last and AESKEYGENASSIST's word.
#[target_feature(enable = "aes,avx2")]
fn expand(key: &[u8; 16]) -> Vaes {
    let next = |key: __m128i, assist: __m128i| {
        let mut key = key;
        for _ in 0..3 {
            key = _mm_xor_si128(key, _mm_slli_si128::<4>(key));
        }
        _mm_xor_si128(key, _mm_shuffle_epi32::<0xff>(assist))
    };
    // SAFETY: an unaligned 16-byte load of 16 bytes.
    let mut round = unsafe { _mm_loadu_si128(key.as_ptr().cast()) };
    let mut keys = [_mm256_broadcastsi128_si256(round); 11];
    macro_rules! rounds {
        ($($i:literal: $rcon:literal),*) => {$(
            round = next(round, _mm_aeskeygenassist_si128::<$rcon>(round));
            keys[$i] = _mm256_broadcastsi128_si256(round);
        )*};
    }
    rounds!(1: 0x01, 2: 0x02, 3: 0x04, 4: 0x08, 5: 0x10, 6: 0x20, 7: 0x40, 8: 0x80, 9: 0x1b, 10: 0x36);
    Vaes { keys }
}
