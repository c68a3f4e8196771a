//! The runner's plain data, at the bottom of its modules: the arms a workload compares, the
//! runs they made, what a run measured, and the warnings carried beside them. Behaviour lives
//! in the modules above; this one only describes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use crate::producer::ProducerResult;
use crate::sink::DeliverySnapshot;
use crate::stats::Summary;

/// The control: the Rust producer with the Iggy Rust SDK's own mint path, as two identical arms.
pub const CONTROL_SDK: &str = "rust";
pub const CONTROL_MSG_ID: &str = "threadrng";

/// One SDK x MSG_ID arm (or one control arm, or an A/A twin) and every run it made.
#[derive(Clone, Debug, Serialize)]
pub struct Arm {
    pub sdk: String,
    pub msg_id: String,
    /// 'A' or 'B' for the two identical control arms.
    pub control: Option<char>,
    /// The in-process A/A copy of its SDK's first arm in paired mode: that SDK's own noise floor.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub twin: bool,
    /// The figure its samples are (METRIC).
    pub metric: Metric,
    /// Busy-wait added per message in ns (INJECT_NS, a decimal), for `harness calibrate`.
    #[serde(skip_serializing_if = "is_zero")]
    pub inject_ns: f64,
    pub runs: Vec<RunRecord>,
    /// Syscall counts per message from the instrumented runs, when strace was available.
    #[serde(rename = "counts", skip_serializing_if = "Option::is_none")]
    pub syscalls: Option<SyscallCounts>,
}

fn is_zero(n: &f64) -> bool {
    *n == 0.0
}

/// One run of an arm, as recorded in the report.
#[derive(Clone, Debug, Serialize)]
pub struct RunRecord {
    /// Position in the interleaved order, from 1: the producer process (the arms of one paired
    /// process share it).
    pub order: usize,
    /// The round of the schedule, from 1 (0: the warm-up round).
    pub round: usize,
    /// The discarded warm-up run.
    pub warmup: bool,
    /// A timed run left out of every figure: its launch lost more than [`STOLEN_LAUNCH_PCT`] of
    /// its CPUs' time to the hypervisor and ran again (see `run::run_step`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stolen: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ProducerResult>,
    /// The optional result-line field of the same name (sdks/README.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_bytes_per_msg: Option<f64>,
    /// Paired and lock-step: the seed of the block order, and this arm's time per timed block
    /// (lock-step: the producer's own part of each turn, `client_ns`, as the sink timed it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch_ns: Option<Vec<u64>>,
    /// Lock-step: the sink's time checking each of those batches, `service_ns`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_ns: Option<Vec<u64>>,
    /// The process's user + system time over every message it sent (all its arms, warm-up included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_ns_per_msg: Option<f64>,
    /// The share (%) of the run's CPUs' time (CPUS) that the hypervisor took (steal) while the
    /// process ran: noise from outside this machine, which no design here removes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steal_pct: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// The wall time of the launch this run was part of (its process, or every process of its
    /// lock-step set), from the first start to the last exit, in seconds: what a launch costs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch_s: Option<f64>,
    /// What the sink counted during this run (absent in mint mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sink: Option<DeliverySnapshot>,
}

/// What one producer process gave: its checked result line, or why there is none.
#[derive(Debug)]
pub enum Outcome {
    Ok(Box<Measured>),
    Failed(String),
}

#[derive(Debug)]
pub struct Measured {
    pub result: ProducerResult,
    pub alloc_bytes_per_msg: Option<f64>,
    /// Paired and lock-step: the seed and this arm's block times (sdks/README.md).
    pub paired: Option<(u64, Vec<u64>)>,
    /// Lock-step: the sink's service time of each of those blocks.
    pub service_ns: Option<Vec<u64>>,
    pub cpu_ns_per_msg: Option<f64>,
    pub steal_pct: Option<f64>,
}

/// The figure a cross-process verdict compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Messages per second of the timed window.
    Wall,
    /// Messages per second of the producer process's user + system time.
    Cpu,
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Wall => "wall",
            Metric::Cpu => "cpu",
        }
    }
}

/// How many messages one run sends: the workload's, or an instrumented run's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub messages: u64,
    pub warmup: u64,
}

/// Medians over the timed runs of each run's batch round-trip percentiles.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Latency {
    pub p50_ns: f64,
    pub p99_ns: f64,
    pub p999_ns: f64,
}

/// Counts that do not depend on noise, per message or batch, from the instrumented runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SyscallCounts {
    pub syscalls_per_msg: f64,
    pub sends_per_batch: f64,
    pub recvs_per_batch: f64,
    pub getrandom_per_1000_ids: f64,
}

