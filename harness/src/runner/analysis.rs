//! What one workload's runs say: per-arm summaries, the A/A control, and each comparison.

use serde::Serialize;

use super::model::{Arm, Latency, SyscallCounts};
use super::sdk;
use crate::stats::{Comparison, Summary, Verdict, compare};

/// The MSG_IDs of an SDK's path before the fix, which its other variants are compared with:
/// `uuid`, or `sdk` for a real client minting on its own (the first one present wins).
pub const BASELINES: [&str; 2] = ["uuid", "sdk"];

#[derive(Clone, Debug, Serialize)]
pub struct ArmAnalysis {
    pub label: String,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<Latency>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_bytes_per_msg: Option<f64>,
    #[serde(rename = "counts", skip_serializing_if = "Option::is_none")]
    pub syscalls: Option<SyscallCounts>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ComparisonRow {
    /// Indexes of the two arms, in the workload's arms and in `Analysis::arms` alike.
    #[serde(skip)]
    pub before_arm: usize,
    #[serde(skip)]
    pub after_arm: usize,
    pub sdk: String,
    pub before: String,
    pub after: String,
    #[serde(flatten)]
    pub comparison: Comparison,
}

#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// One per arm, in the workload's order.
    pub arms: Vec<ArmAnalysis>,
    /// Control B against control A.
    pub control: Option<ComparisonRow>,
    /// The control's absolute % difference: changes smaller than this are noise.
    pub noise_pct: Option<f64>,
    pub control_unstable: bool,
    pub comparisons: Vec<ComparisonRow>,
}

/// Each SDK's variants against its BASELINES arm, then its `fast` against its `preset` (the
/// zero-mint ceiling: a tie says minting no longer shows), as (before, after) arm indexes.
pub fn baseline_pairs(arms: &[Arm]) -> Vec<(usize, usize)> {
    let find = |sdk: &str, name: &str| arms.iter().position(|a| a.control.is_none() && a.sdk == sdk && a.msg_id == name);
    let base = |sdk: &str| BASELINES.iter().find_map(|name| find(sdk, name));
    let against_base = arms
        .iter()
        .enumerate()
        .filter(|(_, a)| a.control.is_none() && !BASELINES.contains(&a.msg_id.as_str()))
        .filter_map(|(i, a)| base(&a.sdk).map(|b| (b, i)));
    let fast_against_preset = arms
        .iter()
        .enumerate()
        .filter(|(_, a)| a.control.is_none() && a.msg_id == "fast")
        .filter_map(|(i, a)| find(&a.sdk, "preset").map(|p| (p, i)));
    against_base.chain(fast_against_preset).chain(user_row_pairs(arms)).collect()
}

/// Rows a user defined (no built-in row has their name): for each MSG_ID, every later user row
/// against the first one, the "before" build (their SDK at master against their branch, say).
fn user_row_pairs(arms: &[Arm]) -> Vec<(usize, usize)> {
    let is_user = |a: &Arm| a.control.is_none() && sdk::find(&a.sdk).is_err();
    let Some(first) = arms.iter().find(|a| is_user(a)).map(|a| a.sdk.as_str()) else { return Vec::new() };
    arms.iter()
        .enumerate()
        .filter(|(_, a)| is_user(a) && a.sdk != first)
        .filter_map(|(i, a)| arms.iter().position(|b| b.control.is_none() && b.sdk == first && b.msg_id == a.msg_id).map(|b| (b, i)))
        .collect()
}

impl Analysis {
    pub fn of(arms: &[Arm], pairs: &[(usize, usize)]) -> Analysis {
        let analysed = arms
            .iter()
            .map(|a| ArmAnalysis {
                label: a.label(),
                status: match (a.failure(), a.summary()) {
                    (Some(_), _) => "FAILED",
                    (None, None) => "pending",
                    (None, Some(_)) => "ok",
                },
                failure: a.failure().map(str::to_owned),
                summary: a.summary(),
                latency: a.latency(),
                alloc_bytes_per_msg: a.alloc_bytes_per_msg(),
                syscalls: a.syscalls,
            })
            .collect();
        let control_arm = |c| arms.iter().position(|a| a.control == Some(c));
        let control = match (control_arm('A'), control_arm('B')) {
            (Some(a), Some(b)) => row(arms, a, b, None, false),
            _ => None,
        };
        let noise_pct = control.as_ref().map(|c| c.comparison.change_pct.abs());
        let control_unstable = control.as_ref().is_some_and(|c| matches!(c.comparison.verdict, Verdict::Faster | Verdict::Slower));
        let comparisons = pairs.iter().filter_map(|&(b, a)| row(arms, b, a, noise_pct, control_unstable)).collect();
        Analysis { arms: analysed, control, noise_pct, control_unstable, comparisons }
    }

    /// `after` against `before` under this workload's control.
    pub fn compare(&self, arms: &[Arm], before: usize, after: usize) -> Option<Comparison> {
        row(arms, before, after, self.noise_pct, self.control_unstable).map(|r| r.comparison)
    }
}

fn row(arms: &[Arm], before: usize, after: usize, noise_pct: Option<f64>, control_unstable: bool) -> Option<ComparisonRow> {
    let (b, a) = (&arms[before], &arms[after]);
    Some(ComparisonRow {
        before_arm: before,
        after_arm: after,
        sdk: a.sdk.clone(),
        // Two rows compared (a user's builds): the before arm is named with its row.
        before: if b.sdk == a.sdk { b.variant() } else { b.label() },
        after: a.variant(),
        comparison: compare(&b.valid_samples()?, &a.valid_samples()?, noise_pct, control_unstable),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_meet_their_baseline_and_fast_meets_preset() {
        let names = [("rust", "threadrng", Some('A')), ("rust", "uuid", None), ("rust", "fast", None), ("rust", "preset", None), ("iggy", "sdk", None), ("iggy", "fast", None)];
        let arms: Vec<Arm> = names.iter().map(|&(sdk, msg_id, control)| Arm::new(sdk, msg_id, control)).collect();
        assert_eq!(baseline_pairs(&arms), [(1, 2), (1, 3), (4, 5), (3, 2)]);
    }

    #[test]
    fn later_user_rows_meet_the_first_per_msg_id() {
        let names = [("rust", "threadrng", Some('A')), ("master", "uuid", None), ("master", "fast", None), ("branch", "uuid", None), ("branch", "fast", None), ("other", "fast", None)];
        let arms: Vec<Arm> = names.iter().map(|&(sdk, msg_id, control)| Arm::new(sdk, msg_id, control)).collect();
        assert_eq!(user_row_pairs(&arms), [(1, 3), (2, 4), (2, 5)]);
        assert_eq!(baseline_pairs(&arms), [(1, 2), (3, 4), (1, 3), (2, 4), (2, 5)]);
    }
}
