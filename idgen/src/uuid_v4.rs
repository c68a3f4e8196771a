//! `UuidV4`: the "before" path, what `uuid::Uuid::new_v4()` does with the uuid crate's default
//! features: one `getrandom` syscall per ID. The ID is the UUID's u128 (big-endian reading of
//! its bytes) in little-endian order.
//!
//! The 16 random bytes are fetched here rather than through `Uuid::new_v4()`, because cargo
//! unifies features across a build: any crate in the same build that turns on uuid's `fast-rng`
//! (the released Iggy client does) would silently turn `new_v4()` into a ThreadRng call and
//! remove the syscall this strategy stands for.

use crate::{MessageId, Mint};

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
        MessageId::from_u128(uuid::Builder::from_random_bytes(bytes).into_uuid().as_u128())
    }
}
