//! What one workload's runs say: per-arm summaries, the A/A control, and each comparison.

use serde::Serialize;

use super::records::{Arm, Latency, SyscallCounts, median_batch};
use super::sdk;
use crate::stats::paired::{PairedComparison, ProcessEstimate, blocks_sd, compare_paired, process_estimate};
use crate::stats::{Comparison, Summary, compare, correlation};

/// The MSG_IDs of an SDK's path before the fix, which its other arms are compared with:
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
    /// The median over runs of the producer process's user + system ns per message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_ns_per_msg: Option<f64>,
    pub steal_pct: Option<f64>,
}

/// Two arms compared: which, and what the statistics say of them.
#[derive(Clone, Debug, Serialize)]
pub struct ArmComparison {
    /// Indexes of the two arms, in the workload's arms and in `Analysis::arms` alike.
    #[serde(skip)]
    pub before_arm: usize,
    #[serde(skip)]
    pub after_arm: usize,
    pub sdk: String,
    pub before: String,
    pub after: String,
    /// Across processes: Welch and Mann-Whitney on the per-process samples. In paired mode its
    /// ratio, interval, runs needed and verdict are the paired ones below.
    #[serde(flatten)]
    pub comparison: Comparison,
    /// Paired and lock-step: from each process's ratio of the two arms' total times over the
    /// blocks they shared, each arm's rarest stalls clipped (`ProcessEstimate::log_ratio`): the
    /// throughput ratio, and the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paired: Option<PairedComparison>,
    /// Paired and lock-step: the same test of each process's median block log ratio, the
    /// typical block. Where its interval parts from the verdict's, the arm's cost comes in lumps
    /// the typical block leaves out (warnings::lumps).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median: Option<PairedComparison>,
    /// Paired mode: the correlation over the processes of their log ratios with their pace (ln
    /// of the A/A twin's median batch time; the twin is neither arm). Far from 0, the ratio
    /// itself moves with the machine's pace from process to process, as a fixed cost per batch
    /// does (its share shrinks as the rest slows): that spread is real, and only more processes
    /// narrow the interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_r: Option<f64>,
    /// Paired mode: the spread, in %, the per-process log ratios would have if the processes
    /// differed only in their own blocks' noise (`stats::paired::blocks_sd`), beside their
    /// spread across the processes (`paired.t.sd`): near it, more messages per process would
    /// narrow the interval; well below it, only more processes would.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks_sd_pct: Option<f64>,
    /// One process per arm: the runs of one round paired (log ratio per round), beside Welch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_round: Option<PairedComparison>,
    /// Lock-step: the same paired statistics of whole turns (the producer's part and the sink's
    /// service), the throughput each arm would reach at one request in flight. The verdict is
    /// `paired`'s, of the producer's part alone: the sink's service is the same work for both
    /// arms, so it only dilutes the change and adds the sink's own noise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_one_in_flight: Option<PairedComparison>,
}

impl ArmComparison {
    /// `SDK AFTER against BEFORE`, as reports name a comparison (a row's first word).
    pub fn name(&self) -> String {
        format!("{} {} against {}", self.sdk, self.after, self.before)
    }

    /// The half-width of the ratio's 95% interval, in % of the ratio: what PRECISION asks of it
    /// (a 7.8x gain known to +-0.5x is known to about 6%).
    pub fn half_width_pct(&self) -> Option<f64> {
        self.comparison.ratio_ci95.map(|ci| crate::stats::paired::half_width_pct(ci, self.comparison.ratio))
    }

