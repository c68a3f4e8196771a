//! `OsPool`: a 4 KiB buffer filled by one `getrandom` call and handed out 16 bytes at a time,
//! the approach the Node SDK took. One syscall per 256 IDs.

use crate::slots::Slots;
use crate::{MessageId, Mint, fork};

pub struct OsPool {
    slots: Slots,
}

impl OsPool {
    /// Empty; the first `mint` fills the buffer from the OS.
    pub fn new() -> Self {
        fork::register();
        Self { slots: Slots::EMPTY }
    }

    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> MessageId {
        self.slots.refill(|pool| getrandom::fill(pool.as_flattened_mut()).expect("the OS random source failed"))
    }
}

impl Default for OsPool {
    fn default() -> Self {
        Self::new()
    }
}

impl Mint for OsPool {
    #[inline(always)]
    fn mint(&mut self) -> MessageId {
        match self.slots.take() {
            Some(id) => id,
            None => self.refill(),
        }
    }
}