/// A warning that names its cause and the fix.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Warning {
    pub cause: String,
    pub fix: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "warning: {}.\n  fix: {}.", self.cause, self.fix)
    }
}

impl RunRecord {
    pub fn new(
        order: usize,
        round: usize,
        warmup: bool,
        outcome: Outcome,
        sink: Option<DeliverySnapshot>,
    ) -> RunRecord {
        let mut record = RunRecord {
            order,
            round,
            warmup,
            stolen: false,
            result: None,
            alloc_bytes_per_msg: None,
            seed: None,
            batch_ns: None,
            service_ns: None,
            cpu_ns_per_msg: None,
            steal_pct: None,
            failed: None,
            launch_s: None,
            sink,
        };
        match outcome {
            Outcome::Ok(m) => {
                record.result = Some(m.result);
                record.alloc_bytes_per_msg = m.alloc_bytes_per_msg;
                record.cpu_ns_per_msg = m.cpu_ns_per_msg;
                record.steal_pct = m.steal_pct;
                record.service_ns = m.service_ns;
                if let Some((seed, batch_ns)) = m.paired {
                    record.seed = Some(seed.to_string());
                    record.batch_ns = Some(batch_ns);
                }
            }
            Outcome::Failed(why) => record.failed = Some(why),
        }
        record
    }

    /// Whether the figures count this run: a timed run (not the warm-up) that was not stolen.
    pub fn counted(&self) -> bool {
        !self.warmup && !self.stolen
    }
}

/// A launch whose CPUs lost more than this share (%) of their time to the hypervisor (steal):
/// long enough a theft to land in a few of one arm's turns and outweigh a small change.
pub const STOLEN_LAUNCH_PCT: f64 = 5.0;

/// The timed runs of `arms` by launch, stolen ones included (what the rounds cost on this host):
/// a launch is the runs that share an order (one process, or every process of a lock-step set),
/// each launch's runs in the order of `arms`.
pub fn timed_launches<'a>(arms: impl IntoIterator<Item = &'a Arm>) -> BTreeMap<usize, Vec<&'a RunRecord>> {
    let mut launches: BTreeMap<usize, Vec<&RunRecord>> = BTreeMap::new();
    for run in arms.into_iter().flat_map(|a| &a.runs).filter(|r| !r.warmup) {
        launches.entry(run.order).or_default().push(run);
    }
    launches
}

/// The share (%) of a launch's CPUs' time the hypervisor took, from its runs (the arms of one
/// launch share one reading; the most, should they differ); None where it was not measured.
pub fn launch_steal_pct<'a>(runs: impl IntoIterator<Item = &'a RunRecord>) -> Option<f64> {
    runs.into_iter().filter_map(|r| r.steal_pct).reduce(f64::max)
}

/// `arms` as STOLEN=count would have counted them, from the same runs: each timed launch's first
/// run counts, stolen or not, and the runs it ran again do not (a stolen run's rerun is the
/// same arm's next order, and the last of them is never marked stolen); None when none was
/// stolen. What the stolen rule changed, within one recording.
pub fn as_counted(arms: &[Arm]) -> Option<Vec<Arm>> {
    if !arms.iter().flat_map(|a| &a.runs).any(|r| r.stolen) {
        return None;
    }
    let recounted = |arm: &Arm| {
        let stolen: BTreeSet<usize> = arm.runs.iter().filter(|r| r.stolen).map(|r| r.order).collect();
        let mut arm = arm.clone();
        arm.runs.retain(|r| r.warmup || !stolen.contains(&(r.order.wrapping_sub(1))));
        arm.runs.iter_mut().for_each(|r| r.stolen = false);
        arm
    };
    Some(arms.iter().map(recounted).collect())
}

/// How many launches (processes, or lock-step sets) a step's records come from.
pub fn launches_in(records: &[(usize, RunRecord)]) -> usize {
    records.iter().map(|(_, r)| r.order).collect::<BTreeSet<_>>().len()
}

impl Arm {
    /// An arm under test: not a control arm nor an A/A twin. Only these are compared against
    /// each other (a twin meets its own base arm alone) and counted under strace (a control's
    /// counts are not the question, a twin's are its base arm's).
    pub fn is_under_test(&self) -> bool {
        self.control.is_none() && !self.twin
    }

    /// The index of `sdk`'s arm under test `msg_id` in `arms` (never a control or a twin).
    pub fn find_under_test(arms: &[Arm], sdk: &str, msg_id: &str) -> Option<usize> {
        arms.iter().position(|a| a.is_under_test() && a.sdk == sdk && a.msg_id == msg_id)
    }

