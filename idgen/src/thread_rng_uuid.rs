//! `ThreadRngUuid`: v4 UUID bits over `rand`'s `ThreadRng` (ChaCha12, reseeded every 64 KiB),
//! what the uuid crate's `fast-rng` feature does and what the Iggy Rust SDK ships. `ThreadRng`
//! does not reseed on fork: a forked child repeats its parent's IDs until the next reseed.

use crate::{MessageId, Mint, uuid_v4};

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
        uuid_v4::as_v4(rand::random::<u128>())
    }
}
