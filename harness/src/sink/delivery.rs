//! What the sink has delivered, shared by every connection and read by the runner around each
//! run: totals, and per partition the messages that arrived exactly once and in order.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use serde::{Deserialize, Serialize};

/// Totals since the sink started. Connections add to them once per frame.
#[derive(Default, Debug)]
pub struct Delivery {
    connections: AtomicU64,
    batches: AtomicU64,
    bytes: AtomicU64,
    unexpected_payloads: AtomicU64,
    checksum_failures: AtomicU64,
    rejected_frames: AtomicU64,
    /// Locked once per batch, never per message.
    partitions: Mutex<BTreeMap<u32, PartitionDelivery>>,
}

/// One partition's sequence, summed over the connections that sent to it.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionDelivery {
    pub partition: u32,
    /// Messages that arrived exactly once and in order.
    pub messages: u64,
    pub duplicates: u64,
    /// Messages missing before one that arrived.
    pub gaps: u64,
}

/// A copy of [`Delivery`] at one moment; the difference of two is what one run delivered.
#[derive(Clone, Default, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliverySnapshot {
    pub connections: u64,
    pub batches: u64,
    /// Messages that arrived exactly once and in order (the partitions' sum).
    pub messages: u64,
    /// Bytes of every frame received.
    pub bytes: u64,
    pub duplicates: u64,
    pub gaps: u64,
    /// Payloads that are not any message's payload.
    pub unexpected_payloads: u64,
    pub checksum_failures: u64,
    /// Frames refused for their size or form (checksum failures included).
    pub rejected_frames: u64,
    /// Each partition that received a message, by partition id.
    #[serde(default)]
    pub partitions: Vec<PartitionDelivery>,
}

impl DeliverySnapshot {
    pub fn since(&self, before: &DeliverySnapshot) -> DeliverySnapshot {
        let earlier = |p: u32| before.partitions.iter().find(|b| b.partition == p).copied().unwrap_or_default();
        let partitions: Vec<PartitionDelivery> = self
            .partitions
            .iter()
            .map(|now| {
                let then = earlier(now.partition);
                PartitionDelivery {
                    partition: now.partition,
                    messages: now.messages - then.messages,
                    duplicates: now.duplicates - then.duplicates,
                    gaps: now.gaps - then.gaps,
                }
            })
            .filter(|p| p.messages + p.duplicates + p.gaps > 0)
            .collect();
        DeliverySnapshot {
            connections: self.connections - before.connections,
            batches: self.batches - before.batches,
            messages: self.messages - before.messages,
            bytes: self.bytes - before.bytes,
            duplicates: self.duplicates - before.duplicates,
            gaps: self.gaps - before.gaps,
            unexpected_payloads: self.unexpected_payloads - before.unexpected_payloads,
            checksum_failures: self.checksum_failures - before.checksum_failures,
            rejected_frames: self.rejected_frames - before.rejected_frames,
            partitions,
        }
    }

    /// Why this is not a clean delivery of `expected` messages, if it is not. With more than one
    /// partition, lost and repeated messages name their partition and a shortfall lists what
    /// each partition received.
    pub fn delivery_problem(&self, expected: u64) -> Option<String> {
        let several = self.partitions.len() > 1;
        let mut problems = Vec::new();
        if self.messages != expected {
            let mut line = format!("sink received {} of {expected} messages", self.messages);
            if several {
                let each: Vec<String> =
                    self.partitions.iter().map(|p| format!("partition {}: {}", p.partition, p.messages)).collect();
                line += &format!(" ({})", each.join(", "));
            }
            problems.push(line);
        }
        let on = |p: &PartitionDelivery| if several { format!(" on partition {}", p.partition) } else { String::new() };
        problems.extend(
            self.partitions
                .iter()
                .filter(|p| p.duplicates > 0)
                .map(|p| format!("{} duplicated{}", p.duplicates, on(p))),
        );
        problems.extend(self.partitions.iter().filter(|p| p.gaps > 0).map(|p| format!("{} lost{}", p.gaps, on(p))));
        for (n, what) in [
            (self.unexpected_payloads, "with an unexpected payload"),
            (self.checksum_failures, "failing their checksum (frames)"),
            (self.rejected_frames, "refused (frames)"),
        ] {
            if n > 0 {
                problems.push(format!("{n} {what}"));
            }
        }
        (!problems.is_empty()).then(|| problems.join(", "))
    }
}

