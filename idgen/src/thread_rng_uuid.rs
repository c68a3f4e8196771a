//! `ThreadRngUuid`: v4 UUID bits over `rand`'s `ThreadRng` (ChaCha12, reseeded every 64 KiB),
//! what the uuid crate's `fast-rng` feature does and what the Iggy Rust SDK ships. `ThreadRng`
//! does not reseed on fork: a forked child repeats its parent's IDs until the next reseed.

use crate::{MessageId, Mint};

/// The six fixed bits of a v4 UUID read as a u128: version nibble 4 (bits 76..80) and variant
/// 0b10 (bits 62..64).
const V4_FIXED_MASK: u128 = 0xF << 76 | 0b11 << 62;
const V4_FIXED_BITS: u128 = 0x4 << 76 | 0b10 << 62;

#[derive(Default)]
pub struct ThreadRngUuid;

impl ThreadRngUuid {
    /// Stateless here: the state is `rand`'s thread-local, seeded from the OS on first use.
    pub fn new() -> Self {
        Self
    }
}

impl Mint for ThreadRngUuid {
    #[inline]
    fn mint(&mut self) -> MessageId {
        // uuid's own masking in `new_v4`, with `fast-rng` drawing the u128 from `rand::random`.
        MessageId::from_u128(rand::random::<u128>() & !V4_FIXED_MASK | V4_FIXED_BITS)
    }
}
