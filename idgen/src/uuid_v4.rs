//! `UuidV4`: the "before" path, what `uuid::Uuid::new_v4()` does with the uuid crate's default
//! features: one `getrandom` syscall per ID. The ID is the UUID's u128 (big-endian reading of
//! its bytes) in little-endian order.
//!
//! The 16 random bytes are fetched and masked here rather than through `Uuid::new_v4()`, because
//! cargo unifies features across a build: any crate in the same build that turns on uuid's
//! `fast-rng` (the released Iggy client does) would silently turn `new_v4()` into a ThreadRng
//! call and remove the syscall this strategy stands for. A test checks the bits against uuid.

use crate::{MessageId, Mint};

/// The six fixed bits of a v4 UUID read as a u128: version nibble 4 (bits 76..80) and variant
/// 0b10 (bits 62..64).
const V4_FIXED_MASK: u128 = 0xF << 76 | 0b11 << 62;
const V4_FIXED_BITS: u128 = 0x4 << 76 | 0b10 << 62;

/// 128 random bits as a v4 UUID: the six fixed bits set, 122 random bits kept.
#[inline]
pub(crate) fn as_v4(random: u128) -> MessageId {
    MessageId::from_u128(random & !V4_FIXED_MASK | V4_FIXED_BITS)
}

#[derive(Default)]
pub struct UuidV4;

impl UuidV4 {
    /// Stateless: every ID asks the OS.
    pub fn new() -> Self {
        Self
    }
}

impl Mint for UuidV4 {
    #[inline]
    fn mint(&mut self) -> MessageId {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).expect("the OS random source failed");
        as_v4(u128::from_be_bytes(bytes))
    }
}
