//! The iggy row's MSG_ID names: where each message's ID comes from.

/// `sdk` (alias `uuid`): id 0, so the released client mints its own UUIDv4 per message, on the
/// send path. `fast`: `idgen::mint()` set on each message. `preset`: every ID minted with
/// `fast` before the first send.
pub const NAMES: &[(&str, IdSource)] = &[("sdk", IdSource::Sdk), ("uuid", IdSource::Sdk), ("fast", IdSource::Fast), ("preset", IdSource::Preset)];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdSource {
    Sdk,
    Fast,
    Preset,
}

/// The IDs of one arm, one per message in send order: 0 (the client mints) or set here.
pub struct Ids {
    source: IdSource,
    preset: std::vec::IntoIter<u128>,
}

impl Ids {
    pub fn new(source: IdSource, messages: u64) -> Self {
        let preset = match source {
            IdSource::Preset => (0..messages).map(|_| idgen::mint().as_u128()).collect(),
            _ => Vec::new(),
        };
        Ids { source, preset: preset.into_iter() }
    }

    pub fn source(&self) -> IdSource {
        self.source
    }

    pub fn next(&mut self) -> u128 {
        match self.source {
            IdSource::Sdk => 0,
            IdSource::Fast => idgen::mint().as_u128(),
            IdSource::Preset => self.preset.next().expect("one preset id per message"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_leaves_ids_to_the_client_and_the_others_set_them() {
        assert_eq!(Ids::new(IdSource::Sdk, 2).next(), 0);
        assert_ne!(Ids::new(IdSource::Fast, 2).next(), 0);
        let mut preset = Ids::new(IdSource::Preset, 2);
        let (a, b) = (preset.next(), preset.next());
        assert!(a != 0 && b != 0 && a != b);
    }
}
