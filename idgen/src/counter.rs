//! `Counter`: the floor a benchmark measures minting against, NOT an ID source. Its IDs are
//! sequential: anyone who sees one knows the next, two generators that draw the same high half
//! collide wherever their counts overlap, and a forked child repeats its parent's IDs. Never a
//! default, never the answer to "which strategy should I use".

use crate::{MessageId, Mint, fork};

/// The high half a random non-zero u64 per generator, the low half counting up (wrapping) from a
/// random start: minting is two stores and an add.
pub struct Counter {
    low: u64,
    high: u64,
}

impl Counter {
    /// A random start from the OS.
    pub fn new() -> Self {
        let seed = fork::os_seed();
        let word = |i: usize| u64::from_le_bytes(seed[i..i + 8].try_into().expect("8 bytes"));
        Self::from_start(u128::from(word(8).max(1)) << 64 | u128::from(word(0)))
    }

    /// A fixed first ID, for tests. Its high half must be non-zero: that keeps the zero ID (the
    /// SDK's "mint one for me") out of reach however far the low half counts.
    pub fn from_start(start: u128) -> Self {
        let high = (start >> 64) as u64;
        assert_ne!(high, 0, "a counter's start needs a non-zero high half");
        Self { low: start as u64, high }
    }
}

impl Default for Counter {
    fn default() -> Self {
        Self::new()
    }
}

impl Mint for Counter {
    #[inline]
    fn mint(&mut self) -> MessageId {
        let id = MessageId::from_u128(u128::from(self.high) << 64 | u128::from(self.low));
        self.low = self.low.wrapping_add(1);
        id
    }
}