    /// How many runs (processes) a side the verdict stands on.
    pub fn runs(&self) -> usize {
        self.paired.as_ref().map_or(self.comparison.n, |p| p.processes)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// One per arm, in the workload's order.
    pub arms: Vec<ArmAnalysis>,
    /// Control B against control A.
    pub control: Option<ArmComparison>,
    /// The control's absolute % difference: changes smaller than this are noise.
    pub noise_pct: Option<f64>,
    pub control_unstable: bool,
    /// Paired mode: each SDK's A/A twin against its first arm, in the same processes: that
    /// SDK's own noise floor.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub twins: Vec<ArmComparison>,
    pub comparisons: Vec<ArmComparison>,
}

/// Each SDK's arms under test against its base arm (its BASELINES arm, or without one the first
/// MSG_ID listed), then its `fast` against each FLOORS arm its list has (a tie with a floor says
/// minting no longer shows), as (before, after) arm indexes. Every comparison the MSG_ID list
/// asks for gets a verdict; the report's `before` column names the base each row used.
/// Arms that mint (almost) nothing: `counter` (a per-process counter) and `preset` (IDs minted
/// before the timed window, whose memory traffic differs by language).
const FLOORS: &[&str] = &["counter", "preset"];

pub fn baseline_pairs(arms: &[Arm]) -> Vec<(usize, usize)> {
    let find = |sdk: &str, name: &str| Arm::find_under_test(arms, sdk, name);
    let base = |sdk: &str| {
        BASELINES
            .iter()
            .find_map(|name| find(sdk, name))
            .or_else(|| arms.iter().position(|a| a.is_under_test() && a.sdk == sdk))
    };
    let against_base = arms
        .iter()
        .enumerate()
        .filter(|(_, a)| a.is_under_test())
        .filter_map(|(i, a)| base(&a.sdk).filter(|&b| b != i).map(|b| (b, i)));
    let fast_against_floors = arms
        .iter()
        .enumerate()
        .filter(|(_, a)| a.is_under_test() && a.msg_id == "fast")
        .flat_map(|(i, a)| FLOORS.iter().filter_map(move |floor| find(&a.sdk, floor).map(|p| (p, i))));
    let mut pairs: Vec<(usize, usize)> = against_base.collect();
    for (p, f) in fast_against_floors {
        if !pairs.contains(&(f, p)) && !pairs.contains(&(p, f)) {
            pairs.push((p, f));
        }
    }
    pairs.extend(user_row_pairs(arms));
    pairs
}

/// Rows a user defined (no built-in row has their name): for each MSG_ID, every later user row
/// against the first one, the "before" build (their SDK at master against their branch, say).
fn user_row_pairs(arms: &[Arm]) -> Vec<(usize, usize)> {
    let is_user = |a: &Arm| a.is_under_test() && sdk::find(&a.sdk).is_err();
    let Some(first) = arms.iter().find(|a| is_user(a)).map(|a| a.sdk.as_str()) else { return Vec::new() };
    arms.iter()
        .enumerate()
        .filter(|(_, a)| is_user(a) && a.sdk != first)
        .filter_map(|(i, a)| Arm::find_under_test(arms, first, &a.msg_id).map(|b| (b, i)))
        .collect()
}

impl Analysis {
    /// Every comparison and twin with its 95% CI half-width in % (infinite without an
    /// interval): what PRECISION waits on.
    pub fn half_widths(&self) -> impl Iterator<Item = (&ArmComparison, f64)> {
        self.comparisons.iter().chain(&self.twins).map(|c| (c, c.half_width_pct().unwrap_or(f64::INFINITY)))
    }

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
                cpu_ns_per_msg: a.cpu_ns_per_msg(),
                steal_pct: a.steal_pct(),
            })
            .collect();
        let control_arm = |c| arms.iter().position(|a| a.control == Some(c));
        let control = match (control_arm('A'), control_arm('B')) {
            (Some(a), Some(b)) => compare_arms(arms, a, b, &Noise::default()),
            _ => None,
        };
        let noise_pct = control.as_ref().map(|c| c.comparison.change_pct.abs());
        let control_unstable = control.as_ref().is_some_and(|c| c.comparison.verdict.is_significant());
        let twins: Vec<ArmComparison> = arms
            .iter()
            .enumerate()
            .filter(|(_, a)| a.twin)
            .filter_map(|(t, twin)| Arm::find_under_test(arms, &twin.sdk, &twin.msg_id).map(|b| (b, t)))
            .filter_map(|(b, t)| {
                compare_arms(arms, b, t, &Noise { pct: noise_pct, unstable: control_unstable, ..Noise::default() })
            })
            .collect();
        let noise = Noise { pct: noise_pct, unstable: control_unstable, twins: &twins };
        let comparisons = pairs.iter().filter_map(|&(b, a)| compare_arms(arms, b, a, &noise)).collect();
        Analysis { arms: analysed, control, noise_pct, control_unstable, twins, comparisons }
    }

    /// `after` against `before` under this workload's control (and, paired, the SDK's twin).
    pub fn compare(&self, arms: &[Arm], before: usize, after: usize) -> Option<ArmComparison> {
        let noise = Noise { pct: self.noise_pct, unstable: self.control_unstable, twins: &self.twins };
        compare_arms(arms, before, after, &noise)
    }
}

