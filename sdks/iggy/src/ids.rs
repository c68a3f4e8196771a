//! The iggy row's MSG_ID names: where each message's ID comes from.

use idgen::{Counter, MessageId, Mint};

/// `sdk` (alias `uuid`): id 0, so the released client mints its own UUIDv4 per message, on the
/// send path. `fast`: each batch's IDs from one `idgen::fill`, set on its messages. `preset`:
/// every ID minted with `fast` before the first send. `counter`: `idgen::Counter`, sequential
/// from a random start and NOT collision-safe: the floor `fast` is judged against, never a
/// default.
pub const NAMES: &[(&str, IdSource)] = &[
    ("sdk", IdSource::Sdk),
    ("uuid", IdSource::Sdk),
    ("fast", IdSource::Fast),
    ("preset", IdSource::Preset),
    ("counter", IdSource::Counter),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdSource {
    Sdk,
    Fast,
    Preset,
    Counter,
}

/// The IDs of one arm, a batch at a time in send order: 0 (the client mints) or set here.
pub struct Ids {
    source: IdSource,
    counter: Option<Counter>,
    /// The last batch's IDs; for `preset`, every ID of the run, handed out from `next`.
    ids: Vec<MessageId>,
    next: usize,
}

impl Ids {
    pub fn new(source: IdSource, messages: u64) -> Self {
        let mut ids = Vec::new();
        if source == IdSource::Preset {
            ids.resize(messages as usize, MessageId::default());
            idgen::fill(&mut ids);
        }
        Ids { source, counter: (source == IdSource::Counter).then(Counter::new), ids, next: 0 }
    }

    pub fn source(&self) -> IdSource {
        self.source
    }

    /// The next `count` IDs, one per message.
    pub fn batch(&mut self, count: u32) -> &[MessageId] {
        let count = count as usize;
        if self.source == IdSource::Preset {
            self.next += count;
            return &self.ids[self.next - count..self.next];
        }
        // `sdk` keeps the zeros: the client mints.
        self.ids.resize(count, MessageId::default());
        match (self.source, &mut self.counter) {
            (IdSource::Fast, _) => idgen::fill(&mut self.ids),
            (IdSource::Counter, Some(counter)) => counter.fill(&mut self.ids),
            _ => {}
        }
        &self.ids
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn sdk_leaves_ids_to_the_client_and_the_others_set_them() {
        assert!(Ids::new(IdSource::Sdk, 0).batch(3).iter().all(|id| id.is_zero()));
        let mut preset = Ids::new(IdSource::Preset, 5);
        let mut fast = Ids::new(IdSource::Fast, 0);
        let set =
            [preset.batch(2).to_vec(), preset.batch(3).to_vec(), fast.batch(1000).to_vec(), fast.batch(7).to_vec()]
                .concat();
        assert!(set.iter().all(|id| !id.is_zero()));
        assert_eq!(set.iter().collect::<HashSet<_>>().len(), 1012, "no ID twice");
    }

    #[test]
    fn counter_counts_on_across_batches_under_a_non_zero_high_half() {
        let mut counter = Ids::new(IdSource::Counter, 0);
        let ids: Vec<u128> =
            [counter.batch(3).to_vec(), counter.batch(2).to_vec()].concat().iter().map(|id| id.as_u128()).collect();
        assert_ne!(ids[0] >> 64, 0);
        assert_eq!(ids, (0..5).map(|i| ids[0] + i).collect::<Vec<_>>());
    }
}