    pub fn new(sdk: &str, msg_id: &str, control: Option<char>) -> Arm {
        Arm {
            sdk: sdk.into(),
            msg_id: msg_id.into(),
            control,
            twin: false,
            metric: Metric::Wall,
            inject_ns: 0.0,
            runs: Vec::new(),
            syscalls: None,
        }
    }

    /// One of the two identical control arms, 'A' or 'B'.
    pub fn control(which: char) -> Arm {
        Arm::new(CONTROL_SDK, CONTROL_MSG_ID, Some(which))
    }

    pub fn label(&self) -> String {
        format!("{} {}", self.sdk, self.short_label())
    }

    /// The label without the SDK: MSG_ID, injected busy-wait, control arm.
    pub fn short_label(&self) -> String {
        let inject = if self.inject_ns > 0.0 { format!(" +{} ns/msg", self.inject_ns) } else { String::new() };
        let control = self.control.map_or(String::new(), |c| format!(" (control {c})"));
        let twin = if self.twin { " (A/A twin)" } else { "" };
        format!("{}{inject}{control}{twin}", self.msg_id)
    }

    pub fn failure(&self) -> Option<&str> {
        self.runs.iter().find_map(|r| r.failed.as_deref())
    }

    fn timed(&self) -> impl Iterator<Item = &ProducerResult> {
        self.runs.iter().filter(|r| r.counted()).filter_map(|r| r.result.as_ref())
    }

    /// (order, sample) of each timed run with a result: the one figure every statistic,
    /// warning and chart reads, msgs/s of the timed window or of the process's CPU time (METRIC).
    pub fn timed_samples(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.runs.iter().filter(|r| r.counted()).filter_map(|r| {
            let result = r.result.as_ref()?;
            let sample = match self.metric {
                Metric::Wall => result.msgs_per_sec,
                Metric::Cpu => 1e9 / r.cpu_ns_per_msg.filter(|c| *c > 0.0)?,
            };
            Some((r.order, sample))
        })
    }

    /// The timed runs with their round, for pairing the runs of one round.
    pub fn by_round(&self) -> Vec<(usize, f64)> {
        let rounds: Vec<usize> =
            self.runs.iter().filter(|r| r.counted() && r.result.is_some()).map(|r| r.round).collect();
        rounds.into_iter().zip(self.timed_samples().map(|(_, v)| v)).collect()
    }

    /// (process order, batch times) of each timed paired run.
    pub fn batch_times(&self) -> impl Iterator<Item = (usize, &[u64])> + '_ {
        self.runs
            .iter()
            .filter(|r| r.counted() && r.result.is_some())
            .filter_map(|r| r.batch_ns.as_deref().map(|b| (r.order, b)))
    }

    /// (set order, client + service ns of each turn) of each timed lock-step run: the whole
    /// round trip at one request in flight, as the sink saw it.
    pub fn turn_times(&self) -> Vec<(usize, Vec<u64>)> {
        let timed = self.runs.iter().filter(|r| r.counted() && r.result.is_some());
        timed
            .filter_map(|r| {
                Some((r.order, r.batch_ns.as_ref()?.iter().zip(r.service_ns.as_ref()?).map(|(c, s)| c + s).collect()))
            })
            .collect()
    }

    /// The median over timed runs of the process's CPU ns per message.
    pub fn cpu_ns_per_msg(&self) -> Option<f64> {
        median(self.runs.iter().filter(|r| r.counted()).filter_map(|r| r.cpu_ns_per_msg).collect())
    }

    /// The mean over timed runs of the hypervisor's share of the run's CPUs' time.
    pub fn steal_pct(&self) -> Option<f64> {
        Summary::of(&self.runs.iter().filter(|r| r.counted()).filter_map(|r| r.steal_pct).collect::<Vec<_>>())
            .map(|s| s.mean)
    }

    /// The samples of the timed runs, in run order.
    pub fn samples(&self) -> Vec<f64> {
        self.timed_samples().map(|(_, v)| v).collect()
    }

    /// The samples, only for an arm none of whose runs failed.
    pub fn valid_samples(&self) -> Option<Vec<f64>> {
        let samples = self.samples();
        (self.failure().is_none() && !samples.is_empty()).then_some(samples)
    }

    pub fn summary(&self) -> Option<Summary> {
        self.valid_samples().and_then(|s| Summary::of(&s))
    }

    pub fn latency(&self) -> Option<Latency> {
        let pick =
            |f: fn(&ProducerResult) -> Option<u64>| median(self.timed().filter_map(f).map(|v| v as f64).collect());
        Some(Latency {
            p50_ns: pick(|r| r.rtt_p50_ns)?,
            p99_ns: pick(|r| r.rtt_p99_ns)?,
            p999_ns: pick(|r| r.rtt_p999_ns)?,
        })
    }

    pub fn alloc_bytes_per_msg(&self) -> Option<f64> {
        median(self.runs.iter().filter(|r| r.counted()).filter_map(|r| r.alloc_bytes_per_msg).collect())
    }
}