/// What a change must exceed: across processes the control's change, whose alarm withholds
/// (the machine drifted between the runs); in paired mode the SDK's twin's change alone.
#[derive(Default)]
struct Noise<'a> {
    pct: Option<f64>,
    unstable: bool,
    twins: &'a [ArmComparison],
}

impl Noise<'_> {
    /// The noise floor of a block comparison whose base arm is `sdk`'s: that row's own twin's
    /// change. A twin that alarms withholds nothing: the arms share the process (or the set's
    /// turns), so no drift sits between them, and a change beyond an offset of that size is no
    /// less a change.
    fn paired(&self, sdk: &str) -> Option<f64> {
        self.twins.iter().find(|t| t.sdk == sdk).and_then(|t| t.paired.as_ref()).map(|twin| twin.change_pct.abs())
    }
}

fn compare_arms(arms: &[Arm], before: usize, after: usize, noise: &Noise) -> Option<ArmComparison> {
    let (b, a) = (&arms[before], &arms[after]);
    let mut comparison = compare(&b.valid_samples()?, &a.valid_samples()?, noise.pct, noise.unstable);
    let by_process = paired_estimates(b, a);
    let over_processes = |of: fn(&ProcessEstimate) -> f64| {
        by_process.as_ref().map(|es| es.iter().map(|(_, e)| of(e)).collect::<Vec<_>>())
    };
    let paired = over_processes(|e| e.log_ratio).map(|lrs| compare_paired(&lrs, noise.paired(&b.sdk), false));
    let median = over_processes(|e| e.median_log_ratio).map(|lrs| compare_paired(&lrs, None, false));
    let blocks_sd_pct = by_process
        .as_ref()
        .and_then(|es| blocks_sd(&es.iter().map(|&(_, e)| e).collect::<Vec<_>>()))
        .map(|sd| 100.0 * sd);
    let at_one_in_flight = block_estimates(b.turn_times(), &a.turn_times())
        .filter(|_| b.failure().is_none() && a.failure().is_none())
        .map(|es| compare_paired(&es.iter().map(|(_, e)| e.log_ratio).collect::<Vec<_>>(), None, false));
    let twin = arms.iter().find(|x| x.twin && x.sdk == b.sdk).filter(|_| !a.twin && !b.twin);
    let pace_r = by_process.zip(twin).and_then(|(es, twin)| pace_r(&es, twin));
    if let Some(p) = &paired {
        comparison.ratio = p.ratio;
        comparison.change_pct = p.change_pct;
        comparison.ratio_ci95 = p.ratio_ci95;
        comparison.runs_needed = p.runs_needed;
        comparison.verdict = p.verdict;
    }
    let by_round = if paired.is_none() {
        round_log_ratios(b, a).map(|lrs| compare_paired(&lrs, noise.pct, noise.unstable))
    } else {
        None
    };
    // Two rows compared (a user's builds): the before arm is named with its row.
    Some(ArmComparison {
        before_arm: before,
        after_arm: after,
        sdk: a.sdk.clone(),
        before: if b.sdk == a.sdk { b.short_label() } else { b.label() },
        after: a.short_label(),
        comparison,
        paired,
        median,
        pace_r,
        blocks_sd_pct,
        by_round,
        at_one_in_flight,
    })
}

