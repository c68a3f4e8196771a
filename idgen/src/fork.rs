//! Memory that reads as zeroes in any child process, and the OS seed.
//!
//! Every generator keeps its whole state (key, pool, hand-out index) in a [`Wiped`] region, laid
//! out so that all-zero bytes mean "empty and unseeded". A child must never repeat its parent's
//! IDs, and the kernel is the one place that sees every child however it was made:
//!
//! - **Wipe-on-fork** (Linux >= 4.14): the region is its own anonymous mapping marked
//!   `MADV_WIPEONFORK`, so a child made by `fork()`, a raw `clone(2)` or `clone3` gets it as
//!   fresh zero pages. The generator finds its index at 0, takes the slow path and reseeds.
//! - **Fallback**, where `madvise` refuses (older kernels, other Unixes) or `IDGEN_WIPEONFORK=off`
//!   is set at the first use: a `pthread_atfork` child handler zeroes every live region. That
//!   covers `fork()` through libc but not a raw `clone` syscall, which runs no atfork handlers.
//!
//! Either way the hot path is the same: the generator's own index load and compare with 0.

use std::ptr::NonNull;
use std::sync::OnceLock;

/// How this process keeps children from repeating its IDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForkModel {
    /// State lives in `MADV_WIPEONFORK` memory: every child, however made, reseeds.
    WipeOnFork,
    /// `madvise` was refused (or `IDGEN_WIPEONFORK=off`): an atfork child handler wipes the
    /// state, so `fork()` children reseed and raw `clone` children are not covered.
    AtFork,
}

/// The model for this process, decided once by marking a probe page.
pub fn fork_model() -> ForkModel {
    static MODEL: OnceLock<ForkModel> = OnceLock::new();
    *MODEL.get_or_init(|| {
        let off = std::env::var_os("IDGEN_WIPEONFORK").is_some_and(|v| v == "off");
        if !off && os::probe_wipe_on_fork() { ForkModel::WipeOnFork } else { ForkModel::AtFork }
    })
}

/// Zeroed memory for one `T`, wiped in any child (see the module docs).
///
/// # Safety contract for `T`
/// All-zero bytes must be a valid `T`, and `T` must not need dropping: the region may be zeroed
/// under it at any fork.
pub(crate) struct Wiped<T> {
    ptr: NonNull<T>,
}

// SAFETY: a `Wiped` owns its mapping exclusively, like a `Box`.
unsafe impl<T: Send> Send for Wiped<T> {}

impl<T> Wiped<T> {
    pub(crate) fn new() -> Self {
        const { assert!(!std::mem::needs_drop::<T>()) };
        let ptr = os::map(size_of::<T>(), fork_model()).cast();
        Self { ptr }
    }

    #[inline(always)]
    pub(crate) fn get(&self) -> *mut T {
        self.ptr.as_ptr()
    }

    /// Gives up ownership: the region lives until the process ends (a thread's `mint()` state
    /// when its thread-local can no longer be dropped).
    pub(crate) fn leak(self) -> *mut T {
        let ptr = self.get();
        std::mem::forget(self);
        ptr
    }
}

impl<T> Drop for Wiped<T> {
    fn drop(&mut self) {
        os::unmap(self.ptr.cast(), size_of::<T>());
    }
}

/// 32 bytes from the OS, for seeding.
pub(crate) fn os_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).expect("the OS random source failed");
    seed
}

#[cfg(unix)]
mod os {
    use std::cell::UnsafeCell;
    use std::ptr::NonNull;

    use super::ForkModel;

    fn page_rounded(len: usize) -> usize {
        // SAFETY: sysconf has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
        len.max(1).div_ceil(page) * page
    }

