//! `Pool<K>`: IDs from a keystream, generated 256 at a time (4 KiB) into a pool and handed out
//! one 16-byte slot at a time. `Pooled` (AES-128-CTR) is the generator behind [`crate::mint`].

use std::mem::MaybeUninit;

use crate::fork::Wiped;
use crate::keystream::{AesCtr, Keystream, OsRandom};
use crate::{MessageId, Mint};

/// IDs per pool: 4 KiB.
pub(crate) const SLOTS: usize = 256;
const POOL_BYTES: usize = SLOTS * 16;

/// AES-128-CTR pooled: what `mint()` runs, as a value you own.
pub type Pooled = Pool<AesCtr>;
/// 4 KiB of kernel randomness per `getrandom` call, the approach the Node SDK took.
pub type OsPool = Pool<OsRandom>;
/// ChaCha8 pooled: the keystream `mint()` ran before AES-CTR measured faster.
#[cfg(feature = "compare")]
pub type ChaCha8Pool = Pool<crate::keystream::ChaCha8>;

/// A generator's whole state, in memory wiped in any child. All zeroes is a valid state:
/// empty (`left == 0`) and unseeded (`seeded == 0`).
#[repr(C)]
pub(crate) struct State<K> {
    /// Bytes of IDs left in `ids`, handed out from the top down: the next ID is the 16 bytes
    /// just below `left`. 0 (used up, new, or wiped in a child) sends `mint` to the slow path.
    /// Never above `POOL_BYTES`.
    left: usize,
    /// A word, so that `ids` starts 16-byte aligned and no ID straddles a cache line.
    seeded: usize,
    /// Refilled top down (`Keystream::write_down`), so the top-down hand-out is stream order.
    ids: [[u8; 16]; SLOTS],
    key: MaybeUninit<K>,
}

impl<K> State<K> {
    pub(crate) const EMPTY: Self = Self { left: 0, seeded: 0, ids: [[0; 16]; SLOTS], key: MaybeUninit::uninit() };
}

/// The hot path: a load and a checked subtract of 16, the one check (an empty, new or wiped
/// state has `left == 0`), a store and one 16-byte copy.
///
/// # Safety
/// `state` points to a live `State` (it may be a shared empty one: it is written only when
/// `left != 0`).
#[inline(always)]
pub(crate) unsafe fn take<K>(state: *mut State<K>) -> Option<MessageId> {
    // SAFETY: the caller's; raw place reads and writes, no reference to a shared empty state.
    unsafe {
        let left = (*state).left.checked_sub(16)?;
        (*state).left = left;
        // In bounds: left <= POOL_BYTES - 16.
        let id = (&raw const (*state).ids).cast::<u8>().add(left);
        Some(MessageId::from_le_bytes(id.cast::<[u8; 16]>().read()))
    }
}

/// The keystream, seeded from the OS if this state has none (new, or wiped in a child).
fn seeded<'a, K: Keystream>(seeded: &mut usize, key: &'a mut MaybeUninit<K>) -> &'a mut K {
    if *seeded == 0 {
        key.write(K::from_os());
        *seeded = 1;
    }
    // SAFETY: seeded above or earlier; a wipe clears `seeded` with the key.
    unsafe { key.assume_init_mut() }
}

impl<K: Keystream> State<K> {
    /// The slow path, once per 256 IDs: seed if needed and refill. The caller then takes
    /// again, so the hot path has one exit and its ID stays in a register.
    #[cold]
    #[inline(never)]
    pub(crate) fn refill(&mut self) {
        seeded(&mut self.seeded, &mut self.key).write_down(&mut self.ids);
        self.left = POOL_BYTES;
    }

    /// The pool's next IDs into the start of `out`, as `take` would hand them out; how many.
    fn take_into(&mut self, out: &mut [[u8; 16]]) -> usize {
        let top = self.left / 16;
        let n = top.min(out.len());
        for (id, pooled) in out[..n].iter_mut().zip(self.ids[top - n..top].iter().rev()) {
            *id = *pooled;
        }
        self.left -= n * 16;
        n
    }

    /// What is left in the pool, then the keystream straight into `out`; a tail shorter than
    /// one keystream call goes through the pool. The same IDs in the same order as `mint`.
    pub(crate) fn fill(&mut self, out: &mut [MessageId]) {
        let out = MessageId::slice_as_bytes_mut(out);
        let from_pool = self.take_into(out);
        let rest = &mut out[from_pool..];
        let direct = rest.len() - rest.len() % K::IDS_PER_CALL;
        let (straight, tail) = rest.split_at_mut(direct);
        if !straight.is_empty() {
            seeded(&mut self.seeded, &mut self.key).write(straight);
        }
        if !tail.is_empty() {
            self.refill();
            self.take_into(tail);
        }
    }
}

/// A pooled generator you own (one per producer task, say), state in its own wiped region.
pub struct Pool<K: Keystream> {
    state: Wiped<State<K>>,
}

impl<K: Keystream> Pool<K> {
    /// Empty; the first `mint` seeds from the OS.
    pub fn new() -> Self {
        Self { state: Wiped::new() }
    }

    /// A fixed keystream, for tests and reproducible benchmarks: the IDs are its blocks in
    /// order. A child process still reseeds from the OS.
    pub fn with_keystream(keystream: K) -> Self {
        let pool = Self::new();
        // SAFETY: the region is live and ours alone.
        let state = unsafe { &mut *pool.state.get() };
        state.key.write(keystream);
        state.seeded = 1;
        pool
    }
}

impl Pooled {
    /// AES-128 key = seed bytes 0..16, first counter = bytes 16..32 (see [`AesCtr`]).
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Self::with_keystream(AesCtr::from_seed(seed))
    }
}

#[cfg(feature = "compare")]
impl ChaCha8Pool {
    /// The ChaCha8 key; the IDs are `rand_chacha::ChaCha8Rng::from_seed(seed)`'s bytes.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Self::with_keystream(crate::keystream::ChaCha8::from_seed(seed))
    }
}

impl<K: Keystream> Default for Pool<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Keystream> Mint for Pool<K> {
    #[inline(always)]
    fn mint(&mut self) -> MessageId {
        let state = self.state.get();
        loop {
            // SAFETY: the region lives as long as `self`, and `&mut self` makes this the only use.
            if let Some(id) = unsafe { take(state) } {
                return id;
            }
            unsafe { (*state).refill() };
        }
    }

    fn fill(&mut self, out: &mut [MessageId]) {
        // SAFETY: as in `mint`.
        unsafe { (*self.state.get()).fill(out) }
    }
}
