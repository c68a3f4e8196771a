//! Picking a generator by name, for the runner and the cost example.

use std::fmt;
use std::str::FromStr;

use crate::{MessageId, Mint, OsPool, Pooled, UuidV4};

/// A generator by name: `fast` is [`crate::mint`], the others the strategy types. `xoshiro` and
/// `threadrng` need the `compare` feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Fast,
    Pooled,
    #[cfg(feature = "compare")]
    Xoshiro,
    OsPool,
    Uuid,
    #[cfg(feature = "compare")]
    ThreadRng,
}

impl Strategy {
    pub const ALL: [Strategy; if cfg!(feature = "compare") { 6 } else { 4 }] = [
        Self::Fast,
        Self::Pooled,
        #[cfg(feature = "compare")]
        Self::Xoshiro,
        Self::OsPool,
        Self::Uuid,
        #[cfg(feature = "compare")]
        Self::ThreadRng,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Fast => "fast",
            Self::Pooled => "pooled",
            #[cfg(feature = "compare")]
            Self::Xoshiro => "xoshiro",
            Self::OsPool => "ospool",
            Self::Uuid => "uuid",
            #[cfg(feature = "compare")]
            Self::ThreadRng => "threadrng",
        }
    }

    /// A fresh, OS-seeded generator behind dynamic dispatch.
    pub fn build(self) -> Box<dyn Mint + Send> {
        match self {
            Self::Fast => Box::new(ThreadLocal),
            Self::Pooled => Box::new(Pooled::new()),
            #[cfg(feature = "compare")]
            Self::Xoshiro => Box::new(crate::Xoshiro::new()),
            Self::OsPool => Box::new(OsPool::new()),
            Self::Uuid => Box::new(UuidV4::new()),
            #[cfg(feature = "compare")]
            Self::ThreadRng => Box::new(crate::ThreadRngUuid::new()),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name no strategy has; the message lists the ones this build knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownStrategy(pub String);

impl fmt::Display for UnknownStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
        write!(f, "unknown id strategy {:?}; expected one of {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownStrategy {}

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL.into_iter().find(|strategy| strategy.name() == s).ok_or_else(|| UnknownStrategy(s.to_owned()))
    }
}

/// [`crate::mint`] as a `Mint`: the pool lives in the calling thread, not in this value.
struct ThreadLocal;

impl Mint for ThreadLocal {
    fn mint(&mut self) -> MessageId {
        crate::mint()
    }

    fn fill(&mut self, out: &mut [MessageId]) {
        crate::fill(out)
    }
}
