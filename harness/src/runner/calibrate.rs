//! `harness calibrate`: what this machine can and cannot detect, per design and SDK. For each
//! it measures the base arm's time per message in the design's own statistic, then runs ROUNDS rounds of REPEAT processes with
//! a base arm, an identical copy (the A/A) and copies slowed by k% of the base's time per
//! message (INJECT_NS, spun on the clock per batch and measured: the expected change comes from
//! the injected time the producer reports, not from INJECT_NS). `paired`: every arm of a round
//! in the same processes, judged by the paired rule against the base; `processes`: one process
//! per arm with the A/A control, judged by the cross-process rule, by wall and by CPU time. A verdict on the copy is a
//! false alarm; `slower` on a slowed copy is a detection. With PRECISION (lockstep, paired), each
//! trial runs on by `harness run`'s own stopping rule, so its false alarms are that rule's.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, bail};
use serde::Serialize;
use statrs::statistics::Statistics;

use super::affinity;
use super::analysis::Analysis;
use super::design::Design;
use super::launch::Launcher;
use super::overwrite;
use super::records::{
    Arm, CONTROL_MSG_ID, CONTROL_SDK, Metric, Outcome, RunRecord, STOLEN_LAUNCH_PCT, as_counted, launches_in,
};
use super::report::atomic_write;
use super::run::{MAX_ROUNDS, more_rounds, run_step};
use super::schedule::{next_round, plan};
use super::sdk;
use super::settings::{self, Flags, Layer, SETTINGS, Selection, Setting, Settings, Source, check_file_name};
use crate::machine::{self, Machine};
use crate::stats::paired::{CLIP_PERCENTILE, clipped_mean, runs_for_mean};
use crate::stats::{ALPHA, Summary, correlation, runs_for};

#[derive(clap::Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// Rounds per design and SDK, each REPEAT processes of every arm; the false-alarm and
    /// detection rates are out of this many [default: 20].
    #[arg(long, value_name = "N", conflicts_with = "suites", allow_negative_numbers = true)]
    pub rounds: Option<u32>,
    /// The former name of --rounds.
    #[arg(long, value_name = "N", hide = true)]
    pub suites: Option<u32>,
    /// Injected slowdowns, % of the base arm's time per message, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0.5,1,2,5", allow_negative_numbers = true)]
    pub slowdowns: Vec<f64>,
    /// Designs to calibrate, comma-separated: lockstep (one process per arm, paced by the sink),
    /// paired (the arms in one process) and processes (one process per arm, one at a time).
    #[arg(long, value_delimiter = ',', default_value = "paired,processes")]
    pub design: Vec<String>,
    /// SDK rows to calibrate, comma-separated; each one's base arm is `fast` (`threadrng` for rust).
    #[arg(long, value_delimiter = ',', default_value = "rust")]
    pub sdk: Vec<String>,
    #[command(flatten)]
    pub flags: Flags<Calibrate>,
    /// Write <DIR>/<NAME>.md and .json [default: print only, unless NAME is given: results/].
    #[arg(long = "results-dir", visible_alias = "report", env = "RESULTS_DIR", value_name = "DIR")]
    pub results_dir: Option<PathBuf>,
    /// Report name [default: calibration].
    #[arg(long, env = "NAME")]
    pub name: Option<String>,
}

/// The settings `harness calibrate` takes: the run's size, bounds and CPUs. The arms are its own.
#[derive(Clone, Debug)]
pub struct Calibrate;

impl Selection for Calibrate {
    fn includes(s: &Setting) -> bool {
        [
            &settings::REPEAT,
            &settings::BITS,
            &settings::PACK,
            &settings::BATCH,
            &settings::MESSAGES,
            &settings::WARMUP,
            &settings::TIMEOUT,
            &settings::CPUS,
            &settings::FREEZE,
            &settings::STOLEN,
            &settings::PRECISION,
            &settings::FORCE,
        ]
        .iter()
        .any(|own| own.env == s.env)
    }
}

const DEFAULT_ROUNDS: u32 = 20;

/// How the arms of a round are run and judged.
/// A design named by --design.
fn parse_design(name: &str) -> anyhow::Result<Design> {
    Design::parse(name)
        .ok_or_else(|| anyhow::anyhow!("--design {name} is unknown; expected lockstep, paired or processes"))
}

impl CalibrateArgs {
    /// The rounds asked for, and the flag that asked (for its error).
    fn rounds(&self) -> (u32, &'static str) {
        match (self.rounds, self.suites) {
            (_, Some(n)) => (n, "--suites"),
            (n, None) => (n.unwrap_or(DEFAULT_ROUNDS), "--rounds"),
        }
    }
}

/// Runs used to measure the base arm's time per message, after BASE_WARMUP_RUNS discarded ones.
const BASE_RUNS: usize = 5;
const BASE_WARMUP_RUNS: usize = 2;
/// Detection rate the calibration reports a REPEAT for.
const TARGET_POWER: f64 = 0.9;

/// One (design, SDK, injected %) over every round: the JSON's `cells`.
#[derive(Serialize)]
struct Cell {
    design: Design,
    /// What the verdict compared: paired, always wall (block times); processes, both, judged
    /// from the same runs.
    metric: Metric,
    sdk: String,
    injected_pct: f64,
    /// INJECT_NS of the slowed copy: injected_pct of the base's time per message, measured in the
    /// design's own statistic (`base_ns_per_msg`), to 0.01 ns.
    inject_ns: f64,
    rounds: u32,
    /// Rounds judged `slower` (for 0%: false alarms, rounds judged faster or slower).
    detected: u32,
    /// Paired, at 0%: the trials in which the twin's own test alone (p < ALPHA) saw a change.
    /// A verdict needs more (a change beyond the twin), so this is not a false-alarm count.
    #[serde(skip_serializing_if = "Option::is_none")]
    twin_alarms: Option<u32>,
    withheld: u32,
    /// The mean over rounds of the change the injected time accounts for, in the statistic the
    /// design estimates (`expected_change_pct`).
    expected_change_pct: f64,
    observed_change_pct: f64,
    /// Paired, where the producer reports round trips per arm: the mean over rounds of the part of
    /// the change that the injected arm's longer round trips carry (see `round_trip_change_pct`).
    #[serde(skip_serializing_if = "Option::is_none")]
    round_trip_change_pct: Option<f64>,
    /// The spread a round's test works against: paired, the sd of the per-process log ratios
    /// (%); processes, the mean stddev % of the two arms' runs.
    spread_pct: f64,
    /// REPEAT at which TARGET_POWER of rounds would detect the expected change.
    repeat_for_90pct: Option<u32>,
    /// With PRECISION: the mean over rounds of the processes (sets) each trial ran before its
    /// rule stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    processes_mean: Option<f64>,
    /// Processes: the means over rounds of the rounds' `Steal`.
    #[serde(flatten)]
    steal: Steal,
    /// The trials' launches that were stolen and ran again (STOLEN=rerun).
    stolen_launches: u32,
    /// Where a launch was stolen: the rounds judged as STOLEN=count would have counted them
    /// (each launch's first run, stolen or not), every other trial as it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    if_counted: Option<IfCounted>,
}