/// Per paired process, its order and its estimate of `after` against `before`; None unless
/// both arms ran paired and every run of theirs succeeded.
fn paired_estimates(before: &Arm, after: &Arm) -> Option<Vec<(usize, ProcessEstimate)>> {
    if before.failure().is_some() || after.failure().is_some() {
        return None;
    }
    let after_runs: Vec<(usize, &[u64])> = after.batch_times().collect();
    block_estimates(before.batch_times(), &after_runs)
}

/// Per process or set in which both ran, its order and its estimate of `after`'s block times
/// against `before`'s.
fn block_estimates<B: AsRef<[u64]>, A: AsRef<[u64]>>(
    before: impl IntoIterator<Item = (usize, B)>,
    after: &[(usize, A)],
) -> Option<Vec<(usize, ProcessEstimate)>> {
    let estimates: Vec<(usize, ProcessEstimate)> = before
        .into_iter()
        .filter_map(|(order, base)| {
            after
                .iter()
                .find(|(o, _)| *o == order)
                .and_then(|(_, arm)| Some((order, process_estimate(base.as_ref(), arm.as_ref())?)))
        })
        .collect();
    (!estimates.is_empty()).then_some(estimates)
}

/// The correlation of each process's log ratio with its pace, ln of `twin`'s median batch time
/// in that process.
fn pace_r(estimates: &[(usize, ProcessEstimate)], twin: &Arm) -> Option<f64> {
    let paces: Vec<(usize, f64)> = twin.batch_times().map(|(order, b)| (order, median_batch(b).ln())).collect();
    let (lrs, paces): (Vec<f64>, Vec<f64>) = estimates
        .iter()
        .filter_map(|&(order, e)| Some((e.log_ratio, paces.iter().find(|(o, _)| *o == order)?.1)))
        .unzip();
    correlation(&lrs, &paces)
}

