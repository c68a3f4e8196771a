//! What the sink has seen, shared by every connection and read by the runner around each run.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use serde::Serialize;

/// Totals since the sink started. Connections add to them once per batch.
#[derive(Default, Debug)]
pub struct Counts {
    connections: AtomicU64,
    batches: AtomicU64,
    messages: AtomicU64,
    bytes: AtomicU64,
    duplicates: AtomicU64,
    gaps: AtomicU64,
    unexpected_payloads: AtomicU64,
    checksum_failures: AtomicU64,
    rejected_frames: AtomicU64,
}

/// A copy of [`Counts`] at one moment; the difference of two is what one run delivered.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct CountsSnapshot {
    pub connections: u64,
    pub batches: u64,
    /// Messages that arrived exactly once and in order.
    pub messages: u64,
    /// Bytes of every frame received.
    pub bytes: u64,
    pub duplicates: u64,
    /// Messages missing before one that arrived.
    pub gaps: u64,
    /// Payloads that are not any message's payload.
    pub unexpected_payloads: u64,
    pub checksum_failures: u64,
    /// Frames refused for their size or form (checksum failures included).
    pub rejected_frames: u64,
}

impl CountsSnapshot {
    pub fn since(&self, before: &CountsSnapshot) -> CountsSnapshot {
        CountsSnapshot {
            connections: self.connections - before.connections,
            batches: self.batches - before.batches,
            messages: self.messages - before.messages,
            bytes: self.bytes - before.bytes,
            duplicates: self.duplicates - before.duplicates,
            gaps: self.gaps - before.gaps,
            unexpected_payloads: self.unexpected_payloads - before.unexpected_payloads,
            checksum_failures: self.checksum_failures - before.checksum_failures,
            rejected_frames: self.rejected_frames - before.rejected_frames,
        }
    }

    /// Why these counts are not a clean delivery of `expected` messages, if they are not.
    pub fn delivery_problem(&self, expected: u64) -> Option<String> {
        let faults = [
            (self.duplicates, "duplicated"),
            (self.gaps, "lost"),
            (self.unexpected_payloads, "with an unexpected payload"),
            (self.checksum_failures, "failing their checksum (frames)"),
            (self.rejected_frames, "refused (frames)"),
        ];
        let mut problems: Vec<String> =
            faults.iter().filter(|(n, _)| *n > 0).map(|(n, what)| format!("{n} {what}")).collect();
        if self.messages != expected {
            problems.insert(0, format!("sink received {} of {expected} messages", self.messages));
        }
        (!problems.is_empty()).then(|| problems.join(", "))
    }
}

/// One connection's additions, flushed into [`Counts`] after each frame.
#[derive(Default, Debug, Clone, Copy)]
pub struct Tally {
    pub batches: u64,
    pub messages: u64,
    pub bytes: u64,
    pub duplicates: u64,
    pub gaps: u64,
    pub unexpected_payloads: u64,
    pub checksum_failures: u64,
    pub rejected_frames: u64,
}

impl Counts {
    pub fn connection_opened(&self) {
        self.connections.fetch_add(1, Relaxed);
    }

    pub fn add(&self, t: &Tally) {
        for (counter, n) in [
            (&self.batches, t.batches),
            (&self.messages, t.messages),
            (&self.bytes, t.bytes),
            (&self.duplicates, t.duplicates),
            (&self.gaps, t.gaps),
            (&self.unexpected_payloads, t.unexpected_payloads),
            (&self.checksum_failures, t.checksum_failures),
            (&self.rejected_frames, t.rejected_frames),
        ] {
            if n > 0 {
                counter.fetch_add(n, Relaxed);
            }
        }
    }

    pub fn snapshot(&self) -> CountsSnapshot {
        CountsSnapshot {
            connections: self.connections.load(Relaxed),
            batches: self.batches.load(Relaxed),
            messages: self.messages.load(Relaxed),
            bytes: self.bytes.load(Relaxed),
            duplicates: self.duplicates.load(Relaxed),
            gaps: self.gaps.load(Relaxed),
            unexpected_payloads: self.unexpected_payloads.load(Relaxed),
            checksum_failures: self.checksum_failures.load(Relaxed),
            rejected_frames: self.rejected_frames.load(Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_delivery_has_no_problem() {
        let c = Counts::default();
        c.add(&Tally { batches: 2, messages: 2000, bytes: 1, ..Tally::default() });
        assert_eq!(c.snapshot().delivery_problem(2000), None);
    }

    #[test]
    fn every_fault_is_named() {
        let before = CountsSnapshot::default();
        let after = CountsSnapshot { messages: 9, duplicates: 1, gaps: 2, ..before };
        let problem = after.since(&before).delivery_problem(10).unwrap();
        assert_eq!(problem, "sink received 9 of 10 messages, 1 duplicated, 2 lost");
    }

    #[test]
    fn nothing_delivered_is_a_problem() {
        assert!(CountsSnapshot::default().delivery_problem(10).is_some());
    }
}