    fn mmap(len: usize) -> NonNull<u8> {
        // SAFETY: a fresh private anonymous mapping; the kernel picks the address.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert!(ptr != libc::MAP_FAILED, "idgen: mmap of {len} bytes failed: {}", std::io::Error::last_os_error());
        NonNull::new(ptr.cast()).expect("mmap returned a non-null mapping")
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn mark_wipe_on_fork(ptr: NonNull<u8>, len: usize) -> bool {
        // SAFETY: `ptr..ptr+len` is a whole private anonymous mapping of ours.
        unsafe { libc::madvise(ptr.as_ptr().cast(), len, libc::MADV_WIPEONFORK) == 0 }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn mark_wipe_on_fork(_: NonNull<u8>, _: usize) -> bool {
        false
    }

    pub(super) fn probe_wipe_on_fork() -> bool {
        let len = page_rounded(1);
        let page = mmap(len);
        let marked = mark_wipe_on_fork(page, len);
        // SAFETY: unmaps the probe page mapped above.
        unsafe { libc::munmap(page.as_ptr().cast(), len) };
        marked
    }

    pub(super) fn map(size: usize, model: ForkModel) -> NonNull<u8> {
        let len = page_rounded(size);
        let ptr = mmap(len);
        if model == ForkModel::AtFork || !mark_wipe_on_fork(ptr, len) {
            AT_FORK.with(|regions| regions.push((ptr.as_ptr() as usize, len)));
        }
        ptr
    }

    pub(super) fn unmap(ptr: NonNull<u8>, size: usize) {
        let len = page_rounded(size);
        let addr = ptr.as_ptr() as usize;
        AT_FORK.with(|regions| regions.retain(|&(a, _)| a != addr));
        // SAFETY: the mapping was made by `map` with the same rounded length.
        unsafe { libc::munmap(ptr.as_ptr().cast(), len) };
    }

    /// The fallback's list of regions to zero in a forked child. Its lock is a plain pthread
    /// mutex, held across `fork()` by the prepare handler so the list is whole in the child.
    struct Registry {
        lock: UnsafeCell<libc::pthread_mutex_t>,
        regions: UnsafeCell<Vec<(usize, usize)>>,
    }

    // SAFETY: `regions` is only touched with `lock` held (or in the single-threaded child).
    unsafe impl Sync for Registry {}

    static AT_FORK: Registry =
        Registry { lock: UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER), regions: UnsafeCell::new(Vec::new()) };

    impl Registry {
        fn with(&self, f: impl FnOnce(&mut Vec<(usize, usize)>)) {
            static HANDLERS: std::sync::Once = std::sync::Once::new();
            // SAFETY: the handlers only lock, unlock and zero registered regions.
            HANDLERS.call_once(|| unsafe {
                let rc = libc::pthread_atfork(Some(prepare), Some(parent), Some(child));
                assert_eq!(rc, 0, "idgen: pthread_atfork failed: {rc}");
            });
            // SAFETY: the list is only reached with the lock held.
            unsafe {
                libc::pthread_mutex_lock(self.lock.get());
                f(&mut *self.regions.get());
                libc::pthread_mutex_unlock(self.lock.get());
            }
        }
    }

    extern "C" fn prepare() {
        // SAFETY: pairs with the unlock in `parent` or `child`.
        unsafe { libc::pthread_mutex_lock(AT_FORK.lock.get()) };
    }

    extern "C" fn parent() {
        // SAFETY: the prepare handler locked it on this thread.
        unsafe { libc::pthread_mutex_unlock(AT_FORK.lock.get()) };
    }

    extern "C" fn child() {
        // SAFETY: the child is single-threaded and the lock is ours (taken in `prepare`); each
        // entry is a live mapping of its length. Zeroing needs no allocation.
        unsafe {
            for &(addr, len) in (*AT_FORK.regions.get()).iter() {
                std::ptr::write_bytes(addr as *mut u8, 0, len);
            }
            libc::pthread_mutex_unlock(AT_FORK.lock.get());
        }
    }
}

/// Without `fork` there is no child to guard against: plain zeroed heap memory.
#[cfg(not(unix))]
mod os {
    use std::alloc::{Layout, alloc_zeroed, dealloc};
    use std::ptr::NonNull;

    use super::ForkModel;

    fn layout(size: usize) -> Layout {
        Layout::from_size_align(size.max(1), 64).expect("region layout")
    }

    pub(super) fn probe_wipe_on_fork() -> bool {
        false
    }

    pub(super) fn map(size: usize, _: ForkModel) -> NonNull<u8> {
        // SAFETY: a non-zero-sized layout.
        NonNull::new(unsafe { alloc_zeroed(layout(size)) }).expect("idgen: allocation failed")
    }

    pub(super) fn unmap(ptr: NonNull<u8>, size: usize) {
        // SAFETY: allocated by `map` with the same layout.
        unsafe { dealloc(ptr.as_ptr(), layout(size)) }
    }
}