/// A judgement (or a cell's tally) of the runs as STOLEN=count would have counted them.
#[derive(Serialize)]
struct IfCounted {
    /// A trial: 1 if its verdict would have been a detection (at 0%, a false alarm); a cell:
    /// how many trials' would.
    detected: u32,
    observed_change_pct: f64,
    spread_pct: f64,
}

/// One round's judgement of one level.
#[derive(Serialize)]
struct Judged {
    design: Design,
    metric: Metric,
    sdk: String,
    round: u32,
    injected_pct: f64,
    /// The in-process twin judged alone against the base (paired), not a copy.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    twin: bool,
    expected_change_pct: f64,
    observed_change_pct: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    round_trip_change_pct: Option<f64>,
    verdict: crate::stats::Verdict,
    spread_pct: f64,
    /// The timed processes (sets) the trial ran: REPEAT, or more under PRECISION.
    processes: usize,
    #[serde(flatten)]
    steal: Steal,
    /// The launches of the two compared arms that were stolen and ran again.
    #[serde(skip_serializing_if = "is_zero")]
    stolen_launches: usize,
    /// Where one was: the same trial judged from the runs STOLEN=count would have counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    if_counted: Option<IfCounted>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failed: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Processes: how much of the runs' spread the hypervisor's steal carries. A paired block's arms
/// share it, so it is not read there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
struct Steal {
    /// The mean share (%) of the run's CPUs' time stolen while the two compared arms' runs ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    steal_pct: Option<f64>,
    /// The correlation of each run's steal with its figure's log over its arm's mean log, the two
    /// arms pooled: near -1, the runs the hypervisor took from are the slow ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    steal_r: Option<f64>,
}

impl Steal {
    fn of(arms: [&Arm; 2]) -> Steal {
        let mut points: Vec<(f64, f64)> = Vec::new();
        for arm in arms {
            let runs: Vec<(f64, f64)> = arm
                .timed_samples()
                .filter_map(|(order, v)| Some((arm.runs.iter().find(|r| r.order == order)?.steal_pct?, v.ln())))
                .collect();
            let mean = runs.iter().map(|(_, l)| l).mean();
            points.extend(runs.iter().map(|&(s, l)| (s, l - mean)));
        }
        if points.is_empty() {
            return Steal::default();
        }
        let (s, d): (Vec<f64>, Vec<f64>) = points.into_iter().unzip();
        Steal { steal_pct: Some(s.iter().mean()), steal_r: correlation(&s, &d) }
    }
}

#[derive(Debug, Serialize)]
struct Target {
    target: String,
    value: String,
    met: bool,
}

#[derive(Serialize)]
struct Calibration {
    name: String,
    command: String,
    machine: Machine,
    started: String,
    finished: String,
    settings: Settings,
    rounds: u32,
    cells: Vec<Cell>,
    targets: Vec<Target>,
    judged: Vec<Judged>,
}

pub fn calibrate(args: &CalibrateArgs) -> anyhow::Result<()> {
    let (rounds, rounds_flag) = args.rounds();
    if rounds == 0 {
        bail!("{rounds_flag} 0 is out of range: it must be at least 1");
    }
    if let Some(k) = args.slowdowns.iter().find(|k| !(k.is_finite() && **k > 0.0 && **k <= 1000.0)) {
        bail!("--slowdowns {k} is out of range: each must be above 0 and at most 1000 (%)");
    }
    let designs = args.design.iter().map(|d| parse_design(d)).collect::<anyhow::Result<Vec<_>>>()?;
    let sdks = args.sdk.iter().map(|name| sdk::find(name).map(|s| s.name)).collect::<anyhow::Result<Vec<_>>>()?;
    let twice = [
        ("--design", settings::repeated(&args.design).cloned()),
        ("--sdk", settings::repeated(&args.sdk).cloned()),
        ("--slowdowns", settings::repeated(&args.slowdowns).map(f64::to_string)),
    ];
    if let Some((flag, dup)) = twice.into_iter().find_map(|(flag, dup)| Some((flag, dup?))) {
        bail!("{flag} lists {dup} twice");
    }
    let force = args.flags.layer.force()?;
    let name = args.name.clone().unwrap_or_else(|| "calibration".into());
    check_file_name("NAME", &name)?;
    let layer = Layer::default().with(&settings::SYSCALLS, "false", Source::Flag).over(&args.flags.layer);
    let resolved = |sdk: &str| {
        layer
            .clone()
            .with(&settings::SDK, sdk, Source::Flag)
            .with(&settings::MSG_ID, base_msg_id(sdk), Source::Flag)
            .resolve(Some(&name))
    };
    let per_sdk = sdks.iter().map(|s| resolved(s).map(|(settings, _)| settings)).collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(p) = per_sdk[0].precision_pct.filter(|_| designs.contains(&Design::Processes)) {
        bail!(
            "--precision {p}% applies to the lockstep and paired designs only: give --design lockstep or paired, or drop --precision"
        );
    }
    let root = sdk::repo_root();
    let out_dir = match (&args.results_dir, &args.name) {
        (Some(dir), _) => Some(dir.clone()),
        (None, Some(_)) => Some(root.join("results")),
        (None, None) => None,
    };
    if let Some(dir) = &out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let cells: Vec<(&str, &str)> = designs.iter().flat_map(|&d| sdks.iter().map(move |&s| (d.name(), s))).collect();
        overwrite::check_calibration(&dir.join(format!("{name}.json")), rounds, &per_sdk[0], &cells, force)?;
    }
    let started = machine::timestamp();
    let mut launcher = Launcher::new(root.clone());
    for sdk in &sdks {
        eprintln!("building {sdk} ...");
        sdk::find(sdk)?.build(&root)?;
    }
    let mut cells = Vec::new();
    let mut judged = Vec::new();
    for (sdk, settings) in sdks.iter().zip(&per_sdk) {
        for &design in &designs {
            let base_ns = base_ns_per_msg(&mut launcher, settings, sdk, design)?;
            let levels: Vec<(f64, f64)> =
                std::iter::once((0.0, 0.0)).chain(args.slowdowns.iter().map(|&k| (k, inject_ns(k, base_ns)))).collect();
            eprintln!(
                "calibrate {sdk} {}: base {base_ns:.1} ns/msg; injecting {} ns/msg",
                design.name(),
                levels.iter().map(|(_, ns)| ns.to_string()).collect::<Vec<_>>().join(", ")
            );
            let mut rows = Vec::new();
            for round in 1..=rounds {
                let round_rows = run_round(&mut launcher, settings, sdk, design, &levels, round)?;
                eprintln!(
                    "calibrate {sdk} {}: round {round}/{rounds}: {}",
                    design.name(),
                    round_rows
                        .iter()
                        .map(|j| format!(
                            "{}: {:+.2}% (expected {:+.2}%) {}",
                            if j.twin { "twin".into() } else { format!("+{}%", j.injected_pct) },
                            j.observed_change_pct,
                            j.expected_change_pct,
                            j.verdict.label()
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                rows.extend(round_rows);
            }
            for metric in [Metric::Wall, Metric::Cpu].into_iter().filter(|m| rows.iter().any(|j| j.metric == *m)) {
                let precise = settings.precision_pct.is_some();
                cells.extend(levels.iter().map(|&(k, ns)| cell(design, metric, sdk, k, ns, &rows, precise)));
            }
            judged.extend(rows);
        }
    }
    let toolchains =
        sdks.iter().map(|s| sdk::find(s).map(|s| (s.name, s.version))).collect::<anyhow::Result<Vec<_>>>()?;
    let settings = per_sdk.into_iter().next().expect("at least one SDK");
    let calibration = Calibration {
        command: command(args, &settings, rounds),
        name,
        machine: Machine::describe(&root, &toolchains),
        started,
        finished: machine::timestamp(),
        targets: targets(&cells, settings.repeat, settings.precision_pct),
        settings,
        rounds,
        cells,
        judged,
    };
    let md = markdown(&calibration);
    println!("{md}");
    if let Some(dir) = out_dir {
        let (json, mdp) =
            (dir.join(format!("{}.json", calibration.name)), dir.join(format!("{}.md", calibration.name)));
        atomic_write(&json, &(serde_json::to_string_pretty(&calibration)? + "\n"))?;
        atomic_write(&mdp, &md)?;
        eprintln!("wrote {} and {}", json.display(), mdp.display());
    }
    let failed = calibration.judged.iter().filter(|j| j.failed.is_some()).count();
    if failed > 0 {
        bail!("{failed} judgement(s) had a FAILED run; see the JSON");
    }
    Ok(())
}

/// The arm a calibration slows: the SDK's fast path (the Rust row's, Iggy's own ThreadRng path).
fn base_msg_id(sdk: &str) -> &'static str {
    if sdk == CONTROL_SDK { CONTROL_MSG_ID } else { "fast" }
}

/// A cell's design, with the metric where the design judges more than one.
fn label(design: Design, metric: Metric) -> String {
    match (design, metric) {
        (Design::Processes, Metric::Cpu) => "processes (cpu)".into(),
        _ => design.name().into(),
    }
}

/// The base arm's time per message in the statistic the design's expected change divides by, so
/// a k% copy's INJECT_NS is k% of what its rounds will show: the median of BASE_RUNS processes
/// after BASE_WARMUP_RUNS. Processes: wall time per message of a run on its own. Paired: the
/// base arm's mean batch time (rarest stalls clipped, as the verdict's estimate) over BATCH, in a
/// process shaped like a round's, none slowed (a paired process sends faster per message than
/// one with one arm).
fn base_ns_per_msg(launcher: &mut Launcher, settings: &Settings, sdk: &str, design: Design) -> anyhow::Result<f64> {
    let settings = &Settings { design, ..settings.clone() };
    let arms = match design {
        Design::Processes => vec![Arm::new(sdk, base_msg_id(sdk), None)],
        Design::Paired | Design::Lockstep => paired_arms(sdk, 0.0),
    };
    let arms: Vec<&Arm> = arms.iter().collect();
    let mut samples = Vec::new();
    for i in 0..BASE_WARMUP_RUNS + BASE_RUNS {
        match launcher.run(settings, &arms, settings.size(), i as u64, None).0.remove(0) {
            Outcome::Ok(_) if i < BASE_WARMUP_RUNS => {}
            Outcome::Ok(m) => samples.push(match &m.paired {
                Some((_, batches)) => clipped_mean(batches) / f64::from(settings.batch),
                None => 1e9 / m.result.msgs_per_sec,
            }),
            Outcome::Failed(why) => bail!("measuring the base arm of {sdk} failed: {why}"),
        }
    }
    Ok(Summary::of(&samples).expect("BASE_RUNS samples").median)
}

/// INJECT_NS of a k% copy of a base of `base_ns` per message, to 0.01 ns (a spin per batch of
/// 1000 is then within 5 ns of k%); never 0, which would inject nothing.
fn inject_ns(k: f64, base_ns: f64) -> f64 {
    ((k / 100.0 * base_ns * 100.0).round() / 100.0).max(0.01)
}

/// A paired round's process: the base, its in-process twin, an identical copy (the A/A trial)
/// and the copy slowed by `ns` per message.
fn paired_arms(sdk: &str, ns: f64) -> Vec<Arm> {
    let mut twin = Arm::new(sdk, base_msg_id(sdk), None);
    twin.twin = true;
    let mut slowed = Arm::new(sdk, base_msg_id(sdk), None);
    slowed.inject_ns = ns;
    vec![Arm::new(sdk, base_msg_id(sdk), None), twin, Arm::new(sdk, base_msg_id(sdk), None), slowed]
}

/// One round: the arms run and judged as the design says; one judgement per level (0% first).
/// Paired, each slowed copy runs in processes of its own with the base, the base's twin and an
/// identical copy (a producer injects into one arm of a process). The copy is judged as any arm
/// is, by `harness run`'s whole rule (p < ALPHA and a change beyond the twin): an A/A trial of
/// its own on REPEAT processes no other trial shares, so a round holds one per slowed level. The
/// twin's own test is judged too, apart, for what it alone would have said.
/// Processes: every arm on its own, with the cross-process A/A control.
fn run_round(
    launcher: &mut Launcher,
    settings: &Settings,
    sdk: &str,
    design: Design,
    levels: &[(f64, f64)],
    round: u32,
) -> anyhow::Result<Vec<Judged>> {
    let seed = settings.seed ^ u64::from(round).wrapping_mul(0x2545_F491_4F6C_DD1D);
    match design {
        Design::Processes => {
            let mut arms = vec![Arm::control('A'), Arm::control('B')];
            arms.extend(levels.iter().map(|_| Arm::new(sdk, base_msg_id(sdk), None)));
            arms.insert(2, Arm::new(sdk, base_msg_id(sdk), None));
            for (arm, &(_, ns)) in arms[3..].iter_mut().zip(levels) {
                arm.inject_ns = ns;
            }
            let pairs: Vec<(usize, usize)> = (3..arms.len()).map(|a| (2, a)).collect();
            let mut arms = run_arms(launcher, &Settings { design, seed, ..settings.clone() }, arms, &pairs);
            let mut out = Vec::new();
            for metric in [Metric::Wall, Metric::Cpu] {
                arms.iter_mut().for_each(|a| a.metric = metric);
                out.extend(levels.iter().enumerate().map(|(l, &(k, _))| judge(&arms, 2, 3 + l, design, sdk, round, k)));
            }
            Ok(out)
        }
        Design::Paired | Design::Lockstep => {
            let mut out = Vec::new();
            for (l, &(k, ns)) in levels.iter().enumerate().filter(|(_, (k, _))| *k > 0.0) {
                let arms = run_arms(
                    launcher,
                    &Settings { design, seed: seed ^ l as u64, ..settings.clone() },
                    paired_arms(sdk, ns),
                    &[(0, 2), (0, 3)],
                );
                out.push(judge(&arms, 0, 1, design, sdk, round, 0.0));
                out.push(judge(&arms, 0, 2, design, sdk, round, 0.0));
                out.push(judge(&arms, 0, 3, design, sdk, round, k));
            }
            Ok(out)
        }
    }
}

/// Runs `arms` REPEAT times in the settings' design and order, and then, with PRECISION, more
/// rounds by `harness run`'s own rule (`more_rounds`) until every comparison of `pairs` and every
/// twin is as narrow as asked; the arms with their runs.
fn run_arms(launcher: &mut Launcher, settings: &Settings, mut arms: Vec<Arm>, pairs: &[(usize, usize)]) -> Vec<Arm> {
    let started = std::time::Instant::now();
    let mut steps = plan(&arms, settings);
    let (mut k, mut order) = (0, 0);
    for round in settings.repeat as usize.. {
        for (step, indexes) in std::mem::take(&mut steps) {
            let records = run_step(launcher, settings, &arms, &indexes, step, order + 1, k);
            (k, order) = (k + 1, order + launches_in(&records));
            for (i, record) in records {
                arms[i].runs.push(record);
            }
        }
        match more_rounds(&Analysis::of(&arms, pairs), &arms, settings, started.elapsed(), round) {
            Ok(open) => steps = next_round(&arms, settings, round + 1, &open),
            Err(_) => break,
        }
    }
    arms
}

/// The verdict on `after` against `base` by the workload rule, with the change it should show;
/// where one of their launches was stolen, also as STOLEN=count would have judged it.
fn judge(arms: &[Arm], base: usize, after: usize, design: Design, sdk: &str, round: u32, k: f64) -> Judged {
    let mut judged = judge_runs(arms, base, after, design, sdk, round, k);
    let stolen: BTreeSet<usize> =
        [&arms[base], &arms[after]].into_iter().flat_map(|a| &a.runs).filter(|r| r.stolen).map(|r| r.order).collect();
    judged.stolen_launches = stolen.len();
    judged.if_counted = (!stolen.is_empty()).then(|| as_counted(arms)).flatten().map(|counted| {
        let j = judge_runs(&counted, base, after, design, sdk, round, k);
        IfCounted {
            detected: u32::from(detects(k, j.verdict)),
            observed_change_pct: j.observed_change_pct,
            spread_pct: j.spread_pct,
        }
    });
    judged
}

/// Whether a verdict at level `k` is a detection (at 0%, a false alarm: any significant one).
fn detects(k: f64, verdict: crate::stats::Verdict) -> bool {
    if k == 0.0 { verdict.is_significant() } else { verdict == crate::stats::Verdict::Slower }
}

/// `judge`'s verdict and figures from the runs as they count.
fn judge_runs(arms: &[Arm], base: usize, after: usize, design: Design, sdk: &str, round: u32, k: f64) -> Judged {
    let analysis = Analysis::of(arms, &[(base, after)]);
    let row = if arms[after].twin { analysis.twins.first() } else { analysis.comparisons.first() };
    let spread_pct = match row {
        Some(r) => match &r.paired {
            Some(p) => 100.0 * p.t.sd,
            None => {
                (analysis.arms[base].summary.map_or(0.0, |s| s.stddev_pct)
                    + analysis.arms[after].summary.map_or(0.0, |s| s.stddev_pct))
                    / 2.0
            }
        },
        None => f64::NAN,
    };
    Judged {
        design,
        metric: arms[after].metric,
        sdk: sdk.to_owned(),
        round,
        injected_pct: k,
        twin: arms[after].twin,
        expected_change_pct: expected_change_pct(&arms[after]),
        observed_change_pct: row.map_or(f64::NAN, |r| r.comparison.change_pct),
        // A lock-step producer's round trip includes the turns the sink held it for the others.
        round_trip_change_pct: if design == Design::Paired {
            round_trip_change_pct(&arms[base], &arms[after])
        } else {
            None
        },
        verdict: row.map_or(crate::stats::Verdict::Undecided, |r| r.comparison.verdict),
        spread_pct,
        processes: arms[after].runs.iter().filter(|r| r.counted()).count(),
        steal: if design == Design::Processes { Steal::of([&arms[base], &arms[after]]) } else { Steal::default() },
        stolen_launches: 0,
        if_counted: None,
        failed: arms.iter().find_map(|a| a.failure().map(|why| format!("{}: {why}", a.label()))),
    }
}

/// The change the injected work accounts for, from what the producer measured, in the statistic
/// the design's verdict estimates. Processes compare msgs/s, messages over the timed window (or
/// over the process's CPU time), so the injected time is that share of it. Paired and lock-step
/// compare the arms' total batch times, each arm's rarest stalls clipped: adding d ns to every
/// batch moves that mean batch time by d, so the change is -d / the slowed arm's clipped mean
/// batch time, d the injected time per timed batch.
fn expected_change_pct(arm: &Arm) -> f64 {
    let changes: Vec<f64> = arm
        .runs
        .iter()
        .filter(|r| r.counted())
        .filter_map(|r| r.result.as_ref().map(|m| (m, r)))
        .filter(|(m, _)| m.elapsed_ns > 0)
        .map(|(m, r)| match (&r.batch_ns, arm.metric, r.cpu_ns_per_msg) {
            (Some(b), _, _) if !b.is_empty() => -100.0 * (m.injected_ns as f64 / b.len() as f64) / clipped_mean(b),
            // The spin is CPU time too, against the process's CPU time over all it sent.
            (_, Metric::Cpu, Some(cpu)) => -100.0 * m.injected_ns as f64 / (cpu * m.messages as f64),
            _ => -100.0 * m.injected_ns as f64 / m.elapsed_ns as f64,
        })
        .collect();
    Summary::of(&changes).map_or(0.0, |s| s.mean)
}

/// Paired: the part of the change carried by the injected arm's round trips (send to ack) being
/// longer than the base's, per process -(median round trip of `after` - of `base`) / mean batch
/// of `after`, averaged. Work added before a send lengthens the sink's idle wait for it, and on
/// this kind of machine a longer idle wait is a slower wake-up, so a slowdown costs more than the
/// time it spun; this shows how much. None where the producer reports no round trip per arm.
fn round_trip_change_pct(base: &Arm, after: &Arm) -> Option<f64> {
    let rtt = |r: &RunRecord| r.result.as_ref()?.rtt_p50_ns;
    let changes: Vec<f64> = after
        .runs
        .iter()
        .filter(|r| r.counted())
        .filter_map(|r| {
            let same_process = base.runs.iter().find(|b| b.counted() && b.order == r.order)?;
            let batch = clipped_mean(r.batch_ns.as_deref().filter(|b| !b.is_empty())?);
            Some(-100.0 * (rtt(r)? as f64 - rtt(same_process)? as f64) / batch)
        })
        .collect();
    Summary::of(&changes).map(|s| s.mean)
}

/// One level's cell from every round's judgements; `precise`: the trials ran under PRECISION.
fn cell(design: Design, metric: Metric, sdk: &str, k: f64, inject_ns: f64, rows: &[Judged], precise: bool) -> Cell {
    let at_level = |j: &&Judged| j.metric == metric && j.injected_pct == k && j.failed.is_none();
    let judged: Vec<&Judged> = rows.iter().filter(at_level).filter(|j| !j.twin).collect();
    let twins: Vec<&Judged> = rows.iter().filter(at_level).filter(|j| j.twin).collect();
    let n = judged.len().max(1) as f64;
    // Over every trial at the level: one whose figure is not a number counts as no change.
    let over_n = |values: &mut dyn Iterator<Item = f64>| values.filter(|v| v.is_finite()).sum::<f64>() / n;
    let mean = |f: fn(&Judged) -> f64| over_n(&mut judged.iter().map(|j| f(j)));
    let detected = judged.iter().filter(|j| detects(k, j.verdict)).count() as u32;
    let (expected, spread) = (mean(|j| j.expected_change_pct), mean(|j| j.spread_pct));
    let rate = f64::from(detected) / n;
    let repeat_for_90pct = (k > 0.0 && rate < TARGET_POWER)
        .then(|| match design {
            // Per-process log ratios: a one-sample test of their mean.
            Design::Paired | Design::Lockstep => {
                runs_for_mean((1.0 + expected / 100.0).ln(), spread / 100.0, TARGET_POWER)
            }
            Design::Processes => runs_for(expected, spread, spread, TARGET_POWER),
        })
        .flatten();
    Cell {
        design,
        metric,
        sdk: sdk.to_owned(),
        injected_pct: k,
        inject_ns,
        rounds: judged.len() as u32,
        detected,
        twin_alarms: (!twins.is_empty()).then(|| twins.iter().filter(|j| j.verdict.is_significant()).count() as u32),
        withheld: judged.iter().filter(|j| j.verdict == crate::stats::Verdict::Withheld).count() as u32,
        expected_change_pct: expected,
        observed_change_pct: mean(|j| j.observed_change_pct),
        round_trip_change_pct: mean_of(judged.iter().filter_map(|j| j.round_trip_change_pct)),
        spread_pct: spread,
        repeat_for_90pct,
        processes_mean: precise.then(|| mean_of(judged.iter().map(|j| j.processes as f64))).flatten(),
        steal: Steal {
            steal_pct: mean_of(judged.iter().filter_map(|j| j.steal.steal_pct)),
            steal_r: mean_of(judged.iter().filter_map(|j| j.steal.steal_r)),
        },
        stolen_launches: judged.iter().map(|j| j.stolen_launches as u32).sum(),
        if_counted: judged.iter().any(|j| j.if_counted.is_some()).then(|| {
            let counted = |j: &&Judged| match &j.if_counted {
                Some(c) => (c.detected, c.observed_change_pct, c.spread_pct),
                None => (u32::from(detects(k, j.verdict)), j.observed_change_pct, j.spread_pct),
            };
            let all: Vec<(u32, f64, f64)> = judged.iter().map(counted).collect();
            IfCounted {
                detected: all.iter().map(|a| a.0).sum(),
                observed_change_pct: over_n(&mut all.iter().map(|a| a.1)),
                spread_pct: over_n(&mut all.iter().map(|a| a.2)),
            }
        }),
    }
}

fn mean_of(values: impl Iterator<Item = f64>) -> Option<f64> {
    Summary::of(&values.collect::<Vec<_>>()).map(|s| s.mean)
}

/// The targets the project set for this machine, read from the cells that exist. They are set
/// at REPEAT=10; under PRECISION (`precision`) they are that rule's, whatever REPEAT began it.
fn targets(cells: &[Cell], repeat: u32, precision: Option<f64>) -> Vec<Target> {
    let mut out = Vec::new();
    let (rule, ruled) = match precision {
        Some(p) => (format!("under PRECISION={p}%"), true),
        None => ("at REPEAT=10".to_owned(), repeat == 10),
    };
    let ran = precision.map_or(format!("REPEAT={repeat}"), |p| format!("REPEAT={repeat}, then PRECISION={p}%"));
    for c in cells {
        let rate = f64::from(c.detected) / f64::from(c.rounds.max(1));
        let what = format!("{} {}", label(c.design, c.metric), c.sdk);
        let value = format!("{} of {} rounds ({:.0}%) at {ran}", c.detected, c.rounds, rate * 100.0);
        let push =
            |out: &mut Vec<Target>, target: String, met: bool| out.push(Target { target, value: value.clone(), met });
        match (c.design, c.injected_pct) {
            (_, 0.0) => {
                let min_rounds = if c.design.blocks() { 40 } else { 20 };
                push(
                    &mut out,
                    format!("{what}: A/A false alarms <= 5% over >= {min_rounds} rounds {rule}"),
                    ruled && c.rounds >= min_rounds && rate <= 0.05,
                );
            }
            (Design::Paired | Design::Lockstep, 1.0) => push(
                &mut out,
                format!("{what}: 1% detected in >= 90% of >= 20 rounds {rule}"),
                ruled && c.rounds >= 20 && rate >= 0.9,
            ),
            (Design::Paired | Design::Lockstep, 0.5) => push(
                &mut out,
                format!("{what}: 0.5% detected in >= 50% of >= 20 rounds {rule}"),
                ruled && c.rounds >= 20 && rate >= 0.5,
            ),
            (Design::Processes, 5.0) => push(
                &mut out,
                format!("{what}: 5% detected in >= 90% of >= 20 rounds {rule}"),
                ruled && c.rounds >= 20 && rate >= 0.9,
            ),
            _ => {}
        }
        if c.design.blocks() && [1.0, 2.0, 5.0].contains(&c.injected_pct) {
            let off = (c.observed_change_pct / c.expected_change_pct - 1.0) * 100.0;
            out.push(Target {
                target: format!(
                    "{what}: mean observed change within +-10% of the measured expected change at {}%",
                    c.injected_pct
                ),
                value: format!(
                    "observed {:+.3}%, expected {:+.3}% ({off:+.1}% off){}",
                    c.observed_change_pct,
                    c.expected_change_pct,
                    c.round_trip_change_pct.map_or(String::new(), |rt| format!("; longer round trips carry {rt:+.3}%"))
                ),
                met: off.abs() <= 10.0,
            });
        }
    }
    out
}

/// A cell's stolen launches and, where there were any, its detections, mean observed change and
/// spread had they counted; "-" under STOLEN=count, which runs nothing again.
fn if_counted(cell: &Cell, rerun_stolen: bool) -> String {
    match &cell.if_counted {
        _ if !rerun_stolen => "-".to_owned(),
        None => "0".to_owned(),
        Some(c) => format!(
            "{}: {} {}, {:+.3}%, spread {:.2}",
            cell.stolen_launches,
            c.detected,
            if cell.injected_pct == 0.0 { "false alarms" } else { "slower" },
            c.observed_change_pct,
            c.spread_pct
        ),
    }
}

/// The command that reproduces this calibration: every resolved setting it takes, as a flag.
fn command(args: &CalibrateArgs, settings: &Settings, rounds: u32) -> String {
    let slowdowns = args.slowdowns.iter().map(f64::to_string).collect::<Vec<_>>().join(",");
    let mut c = format!(
        "cargo run --release -p harness -- calibrate --design {} --sdk {} --rounds {rounds} --slowdowns {slowdowns}",
        args.design.join(","),
        args.sdk.join(",")
    );
    let resolved = settings.fields();
    for s in SETTINGS.iter().filter(|s| Calibrate::includes(s)) {
        if let Some((_, value)) = resolved.iter().find(|(key, _)| *key == s.key()) {
            let _ = write!(c, " --{} {value}", s.flag);
        }
    }
    if let Some(name) = &args.name {
        let _ = write!(c, " --name {name}");
    }
    if let Some(dir) = &args.results_dir {
        let _ = write!(c, " --results-dir {}", dir.display());
    }
    c
}

fn markdown(c: &Calibration) -> String {
    let mut out = String::new();
    let s = &c.settings;
    let _ = writeln!(out, "# {}: what this machine can detect\n", c.name);
    let _ = writeln!(out, "- Command: `{}`", c.command);
    let _ = writeln!(out, "- Started {}, finished {}", c.started, c.finished);
    let m = &c.machine;
    let _ = writeln!(out, "- Machine: {}; {}", m.summary(), m.toolchains.join("; "));
    let _ = writeln!(
        out,
        "- Settings: REPEAT={} BITS={} PACK={} BATCH={} MESSAGES={} WARMUP={} CPUS={} FREEZE={} STOLEN={}; {} rounds per design and SDK. The base arm is each SDK's `fast` (the Rust row's `{CONTROL_MSG_ID}`); a k% copy spins k% of the base's time per message (`ns/msg`, INJECT_NS: measured before each design's rounds as its verdict sees it, the time per message of a run on its own or, paired, the base's mean batch (rarest stalls clipped) over BATCH in a process like a round's) on the clock, per batch, and the producer reports the time it spent, from which the expected change is computed.\n",
        s.repeat,
        s.bits,
        s.pack,
        s.batch,
        s.messages,
        s.warmup,
        affinity::text(s.cpus.as_deref()),
        s.freeze,
        s.stolen(),
        c.rounds
    );
    if let Some(p) = s.precision_pct {
        let _ = writeln!(
            out,
            "- PRECISION={p}%: each trial ran REPEAT processes, then more by `harness run`'s rule until the 95% CI half-width of its copy, its slowed copy and its twin was at most {p}% (or {MAX_ROUNDS} rounds); `rounds` says how many processes that took on average. The rule stops on the width of the interval, never on its verdict, so the false alarms at 0% are what a run with PRECISION would give.\n"
        );
    }
    let _ = writeln!(
        out,
        "| design | SDK | injected | ns/msg | rounds | detected | expected change | mean observed change | of it, longer round trips | spread % | REPEAT for 90% | steal % (r) | stolen launches: had they counted |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for cell in &c.cells {
        let detected = match (cell.injected_pct == 0.0, cell.twin_alarms) {
            (true, Some(t)) => format!("{} false alarms (twin's own test: {t})", cell.detected),
            (true, None) => format!("{} false alarms", cell.detected),
            (false, _) => format!("{} slower", cell.detected),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {}% | {} | {} | {detected} | {:+.3}% | {:+.3}% | {} | {:.2} | {} | {} | {} |",
            label(cell.design, cell.metric),
            cell.sdk,
            cell.injected_pct,
            cell.inject_ns,
            match cell.processes_mean {
                Some(n) => format!("{} ({n:.1} processes each)", cell.rounds),
                None => cell.rounds.to_string(),
            },
            cell.expected_change_pct,
            cell.observed_change_pct,
            cell.round_trip_change_pct.map_or("-".to_owned(), |rt| format!("{rt:+.3}%")),
            cell.spread_pct,
            match (cell.injected_pct == 0.0, cell.repeat_for_90pct) {
                (true, _) => "-".to_owned(),
                (false, Some(n)) => n.to_string(),
                (false, None) => format!("reached at {}", s.repeat),
            },
            match (cell.steal.steal_pct, cell.steal.steal_r) {
                (Some(pct), Some(r)) => format!("{pct:.2} ({r:+.2})"),
                (Some(pct), None) => format!("{pct:.2}"),
                _ => "-".to_owned(),
            },
            if_counted(cell, s.rerun_stolen)
        );
    }
    let _ = writeln!(out, "\n| target | value | met |\n|---|---|---|");
    for t in &c.targets {
        let _ = writeln!(out, "| {} | {} | {} |", t.target, t.value, if t.met { "yes" } else { "no" });
    }
    let _ = writeln!(
        out,
        "\nHow to read this: each round judges every copy against the base with `harness run`'s rule for its design (paired: the one-sample t-test at {ALPHA} of the per-process log ratios of the arms' total batch times, each arm's times above their {CLIP_PERCENTILE}th percentile counted at it, and a change beyond the SDK's in-process A/A twin; lockstep: the same on each set's log ratios of every process's total own time per turn (client_ns, from the sink's reply to the next batch read), and a change beyond the set's A/A twin, a second process of the base; processes: Welch at {ALPHA} and a change beyond the cross-process A/A control). \
         `processes (cpu)` judges the same runs by the producer process's CPU time per message (METRIC=cpu). \
         A verdict on the identical copy is a false alarm; `slower` on a slowed copy is a detection. \
         The twin's own test (paired, in brackets) is the twin judged alone against the base by the t-test, which a verdict needs and goes beyond; it alarms at about {ALPHA} by construction and withholds no verdict. \
         The expected change comes from the producers' own measurement of the time they spent injecting, in the statistic each design estimates: processes, -injected/elapsed; paired and lockstep, -(injected per batch)/(the slowed arm's mean batch time, its times above their {CLIP_PERCENTILE}th percentile counted at it, as the verdict's estimate counts them; lockstep: of client time). \
         \"Of it, longer round trips\" (paired only: a lock-step round trip includes the turns the sink held it for) is the part of the observed change carried by the slowed arm's median round trip (send to ack) exceeding the base's in the same process, over its mean batch: work added before a send also lengthens the sink's idle wait for it, and a longer idle wait can make the next round trip slower, which the spin's own time does not include. \
         Paired and lockstep, a round holds one A/A trial per slowed level (each on its own REPEAT processes or sets, which also carry the twin), so the 0% row counts trials. \
         \"Spread\" is what a round's test works against: the sd of the per-process log ratios (paired) or the mean stddev of the runs (processes); \"REPEAT for 90%\" is estimated from it where 90% was not reached. \
         \"Steal %\" (processes) is the share of the run's CPUs' time (CPUS) that the hypervisor took while the compared runs ran, and r its correlation with each run's figure (log, against its arm's mean): near -1, the runs it took from are the slow ones, so the spread comes from outside this machine; near 0, from elsewhere. \
         \"Stolen launches\" (STOLEN=rerun) counts the launches of the compared arms that lost over {STOLEN_LAUNCH_PCT}% of their CPUs' time to the hypervisor and ran again, over every round at the level; \"had they counted\" judges the same rounds from the runs STOLEN=count would have counted (each launch's first run, stolen or not): its detections (false alarms at 0%), mean observed change and spread, beside the recorded ones, so what the rule changed is read within one recording. \
         Every judgement is in the JSON beside this file."
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::records::fixtures;
    use crate::stats::Verdict;

    fn injected(elapsed_ns: u64, injected_ns: u64, batch_ns: Option<Vec<u64>>) -> Arm {
        let mut arm = fixtures::arm("rust", "fast", None, (1, 1), &[1.0]);
        let run = &mut arm.runs[0];
        let result = run.result.as_mut().unwrap();
        (result.elapsed_ns, result.injected_ns) = (elapsed_ns, injected_ns);
        run.batch_ns = batch_ns;
        arm
    }

    #[test]
    fn expected_change_is_in_the_statistic_the_design_estimates() {
        // Processes: 10 of 1000 ns injected, so 1% of the time.
        assert!((expected_change_pct(&injected(1000, 10, None)) + 1.0).abs() < 1e-12);
        // Paired: 200 batches with 2 ns injected each; one preempted batch of 40 us would raise
        // the mean batch to 399 ns (2 ns of it -0.5%), but clipped, as the verdict's estimate
        // counts it, the mean is 200 ns: -1%.
        let mut batches = vec![200; 200];
        batches[5] = 40_000;
        let paired = injected(200_000, 400, Some(batches));
        assert!((expected_change_pct(&paired) + 1.0).abs() < 1e-12, "{}", expected_change_pct(&paired));
        // Processes by CPU time: 10 ns injected against 2 ns/msg of CPU over 1000 messages.
        let mut cpu = injected(1000, 10, None);
        (cpu.metric, cpu.runs[0].cpu_ns_per_msg) = (Metric::Cpu, Some(2.0));
        assert!((expected_change_pct(&cpu) + 0.5).abs() < 1e-12, "{}", expected_change_pct(&cpu));
        // Nothing injected, nothing expected; warm-up runs do not count.
        assert_eq!(expected_change_pct(&injected(1000, 0, Some(vec![100; 4]))), 0.0);
        let mut warm = injected(1000, 10, None);
        warm.runs[0].warmup = true;
        assert_eq!(expected_change_pct(&warm), 0.0);
    }

    #[test]
    fn a_level_is_its_share_of_the_base_to_a_hundredth_of_a_ns() {
        assert_eq!(inject_ns(1.0, 145.0), 1.45);
        assert_eq!(inject_ns(0.5, 199.4), 1.0);
        assert_eq!(inject_ns(5.0, 289.26), 14.46);
        // A level too small to spin at all still spins the least it can.
        assert_eq!(inject_ns(0.001, 50.0), 0.01);
    }

    fn judged(twin: bool, injected_pct: f64, verdict: Verdict) -> Judged {
        judged_after(twin, injected_pct, verdict, 10)
    }

    fn judged_after(twin: bool, injected_pct: f64, verdict: Verdict, processes: usize) -> Judged {
        Judged {
            design: Design::Paired,
            metric: Metric::Wall,
            sdk: "rust".into(),
            round: 1,
            injected_pct,
            twin,
            expected_change_pct: 0.0,
            observed_change_pct: 0.0,
            round_trip_change_pct: None,
            verdict,
            spread_pct: 0.2,
            processes,
            steal: Steal::default(),
            stolen_launches: 0,
            if_counted: None,
            failed: None,
        }
    }

    #[test]
    fn a_trial_with_a_stolen_launch_is_judged_again_as_stolen_count_would_have_counted_it() {
        // One launch per order, both arms in it (as a lock-step set): the third was stolen (the
        // copy ran at a tenth of its pace then) and ran again as the fourth.
        let mut after = fixtures::arm("rust", "fast", None, (1, 1), &[90.0, 90.0, 10.0, 90.0]);
        let mut arms = [fixtures::arm("rust", "fast", None, (1, 1), &[100.0; 4]), after.clone()];
        arms.iter_mut().for_each(|a| a.runs[2].stolen = true);
        let j = judge(&arms, 0, 1, Design::Processes, "rust", 1, 0.0);
        assert_eq!(j.stolen_launches, 1);
        assert!((j.observed_change_pct + 10.0).abs() < 1e-9, "{}", j.observed_change_pct);
        let counted = j.if_counted.expect("a launch was stolen");
        assert!(counted.observed_change_pct < -20.0, "the stolen run counted: {}", counted.observed_change_pct);
        // Nothing stolen: nothing judged again.
        after.runs.pop();
        let base = fixtures::arm("rust", "fast", None, (1, 1), &[100.0; 3]);
        let j = judge(&[base, after], 0, 1, Design::Processes, "rust", 1, 0.0);
        assert_eq!((j.stolen_launches, j.if_counted.is_none()), (0, true));
    }

    #[test]
    fn a_cell_counts_its_stolen_launches_and_tallies_each_trial_as_it_would_have_been_counted() {
        use Verdict::{Noise, Slower};
        let mut rows = vec![judged(false, 1.0, Slower), judged(false, 1.0, Noise), judged(false, 1.0, Slower)];
        let cell_of = |rows: &[Judged]| cell(Design::Lockstep, Metric::Wall, "rust", 1.0, 2.0, rows, false);
        assert!(cell_of(&rows).if_counted.is_none(), "no launch stolen");
        // The second trial's stolen launch, counted, would have made it a detection; the third's
        // would have lost one. Trials with none stolen count as they were.
        (rows[1].stolen_launches, rows[1].if_counted) =
            (2, Some(IfCounted { detected: 1, observed_change_pct: -3.0, spread_pct: 0.8 }));
        (rows[2].stolen_launches, rows[2].if_counted) =
            (1, Some(IfCounted { detected: 0, observed_change_pct: 0.0, spread_pct: 1.1 }));
        let c = cell_of(&rows);
        assert_eq!((c.detected, c.stolen_launches), (2, 3));
        let counted = c.if_counted.as_ref().expect("launches were stolen");
        assert_eq!(counted.detected, 2);
        assert!((counted.observed_change_pct + 1.0).abs() < 1e-12);
        assert!((counted.spread_pct - 0.7).abs() < 1e-12);
        assert_eq!(if_counted(&c, true), "3: 2 slower, -1.000%, spread 0.70");
        assert_eq!(if_counted(&c, false), "-");
        assert_eq!(if_counted(&cell_of(&rows[..1]), true), "0");
    }

    #[test]
    fn the_a_a_row_counts_the_copies_false_alarms_and_the_twins_apart() {
        use Verdict::{Faster, Noise, Slower};
        // Three trials: the copies' verdicts (one false alarm) and their twins' own tests (two
        // alarms, which withhold nothing); a slowed level beside them.
        let rows = [
            judged(true, 0.0, Slower),
            judged(false, 0.0, Noise),
            judged(true, 0.0, Faster),
            judged(false, 0.0, Noise),
            judged(true, 0.0, Noise),
            judged(false, 0.0, Slower),
            judged(false, 1.0, Slower),
        ];
        let aa = cell(Design::Paired, Metric::Wall, "rust", 0.0, 0.0, &rows, false);
        assert_eq!((aa.rounds, aa.detected, aa.withheld, aa.twin_alarms), (3, 1, 0, Some(2)));
        let slowed = cell(Design::Paired, Metric::Wall, "rust", 1.0, 2.0, &rows, false);
        assert_eq!((slowed.rounds, slowed.detected, slowed.twin_alarms), (1, 1, None));
        assert_eq!(aa.processes_mean, None);
    }

    #[test]
    fn under_precision_a_cell_gives_the_copies_mean_processes_not_the_twins() {
        use Verdict::Noise;
        let rows = [
            judged_after(false, 0.0, Noise, 4),
            judged_after(true, 0.0, Noise, 4),
            judged_after(false, 0.0, Noise, 9),
            judged_after(true, 0.0, Noise, 9),
            judged_after(false, 1.0, Noise, 9),
        ];
        let aa = cell(Design::Lockstep, Metric::Wall, "rust", 0.0, 0.0, &rows, true);
        assert_eq!(aa.processes_mean, Some(6.5));
        let slowed = cell(Design::Lockstep, Metric::Wall, "rust", 1.0, 2.0, &rows, true);
        assert_eq!(slowed.processes_mean, Some(9.0));
    }

    #[test]
    fn targets_hold_at_repeat_10_or_under_precision_whatever_repeat_began_it() {
        use Verdict::Slower;
        let rows: Vec<Judged> = (0..20).map(|_| judged(false, 1.0, Slower)).collect();
        let found = cell(Design::Paired, Metric::Wall, "rust", 1.0, 2.0, &rows, false);
        let one = |repeat, precision| targets(std::slice::from_ref(&found), repeat, precision).remove(0);
        let at10 = one(10, None);
        assert!(at10.met && at10.target.ends_with("at REPEAT=10"), "{at10:?}");
        // Three sets alone are not the rule the target is set for...
        assert!(!one(3, None).met);
        // ...but three sets and then PRECISION is: the detection is judged under that rule.
        let precise = one(3, Some(0.2));
        assert!(precise.met && precise.target.ends_with("under PRECISION=0.2%"), "{precise:?}");
        assert!(precise.value.ends_with("at REPEAT=3, then PRECISION=0.2%"), "{precise:?}");
    }

    #[test]
    fn steal_is_read_against_each_arm_s_own_mean() {
        // Within each arm, the run the hypervisor took 4% from is the slow one; the arms differ
        // by 2x, which is not steal's doing and must not enter the correlation.
        let mut base = fixtures::arm("rust", "fast", None, (1, 2), &[100.0, 90.0, 100.0]);
        let mut slowed = fixtures::arm("rust", "fast", None, (2, 2), &[50.0, 50.0, 45.0]);
        for (arm, steal) in [(&mut base, [0.0, 4.0, 0.0]), (&mut slowed, [0.0, 0.0, 4.0])] {
            arm.runs.iter_mut().zip(steal).for_each(|(r, s)| r.steal_pct = Some(s));
        }
        let steal = Steal::of([&base, &slowed]);
        assert!((steal.steal_pct.unwrap() - 8.0 / 6.0).abs() < 1e-12, "{steal:?}");
        assert!((steal.steal_r.unwrap() + 1.0).abs() < 1e-9, "{steal:?}");
        // Without steal readings (not Linux), nothing is claimed.
        base.runs.iter_mut().chain(slowed.runs.iter_mut()).for_each(|r| r.steal_pct = None);
        assert_eq!(Steal::of([&base, &slowed]), Steal::default());
    }

    #[test]
    fn round_trips_longer_than_the_base_s_are_their_share_of_the_batch() {
        // One paired process: the slowed arm's median round trip is 30 ns longer than the base's,
        // against its mean batch of 1000 ns: -3%.
        let (mut base, mut slowed) = (injected(4000, 0, Some(vec![900; 4])), injected(4000, 40, Some(vec![1000; 4])));
        base.runs[0].result.as_mut().unwrap().rtt_p50_ns = Some(500);
        slowed.runs[0].result.as_mut().unwrap().rtt_p50_ns = Some(530);
        assert!((round_trip_change_pct(&base, &slowed).unwrap() + 3.0).abs() < 1e-12);
        // Runs of other processes are not compared, and without round trips there is no share.
        slowed.runs[0].order += 1;
        assert_eq!(round_trip_change_pct(&base, &slowed), None);
        slowed.runs[0].order -= 1;
        slowed.runs[0].result.as_mut().unwrap().rtt_p50_ns = None;
        assert_eq!(round_trip_change_pct(&base, &slowed), None);
    }
}
