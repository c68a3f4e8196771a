#![doc = include_str!("../README.md")]

mod fork;
mod id;
pub mod ospool;
pub mod pooled;
mod slots;
mod strategy;
pub mod thread_rng_uuid;
pub mod uuid_v4;
pub mod xoshiro;

use std::cell::UnsafeCell;

pub use id::{MessageId, ParseIdError};
pub use ospool::OsPool;
pub use pooled::Pooled;
pub use strategy::{Strategy, UnknownStrategy};
pub use thread_rng_uuid::ThreadRngUuid;
pub use uuid_v4::UuidV4;
pub use xoshiro::Xoshiro;

/// A source of message IDs.
pub trait Mint {
    fn mint(&mut self) -> MessageId;

    fn fill(&mut self, out: &mut [MessageId]) {
        for id in out {
            *id = self.mint();
        }
    }
}

thread_local! {
    // Const-initialised and free of drop glue, so access is a plain thread-pointer offset.
    static LOCAL: UnsafeCell<Pooled> = const { UnsafeCell::new(Pooled::UNSEEDED) };
}

/// A fresh ID from this thread's [`Pooled`] generator: about a dozen instructions, a ChaCha8
/// refill every 256 IDs, one `getrandom` call per thread (and per forked child).
#[inline]
pub fn mint() -> MessageId {
    // SAFETY: the pool is only reached through this function, which does not re-enter itself,
    // so this is the only reference for the call's duration.
    LOCAL.with(|pool| unsafe { (*pool.get()).mint() })
}

/// The SDK's `id = 0` rule: 0 mints a fresh ID, any other value is kept.
#[inline]
pub fn resolve(id: u128) -> MessageId {
    if id == 0 {
        mint()
    } else {
        MessageId::from_u128(id)
    }
}