/// Per round in which both arms ran (one process each), ln(after / before).
fn round_log_ratios(before: &Arm, after: &Arm) -> Option<Vec<f64>> {
    let after_rounds = after.by_round();
    let lrs: Vec<f64> = before
        .by_round()
        .into_iter()
        .filter_map(|(round, b)| after_rounds.iter().find(|(r, _)| *r == round).map(|(_, a)| (a / b).ln()))
        .collect();
    (lrs.len() >= 2).then_some(lrs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::records::fixtures::{self, paired};
    use crate::stats::Verdict;

    #[test]
    fn arms_meet_their_baseline_and_fast_meets_its_floors() {
        let names = [
            ("rust", "threadrng", Some('A')),
            ("rust", "uuid", None),
            ("rust", "fast", None),
            ("rust", "preset", None),
            ("iggy", "sdk", None),
            ("iggy", "fast", None),
        ];
        let arms: Vec<Arm> = names.iter().map(|&(sdk, msg_id, control)| Arm::new(sdk, msg_id, control)).collect();
        assert_eq!(baseline_pairs(&arms), [(1, 2), (1, 3), (4, 5), (3, 2)]);
        // Paired with `fast` first (MSG_ID=fast,preset,uuid): its twin is also a `fast`, but it
        // meets its base arm alone, as a twin, never preset or uuid.
        let mut arms: Vec<Arm> =
            ["fast", "preset", "uuid", "fast"].iter().map(|&m| Arm::new("java", m, None)).collect();
        arms[3].twin = true;
        assert_eq!(baseline_pairs(&arms), [(2, 0), (2, 1), (1, 0)]);
        // Without uuid, the first MSG_ID listed is the base; fast is not met twice with preset.
        let arms: Vec<Arm> = ["threadrng", "fast", "preset"].iter().map(|&m| Arm::new("rust", m, None)).collect();
        assert_eq!(baseline_pairs(&arms), [(0, 1), (0, 2), (2, 1)]);
        let arms: Vec<Arm> = ["fast", "preset"].iter().map(|&m| Arm::new("go", m, None)).collect();
        assert_eq!(baseline_pairs(&arms), [(0, 1)]);
        // A floor listed first is the base, and fast meets it once.
        let arms: Vec<Arm> = ["counter", "fast"].iter().map(|&m| Arm::new("python", m, None)).collect();
        assert_eq!(baseline_pairs(&arms), [(0, 1)]);
        // Both floors listed: fast meets counter, then preset.
        let arms: Vec<Arm> = ["uuid", "fast", "preset", "counter"].iter().map(|&m| Arm::new("go", m, None)).collect();
        assert_eq!(baseline_pairs(&arms), [(0, 1), (0, 2), (0, 3), (3, 1), (2, 1)]);
    }

    #[test]
    fn pace_r_says_whether_a_change_moves_with_the_process_pace() {
        // uuid costs a fixed 50 ns more per batch than fast, so its ratio shrinks as the
        // process runs slower: the log ratios fall as the twin's pace rises.
        let paces = [100, 120, 150, 200, 260];
        let mut twin = paired("uuid", &paces, |p| p + 50);
        twin.twin = true;
        let arms = vec![paired("uuid", &paces, |p| p + 50), paired("fast", &paces, |p| p), twin];
        let a = Analysis::of(&arms, &[(0, 1)]);
        let r = a.comparisons[0].pace_r.expect("paired, with a twin");
        assert!(r < -0.95, "r {r}");
        // The same cost as a loss (fast before, uuid after): its ratio nears 1 as the process
        // slows.
        let loss = Analysis::of(&arms, &[(1, 0)]).comparisons[0].pace_r.unwrap();
        assert!(loss > 0.95, "r {loss}");
        assert_eq!(a.twins.len(), 1);
        assert_eq!(a.twins[0].pace_r, None, "the twin is one of its own arms");
        // A share of each batch (fast at 80% of uuid's time): the ratio is the same in every
        // process, so the estimates do not vary and there is nothing to correlate.
        let mut twin = paired("uuid", &paces, |p| p);
        twin.twin = true;
        let arms = vec![paired("uuid", &paces, |p| p), paired("fast", &paces, |p| p * 4 / 5), twin];
        assert_eq!(Analysis::of(&arms, &[(0, 1)]).comparisons[0].pace_r, None);
        // One process per arm: no blocks, no pace.
        let arms = vec![
            fixtures::arm("rust", "uuid", None, (1, 2), &[1.0, 1.1, 0.9]),
            fixtures::arm("rust", "fast", None, (2, 2), &[2.0, 2.1, 1.9]),
        ];
        assert_eq!(Analysis::of(&arms, &[(0, 1)]).comparisons[0].pace_r, None);
    }

    #[test]
    fn a_paired_row_says_how_much_of_its_spread_the_blocks_explain() {
        // Three processes of three blocks; fast takes 100 ns a batch, uuid 200, 200 and 200 + k:
        // with fewer blocks than runs, each block is a run of its own, so each process's se is
        // the sd of ln 2, ln 2 and ln(2 + k/100) over sqrt(3).
        let ks = [0u64, 50, 100];
        let mut uuid = paired("uuid", &[0, 0, 0], |_| 0);
        let mut fast = paired("fast", &[0, 0, 0], |_| 0);
        for ((u, f), k) in uuid.runs.iter_mut().zip(&mut fast.runs).zip(ks) {
            u.batch_ns = Some(vec![200, 200, 200 + k]);
            f.batch_ns = Some(vec![100; 3]);
        }
        let compared = Analysis::of(&[uuid, fast], &[(0, 1)]).comparisons.remove(0);
        let se = |k: u64| {
            let logs = [2f64.ln(), 2f64.ln(), (2.0 + k as f64 / 100.0).ln()];
            crate::stats::paired::one_sample_t(&logs).sd / 3f64.sqrt()
        };
        let expected = 100.0 * (ks.iter().map(|&k| se(k).powi(2)).sum::<f64>() / 3.0).sqrt();
        let got = compared.blocks_sd_pct.expect("paired");
        assert!((got - expected).abs() < 1e-4, "{got} against {expected}");
        // One process per arm: no blocks.
        let arms = vec![
            fixtures::arm("rust", "uuid", None, (1, 2), &[1.0, 1.1, 0.9]),
            fixtures::arm("rust", "fast", None, (2, 2), &[2.0, 2.1, 1.9]),
        ];
        assert_eq!(Analysis::of(&arms, &[(0, 1)]).comparisons[0].blocks_sd_pct, None);
    }

    #[test]
    fn a_paired_verdict_must_exceed_its_twin_and_nothing_withholds_it() {
        // One batch time per process and arm: the twin runs a steady 0.3% faster than its base,
        // which its own test finds; fast is 20% faster, preset 0.2% (significant, but inside the
        // twin's offset). The cross-process control's arms differ by half.
        let mut twin = paired("uuid", &[99_700, 99_690, 99_710, 99_705, 99_695], |b| b);
        twin.twin = true;
        let arms = vec![
            paired("uuid", &[100_000; 5], |b| b),
            paired("fast", &[83_000, 83_100, 82_900, 83_050, 82_950], |b| b),
            paired("preset", &[99_800, 99_790, 99_810, 99_805, 99_795], |b| b),
            twin,
            fixtures::arm("rust", "threadrng", Some('A'), (1, 2), &[1.0, 1.1, 0.9, 1.0, 1.05]),
            fixtures::arm("rust", "threadrng", Some('B'), (2, 2), &[2.0, 2.1, 1.9, 2.0, 2.05]),
        ];
        let a = Analysis::of(&arms, &[(0, 1), (0, 2)]);
        assert!(a.control_unstable);
        assert_eq!(a.twins[0].comparison.verdict, Verdict::Faster, "the twin alarms");
        assert_eq!(a.comparisons[0].comparison.verdict, Verdict::Faster);
        assert_eq!(a.comparisons[1].comparison.verdict, Verdict::Noise, "inside the twin's offset");
        // Across processes the control's alarm still withholds.
        let arms = [
            fixtures::arm("rust", "uuid", None, (3, 2), &[1.0, 1.1, 0.9]),
            fixtures::arm("rust", "fast", None, (4, 2), &[3.0, 3.1, 2.9]),
            arms[4].clone(),
            arms[5].clone(),
        ];
        assert_eq!(Analysis::of(&arms, &[(0, 1)]).comparisons[0].comparison.verdict, Verdict::Withheld);
    }

    #[test]
    fn the_runs_of_a_round_are_paired_after_over_before() {
        // Every round, fast is 10% faster than uuid, while the rounds' pace moves by half.
        let uuid = fixtures::arm("go", "uuid", None, (1, 2), &[100.0, 150.0, 75.0, 120.0]);
        let fast = fixtures::arm("go", "fast", None, (2, 2), &[110.0, 165.0, 82.5, 132.0]);
        let mut failed = fast.clone();
        failed.runs[1].failed = Some("lost a message".into());
        failed.runs[1].result = None;
        let arms = vec![uuid, fast];
        let compared = Analysis::of(&arms, &[(0, 1)]).comparisons.remove(0);
        let by_round = compared.by_round.expect("one process per arm: paired by round");
        assert!((by_round.ratio - 1.1).abs() < 1e-9 && by_round.t.sd < 1e-9, "{by_round:?}");
        assert!(compared.paired.is_none());
        // A failed run leaves its round out rather than pairing the rest out of step.
        let lrs = round_log_ratios(&arms[0], &failed).unwrap();
        assert_eq!(lrs.len(), 3);
        assert!(lrs.iter().all(|lr| (lr - 1.1f64.ln()).abs() < 1e-9), "{lrs:?}");
    }

    #[test]
    fn later_user_rows_meet_the_first_per_msg_id() {
        let names = [
            ("rust", "threadrng", Some('A')),
            ("master", "uuid", None),
            ("master", "fast", None),
            ("branch", "uuid", None),
            ("branch", "fast", None),
            ("other", "fast", None),
        ];
        let arms: Vec<Arm> = names.iter().map(|&(sdk, msg_id, control)| Arm::new(sdk, msg_id, control)).collect();
        assert_eq!(user_row_pairs(&arms), [(1, 3), (2, 4), (2, 5)]);
        assert_eq!(baseline_pairs(&arms), [(1, 2), (3, 4), (1, 3), (2, 4), (2, 5)]);
    }
}
