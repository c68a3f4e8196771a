//! Fast, collision-safe 16-byte message IDs for streaming producers.
//!
//! A message ID only has to be unique across threads, processes and machines; it needs neither
//! secrecy nor UUID format. [`mint`] hands out 16 bytes of a ChaCha8 keystream that each thread
//! generates 4 KiB at a time, seeded once per thread from the OS and reseeded in a forked child.
//!
//! # Strategies
//!
//! | strategy | state | seeding | reseeding | after `fork()` | CSPRNG | IDs to a 10^-9 collision chance | ns/ID, median (min .. max) | Ir/ID |
//! |---|---|---|---|---|---|---|---:|---:|
//! | [`mint()`] | ChaCha8 key 256 bits + 64-bit block counter, 4 KiB pool, per thread | 32 bytes of `getrandom` per thread, on first use | none needed (2^64 blocks per key) | child reseeds | yes | 8.2e14 (128 random bits) | 3.83 (3.81 .. 3.92) | 38.95 |
//! | [`Pooled`] | the same, per value | 32 bytes of `getrandom` per value, or [`Pooled::from_seed`] | none needed | child reseeds | yes | 8.2e14 | 4.44 (4.33 .. 4.47) | 38.95 |
//! | [`Xoshiro`] | Xoshiro256++, 256 bits | 32 bytes of `getrandom` per value, or [`Xoshiro::from_seed`] | never | child reseeds | no: outputs reveal the state | 8.2e14 (independent seeds) | 3.38 (3.38 .. 3.38) | 33.99 |
//! | [`OsPool`] | 4 KiB of kernel randomness | none | one `getrandom` per 256 IDs | child refills | yes (kernel) | 8.2e14 | 42.06 (42.05 .. 42.07) | 12.23 + kernel |
//! | [`UuidV4`] | none | none | one `getrandom` per ID | nothing to repeat | yes (kernel) | 1.0e14 (122 random bits) | 353.70 (349.10 .. 368.00) | 49.99 + kernel |
//! | [`ThreadRngUuid`] | `rand`'s ThreadRng: ChaCha12, per thread | 32 bytes of `getrandom` per thread | every 64 KiB (4096 IDs) | **repeats the parent's IDs** until its next reseed | yes | 1.0e14 | 8.69 (8.67 .. 8.71) | 108.45 |
//!
//! The collision column is n = sqrt(2 · 2^bits · 10^-9): after that many IDs from all
//! generators together, the chance that any two are equal reaches one in a billion. ns/ID and
//! Ir/ID are copied from `results/mint-costs.md`, written by `scripts/mint-costs.sh` on
//! 2026-11-30T09:33:07Z (AMD EPYC, 2 shared cores). ns/ID: 1 thread, median and range over 5
//! runs of `cargo bench -p harness --bench mint` (owned generators are reached through a
//! thread-local `RefCell` there, hence `Pooled` a little above `mint()`); `Uuid::new_v4()`
//! measured 349.50 (349.20 .. 356.40) ns/ID in the same runs. Ir/ID: callgrind instructions per ID of
//! `target/release/mint-cost`, which does not see the kernel's share of a syscall.
//!
//! # Fork safety
//!
//! A `pthread_atfork` child handler bumps a process-wide generation; [`mint()`], [`Pooled`],
//! [`Xoshiro`] and [`OsPool`] compare it with the generation they were seeded in (one relaxed
//! load) and reseed from the OS when it moved. No lock and no shared write on the hot path.

mod fork;
mod id;
pub mod ospool;
pub mod pooled;
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
