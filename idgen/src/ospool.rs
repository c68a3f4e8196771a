//! `OsPool`: a 4 KiB buffer filled by one `getrandom` call and handed out 16 bytes at a time,
//! the approach the Node SDK took. One syscall per 256 IDs.

use crate::{MessageId, Mint, fork};

const SLOTS: usize = 256;

pub struct OsPool {
    /// Next slot to hand out; `SLOTS` means empty.
    next: usize,
    /// The fork generation the buffer was filled in: a child must not reuse the parent's bytes.
    generation: u64,
    pool: [[u8; 16]; SLOTS],
}

impl OsPool {
    /// Empty; the first `mint` fills the buffer from the OS.
    pub fn new() -> Self {
        fork::register();
        Self {
            next: SLOTS,
            generation: fork::generation(),
            pool: [[0; 16]; SLOTS],
        }
    }

    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> MessageId {
        self.generation = fork::generation();
        getrandom::fill(self.pool.as_flattened_mut()).expect("the OS random source failed");
        self.next = 1;
        MessageId::from_le_bytes(self.pool[0])
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
        let next = self.next;
        if next < SLOTS && self.generation == fork::generation() {
            self.next = next + 1;
            return MessageId::from_le_bytes(self.pool[next]);
        }
        self.refill()
    }
}
