//! Picking a generator by name, for the runner and the cost binary.

use std::fmt;
use std::str::FromStr;

use crate::{MessageId, Mint, OsPool, Pooled, ThreadRngUuid, UuidV4, Xoshiro};

/// A generator by name: `fast` is [`crate::mint`], the others the strategy types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Fast,
    Pooled,
    Xoshiro,
    OsPool,
    Uuid,
    ThreadRng,
}

impl Strategy {
    pub const ALL: [Strategy; 6] = [
        Self::Fast,
        Self::Pooled,
        Self::Xoshiro,
        Self::OsPool,
        Self::Uuid,
        Self::ThreadRng,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Fast => "fast",
            Self::Pooled => "pooled",
            Self::Xoshiro => "xoshiro",
            Self::OsPool => "ospool",
            Self::Uuid => "uuid",
            Self::ThreadRng => "threadrng",
        }
    }

    /// A fresh, OS-seeded generator behind dynamic dispatch.
    pub fn build(self) -> Box<dyn Mint + Send> {
        match self {
            Self::Fast => Box::new(ThreadLocal),
            Self::Pooled => Box::new(Pooled::new()),
            Self::Xoshiro => Box::new(Xoshiro::new()),
            Self::OsPool => Box::new(OsPool::new()),
            Self::Uuid => Box::new(UuidV4::new()),
            Self::ThreadRng => Box::new(ThreadRngUuid::new()),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown id strategy {0:?}; expected one of fast, pooled, xoshiro, ospool, uuid, threadrng"
)]
pub struct UnknownStrategy(pub String);

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|strategy| strategy.name() == s)
            .ok_or_else(|| UnknownStrategy(s.to_owned()))
    }
}

/// [`crate::mint`] as a `Mint`: the pool lives in the calling thread, not in this value.
struct ThreadLocal;

impl Mint for ThreadLocal {
    fn mint(&mut self) -> MessageId {
        crate::mint()
    }
}