/// A paired run's median batch time, in ns: its pace (NaN without batches).
pub fn median_batch(batch_ns: &[u64]) -> f64 {
    Summary::of(&batch_ns.iter().map(|&t| t as f64).collect::<Vec<_>>()).map_or(f64::NAN, |s| s.median)
}

fn median(values: Vec<f64>) -> Option<f64> {
    Summary::of(&values).map(|s| s.median)
}

#[cfg(test)]
pub mod fixtures {
    use super::*;

    /// An arm whose timed runs measured `samples` msgs/s, in this order, as runs number `first`,
    /// `first + stride`, ... of the interleaved schedule.
    pub fn arm(
        sdk: &str,
        msg_id: &str,
        control: Option<char>,
        (first, stride): (usize, usize),
        samples: &[f64],
    ) -> Arm {
        let mut arm = Arm::new(sdk, msg_id, control);
        arm.runs = samples
            .iter()
            .enumerate()
            .map(|(i, &msgs_per_sec)| {
                let result = ProducerResult {
                    sdk: sdk.into(),
                    msg_id: msg_id.into(),
                    send_path: crate::producer::SendPath::Lean,
                    messages: 1000,
                    warmup: 100,
                    timed_messages: 900,
                    elapsed_ns: 1,
                    msgs_per_sec,
                    injected_ns: 0,
                    rtt_p50_ns: Some(40_000),
                    rtt_p99_ns: Some(90_000),
                    rtt_p999_ns: Some(150_000),
                };
                let measured = Measured {
                    result,
                    alloc_bytes_per_msg: None,
                    paired: None,
                    service_ns: None,
                    cpu_ns_per_msg: None,
                    steal_pct: None,
                };
                RunRecord::new(first + i * stride, i + 1, false, Outcome::Ok(Box::new(measured)), None)
            })
            .collect();
        arm
    }

    /// A paired Rust arm of `msg_id` whose process k timed two blocks of `batch(paces[k])` ns each.
    pub fn paired(msg_id: &str, paces: &[u64], batch: impl Fn(u64) -> u64) -> Arm {
        let mut arm = self::arm("rust", msg_id, None, (1, 1), &vec![1.0; paces.len()]);
        for (run, &pace) in arm.runs.iter_mut().zip(paces) {
            run.batch_ns = Some(vec![batch(pace); 2]);
        }
        arm
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::arm;
    use super::*;

    #[test]
    fn a_stolen_run_counts_in_no_figure_and_stays_in_its_launches_and_the_json() {
        let mut a = arm("rust", "uuid", None, (1, 1), &[100.0, 100.0, 300.0]);
        (a.runs[2].stolen, a.runs[2].steal_pct) = (true, Some(9.0));
        assert_eq!(a.samples(), [100.0, 100.0]);
        assert_eq!(a.steal_pct(), None, "the steal % column is the counted runs'");
        assert_eq!(timed_launches([&a]).len(), 3, "what the rounds cost includes it");
        let json = |r: &RunRecord| serde_json::to_value(r).unwrap();
        assert_eq!(json(&a.runs[2])["stolen"], true);
        assert!(json(&a.runs[0]).get("stolen").is_none(), "written only where true");
        let records: Vec<(usize, RunRecord)> = a.runs.into_iter().map(|r| (0, r)).collect();
        assert_eq!(launches_in(&records), 3);
        assert_eq!(launches_in(&[records[0].clone(), (1, records[0].1.clone())]), 1, "two arms of one process");
    }

    #[test]
    fn as_counted_keeps_each_launch_s_first_run_and_drops_the_runs_again() {
        // Orders 1..7: a launch counted at once (1), one stolen and counted at its rerun (2, 3),
        // one stolen twice and counted at its last (4, 5, 6), then one counted (7).
        let mut a = arm("rust", "uuid", None, (1, 1), &[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]);
        for i in [1, 3, 4] {
            a.runs[i].stolen = true;
        }
        assert_eq!(a.samples(), [10.0, 30.0, 60.0, 70.0]);
        let counted = as_counted(std::slice::from_ref(&a)).expect("runs were stolen");
        assert_eq!(counted[0].samples(), [10.0, 20.0, 40.0, 70.0], "the first run of every launch");
        assert!(counted[0].runs.iter().all(|r| !r.stolen));
        a.runs.iter_mut().for_each(|r| r.stolen = false);
        assert!(as_counted(&[a]).is_none(), "nothing stolen, nothing to recount");
    }
}
