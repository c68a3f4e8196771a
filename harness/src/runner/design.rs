//! The designs (DESIGN): how a workload's arms are run against each other. `schedule` turns a
//! design into processes and rounds; settings, the launcher and the reports name it.

use serde::Serialize;

/// How a workload's arms are run against each other (DESIGN; `runner::schedule` turns it into
/// processes and rounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Design {
    /// One process per arm, and a set's processes run at once, paced by the sink one batch at a
    /// time in shuffled blocks: any build of any language, timed by the sink.
    Lockstep,
    /// An SDK's arms share one process, timed batch by batch around each other.
    Paired,
    /// One process per arm, run one after another in a shuffled order.
    Processes,
}

impl Design {
    pub const ALL: [Design; 3] = [Design::Lockstep, Design::Paired, Design::Processes];

    pub fn name(self) -> &'static str {
        match self {
            Design::Lockstep => "lockstep",
            Design::Paired => "paired",
            Design::Processes => "processes",
        }
    }

    pub fn parse(name: &str) -> Option<Design> {
        Design::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Whether arms are compared block by block (each process or set gives one estimate per
    /// arm, with an A/A twin of its base arm), rather than by whole runs.
    pub fn blocks(self) -> bool {
        self != Design::Processes
    }
}
