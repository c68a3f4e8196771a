//! `UuidV4`: the "before" path, `uuid::Uuid::new_v4()` with the uuid crate's default features:
//! one `getrandom` syscall per ID. The ID is the UUID's u128 (big-endian reading of its bytes)
//! in little-endian order.

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
        MessageId::from_u128(uuid::Uuid::new_v4().as_u128())
    }
}
