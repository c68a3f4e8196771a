//! Fork detection: a process-wide generation counter that a `pthread_atfork` child handler bumps.
//!
//! A generator copied into a forked child would repeat the parent's stream. Each generator records
//! the generation it was seeded in and reseeds when the counter has moved: one relaxed load on the
//! hot path, written only in the child handler. Covers `fork()` through libc (what `std::process`
//! fallbacks, Python-style forking servers and test harnesses use); a raw `clone` syscall skips
//! atfork handlers and is not covered.

use std::sync::atomic::{AtomicU64, Ordering};

static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Registers the child handler once. Generators call it before seeding, so any fork after their
/// seed is seen.
pub(crate) fn register() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        extern "C" fn child() {
            // Runs in the single-threaded child before fork() returns; a lock-free add is safe here.
            GENERATION.fetch_add(1, Ordering::Relaxed);
        }
        ONCE.call_once(|| {
            // SAFETY: registers a handler that only touches a static atomic.
            let rc = unsafe { libc::pthread_atfork(None, None, Some(child)) };
            assert_eq!(rc, 0, "pthread_atfork failed: {rc}");
        });
    }
}

/// The current generation. Relaxed suffices: the handler runs on the thread that continues in
/// the child, so that thread sees its own write.
#[inline(always)]
pub(crate) fn generation() -> u64 {
    GENERATION.load(Ordering::Relaxed)
}

/// 32 bytes from the OS, for seeding.
pub(crate) fn os_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).expect("the OS random source failed");
    seed
}