/// One frame's additions, flushed into [`Delivery`] after the frame.
#[derive(Default, Debug, Clone, Copy)]
pub struct Tally {
    pub batches: u64,
    pub bytes: u64,
    pub unexpected_payloads: u64,
    pub checksum_failures: u64,
    pub rejected_frames: u64,
    /// The sequence of the batch's partition.
    pub partition: PartitionDelivery,
}

impl Delivery {
    pub fn connection_opened(&self) {
        self.connections.fetch_add(1, Relaxed);
    }

    pub fn add(&self, t: &Tally) {
        for (counter, n) in [
            (&self.batches, t.batches),
            (&self.bytes, t.bytes),
            (&self.unexpected_payloads, t.unexpected_payloads),
            (&self.checksum_failures, t.checksum_failures),
            (&self.rejected_frames, t.rejected_frames),
        ] {
            if n > 0 {
                counter.fetch_add(n, Relaxed);
            }
        }
        let p = &t.partition;
        if p.messages + p.duplicates + p.gaps > 0 {
            let mut partitions = self.partitions.lock().expect("no connection panics holding the partitions");
            let total = partitions
                .entry(p.partition)
                .or_insert(PartitionDelivery { partition: p.partition, ..PartitionDelivery::default() });
            total.messages += p.messages;
            total.duplicates += p.duplicates;
            total.gaps += p.gaps;
        }
    }

    pub fn snapshot(&self) -> DeliverySnapshot {
        let partitions: Vec<PartitionDelivery> =
            self.partitions.lock().expect("no connection panics holding the partitions").values().copied().collect();
        DeliverySnapshot {
            connections: self.connections.load(Relaxed),
            batches: self.batches.load(Relaxed),
            messages: partitions.iter().map(|p| p.messages).sum(),
            bytes: self.bytes.load(Relaxed),
            duplicates: partitions.iter().map(|p| p.duplicates).sum(),
            gaps: partitions.iter().map(|p| p.gaps).sum(),
            unexpected_payloads: self.unexpected_payloads.load(Relaxed),
            checksum_failures: self.checksum_failures.load(Relaxed),
            rejected_frames: self.rejected_frames.load(Relaxed),
            partitions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(partition: u32, messages: u64, duplicates: u64, gaps: u64) -> Tally {
        Tally { batches: 1, partition: PartitionDelivery { partition, messages, duplicates, gaps }, ..Tally::default() }
    }

    #[test]
    fn a_clean_delivery_has_no_problem() {
        let d = Delivery::default();
        d.add(&on(0, 1000, 0, 0));
        d.add(&on(0, 1000, 0, 0));
        assert_eq!(d.snapshot().delivery_problem(2000), None);
        assert_eq!(d.snapshot().batches, 2);
    }

    #[test]
    fn every_fault_is_named() {
        let d = Delivery::default();
        let before = d.snapshot();
        d.add(&on(0, 9, 1, 2));
        let problem = d.snapshot().since(&before).delivery_problem(10).unwrap();
        assert_eq!(problem, "sink received 9 of 10 messages, 1 duplicated, 2 lost");
    }

    #[test]
    fn with_several_partitions_a_fault_names_its_partition() {
        let d = Delivery::default();
        d.add(&on(0, 500, 0, 0));
        let before = d.snapshot();
        d.add(&on(0, 1000, 0, 0));
        d.add(&on(1, 500, 0, 500));
        let run = d.snapshot().since(&before);
        assert_eq!(run.partitions.iter().map(|p| (p.partition, p.messages)).collect::<Vec<_>>(), [(0, 1000), (1, 500)]);
        let problem = run.delivery_problem(2000).unwrap();
        assert_eq!(
            problem,
            "sink received 1500 of 2000 messages (partition 0: 1000, partition 1: 500), 500 lost on partition 1"
        );
    }

    #[test]
    fn nothing_delivered_is_a_problem() {
        assert!(DeliverySnapshot::default().delivery_problem(10).is_some());
    }
}
