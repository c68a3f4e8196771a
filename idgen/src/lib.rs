#![doc = include_str!("../README.md")]

#[cfg(feature = "compare")]
pub mod counter;
mod fork;
mod id;
pub mod keystream;
mod pool;
mod strategy;
#[cfg(feature = "compare")]
pub mod thread_rng_uuid;
pub mod uuid_v4;
#[cfg(feature = "compare")]
pub mod xoshiro;

use std::cell::Cell;

#[cfg(feature = "compare")]
pub use counter::Counter;
pub use fork::{ForkModel, fork_model};
pub use id::{MessageId, ParseIdError};
#[cfg(feature = "compare")]
pub use pool::ChaCha8Pool;
pub use pool::{OsPool, Pool, Pooled};
pub use strategy::{Strategy, UnknownStrategy};
#[cfg(feature = "compare")]
pub use thread_rng_uuid::ThreadRngUuid;
pub use uuid_v4::UuidV4;
#[cfg(feature = "compare")]
pub use xoshiro::Xoshiro;

use fork::Wiped;
use keystream::AesCtr;
use pool::State;

/// A source of message IDs.
pub trait Mint {
    fn mint(&mut self) -> MessageId;

    /// IDs for a whole batch, in the order `mint` would give them.
    fn fill(&mut self, out: &mut [MessageId]) {
        for id in out {
            *id = self.mint();
        }
    }
}

/// Where a thread's `mint()` state is before its first ID: empty, so the hot path's compare
/// sends it to `local_state`, and never written.
static UNUSED: State<AesCtr> = State::EMPTY;

thread_local! {
    // Const-initialised and free of drop glue, so access is a plain thread-pointer offset.
    static LOCAL: Cell<*mut State<AesCtr>> = const { Cell::new((&raw const UNUSED).cast_mut()) };
    // Frees the region at thread exit; touched only when the region is made.
    static OWNER: Owner = const { Owner(Cell::new(None)) };
}

struct Owner(Cell<Option<Wiped<State<AesCtr>>>>);

impl Drop for Owner {
    fn drop(&mut self) {
        let _ = LOCAL.try_with(|local| local.set((&raw const UNUSED).cast_mut()));
    }
}

/// This thread's state, made on first use.
#[cold]
#[inline(never)]
fn local_state() -> *mut State<AesCtr> {
    let state = LOCAL.get();
    if !std::ptr::eq(state, &raw const UNUSED) {
        return state;
    }
    let mut region = Some(Wiped::new());
    let state = region.as_ref().expect("just made").get();
    let _ = OWNER.try_with(|owner| owner.0.set(region.take()));
    // Past this thread's destructors: the region outlives the thread.
    region.map(Wiped::leak);
    LOCAL.set(state);
    state
}

#[cold]
#[inline(never)]
fn local_refill() {
    // SAFETY: a live region of this thread, reached only from this thread.
    unsafe { (*local_state()).refill() }
}

/// A fresh ID from this thread's AES-128-CTR pool: the thread-local pointer, a load and
/// subtract of the pool's count (the one check: empty, new and wiped-in-a-child all read 0), its
/// store and a 16-byte copy; a refill every 256 IDs; one `getrandom` call per thread (and per
/// child process).
#[inline]
pub fn mint() -> MessageId {
    // SAFETY: the state is this thread's; `mint`, `fill` and `local_refill` do not re-enter
    // each other, so each access is the only one for its duration.
    loop {
        if let Some(id) = unsafe { pool::take(LOCAL.get()) } {
            return id;
        }
        local_refill();
    }
}

/// Fresh IDs for all of `out` from this thread's pool, the keystream written straight into the
/// slice: the call for an SDK that builds a batch's IDs up front.
pub fn fill(out: &mut [MessageId]) {
    // SAFETY: as in `mint`.
    unsafe { (*local_state()).fill(out) }
}

/// The SDK's `id = 0` rule: 0 mints a fresh ID, any other value is kept.
#[inline]
pub fn resolve(id: u128) -> MessageId {
    if id == 0 { mint() } else { MessageId::from_u128(id) }
}
