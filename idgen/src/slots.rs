//! The hand-out shared by the pooled generators: 4 KiB of IDs given out one 16-byte slot at a
//! time, discarded when used up or when the process has forked since they were filled.

use crate::{MessageId, fork};

/// IDs per pool: 4 KiB.
pub(crate) const SLOTS: usize = 256;

pub(crate) type Pool = [[u8; 16]; SLOTS];

pub(crate) struct Slots {
    /// Next slot to hand out; `SLOTS` means empty.
    next: usize,
    /// The fork generation the pool was filled in: a child must not reuse the parent's bytes.
    filled_in: u64,
    pool: Pool,
}

impl Slots {
    pub(crate) const EMPTY: Self = Self { next: SLOTS, filled_in: 0, pool: [[0; 16]; SLOTS] };

    /// The hot path: an index check, a generation check and one 16-byte copy. None when the
    /// owner must refill.
    #[inline(always)]
    pub(crate) fn take(&mut self) -> Option<MessageId> {
        let next = self.next;
        if next < SLOTS && self.filled_in == fork::generation() {
            self.next = next + 1;
            return Some(MessageId::from_le_bytes(self.pool[next]));
        }
        None
    }

    /// Lets `fill` write every slot, marks the pool as filled in this generation and hands out
    /// slot 0.
    pub(crate) fn refill(&mut self, fill: impl FnOnce(&mut Pool)) -> MessageId {
        fill(&mut self.pool);
        self.filled_in = fork::generation();
        self.next = 1;
        MessageId::from_le_bytes(self.pool[0])
    }
}
