//! `harness calibrate`: what this machine can and cannot detect. It measures the Rust control
//! arm's time per message, then runs ROUNDS rounds, each an interleaved run with the A/A
//! control and five arms of the same producer: a base, an identical copy (A/A) and copies slowed
//! by k% (a calibrated busy-wait of k% of the base's time per message, INJECT_NS). Each copy is
//! judged against the base by the same verdict rule as `harness run`. A verdict on the A/A copy
//! is a false alarm; `slower` on a k% copy is a detection.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, bail};
use serde::Serialize;

use super::analysis::Analysis;
use super::format::thousands;
use super::lab::Lab;
use super::model::{Arm, CONTROL_MSG_ID, CONTROL_SDK, Outcome, RunRecord};
use super::report::atomic_write;
use super::run::schedule;
use super::sdk;
use super::settings::{self, Flags, Layer, SETTINGS, Selection, Setting, Settings, Source, check_file_name};
use crate::machine::Machine;
use crate::stats::{ALPHA, Summary, Verdict, runs_for};

#[derive(clap::Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// Rounds to run, each one interleaved suite of every arm; the false-alarm and detection
    /// rates are out of this many [default: 20].
    #[arg(long, value_name = "N", conflicts_with = "suites")]
    pub rounds: Option<u32>,
    /// The former name of --rounds.
    #[arg(long, value_name = "N", hide = true)]
    pub suites: Option<u32>,
    /// Injected slowdowns, % of the base arm's time per message, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "2,5,10")]
    pub slowdowns: Vec<f64>,
    #[command(flatten)]
    pub flags: Flags<Calibrate>,
    /// Write <DIR>/<NAME>.md and .json [default: print only, unless NAME is given: results/].
    #[arg(long = "results-dir", visible_alias = "report", env = "RESULTS_DIR", value_name = "DIR")]
    pub results_dir: Option<PathBuf>,
    /// Report name [default: calibration].
    #[arg(long, env = "NAME")]
    pub name: Option<String>,
}

/// The settings `harness calibrate` takes: the run's size and bounds. The arms are its own.
#[derive(Clone, Debug)]
pub struct Calibrate;

impl Selection for Calibrate {
    fn includes(s: &Setting) -> bool {
        [&settings::REPEAT, &settings::BITS, &settings::PACK, &settings::BATCH, &settings::MESSAGES, &settings::WARMUP, &settings::TIMEOUT]
            .iter()
            .any(|own| own.env == s.env)
    }
}

const DEFAULT_ROUNDS: u32 = 20;

impl CalibrateArgs {
    /// The rounds asked for, and the flag that asked (for its error).
    fn rounds(&self) -> (u32, &'static str) {
        match (self.rounds, self.suites) {
            (_, Some(n)) => (n, "--suites"),
            (n, None) => (n.unwrap_or(DEFAULT_ROUNDS), "--rounds"),
        }
    }
}

/// Runs used to measure the base arm's time per message, after one warm-up run.
const BASE_RUNS: usize = 5;
/// Detection rate the calibration reports a REPEAT for.
const TARGET_POWER: f64 = 0.9;
/// The targets recorded with the results (issue: measured sensitivity).
const MAX_FALSE_ALARMS: f64 = 0.05;
const TARGET_SLOWDOWN_PCT: f64 = 5.0;

#[derive(Serialize)]
struct Calibration {
    name: String,
    command: String,
    machine: Machine,
    started: String,
    finished: String,
    settings: Settings,
    /// Rounds run (the JSON keeps its first name).
    #[serde(rename = "suites")]
    rounds: u32,
    base_msgs_per_sec: f64,
    base_ns_per_msg: f64,
    levels: Vec<Level>,
    control_unstable_suites: u32,
    failed_suites: u32,
    targets: Vec<Target>,
    runs: Vec<SuiteRecord>,
}

/// One injected slowdown (0 for the A/A copy) over every suite.
#[derive(Serialize)]
struct Level {
    slowdown_pct: f64,
    inject_ns: u64,
    /// Expected change in msgs/s if the busy-wait costs exactly inject_ns: -k/(100+k) %.
    expected_change_pct: f64,
    mean_change_pct: f64,
    /// Verdicts `faster` or `slower` out of the suites judged.
    verdicts: u32,
    slower: u32,
    withheld: u32,
    judged: u32,
    rate: f64,
    /// Mean over suites of the two arms' stddev %, for the REPEAT estimate.
    mean_stddev_pct: f64,
    /// REPEAT at which TARGET_POWER of suites would detect the expected change, given the
    /// observed spread.
    repeat_for_90pct: Option<u32>,
}

#[derive(Serialize)]
struct Target {
    target: String,
    value: String,
    met: bool,
}

#[derive(Serialize)]
struct SuiteRecord {
    suite: u32,
    control_unstable: bool,
    /// Per level: (slowdown %, change %, verdict).
    comparisons: Vec<(f64, f64, Verdict)>,
    /// Every arm's timed samples, msgs/s.
    samples: Vec<(String, Vec<f64>)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failed: Option<String>,
}

pub fn calibrate(args: &CalibrateArgs) -> anyhow::Result<()> {
    let (rounds, rounds_flag) = args.rounds();
    if rounds == 0 {
        bail!("{rounds_flag} 0 is out of range: it must be at least 1");
    }
    if let Some(k) = args.slowdowns.iter().find(|k| !(k.is_finite() && **k > 0.0 && **k <= 1000.0)) {
        bail!("--slowdowns {k} is out of range: each must be above 0 and at most 1000 (%)");
    }
    let name = args.name.clone().unwrap_or_else(|| "calibration".into());
    check_file_name("NAME", &name)?;
    let arms = Layer::default()
        .with(&settings::SDK, CONTROL_SDK, Source::Flag)
        .with(&settings::MSG_ID, CONTROL_MSG_ID, Source::Flag)
        .with(&settings::COUNTS, "false", Source::Flag);
    let (settings, _) = arms.over(&args.flags.layer).resolve(Some(&name))?;
    let root = sdk::repo_root();
    let out_dir = match (&args.results_dir, &args.name) {
        (Some(dir), _) => Some(dir.clone()),
        (None, Some(_)) => Some(root.join("results")),
        (None, None) => None,
    };
    if let Some(dir) = &out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let started = now();
    let mut lab = Lab::new(root.clone());

    // The base arm's time per message sets each k% in nanoseconds.
    let base = Arm::new(CONTROL_SDK, CONTROL_MSG_ID, None);
    let mut base_samples = Vec::new();
    for i in 0..=BASE_RUNS {
        match lab.run(&settings, &[&base], settings.size(), 0, None).0.remove(0) {
            Outcome::Ok(m) if i > 0 => base_samples.push(m.result.msgs_per_sec),
            Outcome::Ok(_) => {}
            Outcome::Failed(why) => bail!("measuring the base arm failed: {why}"),
        }
    }
    base_samples.sort_by(f64::total_cmp);
    let base_msgs_per_sec = base_samples[base_samples.len() / 2];
    let base_ns_per_msg = 1e9 / base_msgs_per_sec;
    let mut levels: Vec<f64> = vec![0.0];
    levels.extend(&args.slowdowns);
    let injects: Vec<u64> = levels.iter().map(|k| if *k == 0.0 { 0 } else { ((k / 100.0 * base_ns_per_msg).round() as u64).max(1) }).collect();
    eprintln!(
        "calibrate: base {base_msgs_per_sec:.0} msgs/s = {base_ns_per_msg:.1} ns/msg; injecting {} ns/msg",
        injects.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
    );

    let mut records = Vec::new();
    for suite in 1..=rounds {
        let mut arms = vec![Arm::control('A'), Arm::control('B'), base.clone()];
        for &ns in &injects {
            let mut arm = base.clone();
            arm.inject_ns = ns;
            arms.push(arm);
        }
        let pairs: Vec<(usize, usize)> = (3..arms.len()).map(|i| (2, i)).collect();
        let steps = schedule(arms.len(), settings.repeat as usize, settings.seed ^ suite as u64);
        for (k, step) in steps.iter().enumerate() {
            let (mut outcomes, delivered) = lab.run(&settings, &[&arms[step.unit]], settings.size(), 0, None);
            arms[step.unit].runs.push(RunRecord::new(k + 1, step.round, step.round == 0, outcomes.remove(0), delivered));
        }
        let analysis = Analysis::of(&arms, &pairs);
        let failed = arms.iter().find_map(|a| a.failure().map(|why| format!("{}: {why}", a.label())));
        let comparisons: Vec<(f64, f64, Verdict)> =
            analysis.comparisons.iter().zip(&levels).map(|(c, k)| (*k, c.comparison.change_pct, c.comparison.verdict)).collect();
        eprintln!(
            "calibrate: round {suite}/{rounds}: {}{}",
            comparisons.iter().map(|(k, change, v)| format!("+{k}%: {change:+.1}% {}", v.label())).collect::<Vec<_>>().join(", "),
            failed.as_ref().map_or(String::new(), |f| format!(" FAILED {f}"))
        );
        records.push(SuiteRecord {
            suite,
            control_unstable: analysis.control_unstable,
            comparisons,
            samples: arms.iter().map(|a| (a.label(), a.samples())).collect(),
            failed,
        });
    }

    let levels: Vec<Level> = levels.iter().zip(&injects).enumerate().map(|(i, (&k, &ns))| level(i, k, ns, &records)).collect();
    let targets = targets(&levels, &settings, rounds);
    let calibration = Calibration {
        command: command(args, &settings, rounds),
        name,
        machine: Machine::describe(&root, &[("rust", &["rustc", "--version"])]),
        started,
        finished: now(),
        settings,
        rounds,
        base_msgs_per_sec,
        base_ns_per_msg,
        control_unstable_suites: records.iter().filter(|r| r.control_unstable).count() as u32,
        failed_suites: records.iter().filter(|r| r.failed.is_some()).count() as u32,
        levels,
        targets,
        runs: records,
    };
    let md = markdown(&calibration);
    println!("{md}");
    if let Some(dir) = out_dir {
        let (json, mdp) = (dir.join(format!("{}.json", calibration.name)), dir.join(format!("{}.md", calibration.name)));
        atomic_write(&json, &(serde_json::to_string_pretty(&calibration)? + "\n"))?;
        atomic_write(&mdp, &md)?;
        eprintln!("wrote {} and {}", json.display(), mdp.display());
    }
    if calibration.failed_suites > 0 {
        bail!("{} suite(s) had a FAILED run; see the JSON", calibration.failed_suites);
    }
    Ok(())
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn level(index: usize, k: f64, inject_ns: u64, records: &[SuiteRecord]) -> Level {
    let judged: Vec<&(f64, f64, Verdict)> = records.iter().filter(|r| r.failed.is_none()).filter_map(|r| r.comparisons.get(index)).collect();
    let count = |f: &dyn Fn(Verdict) -> bool| judged.iter().filter(|(_, _, v)| f(*v)).count() as u32;
    let verdicts = count(&|v| matches!(v, Verdict::Faster | Verdict::Slower));
    let slower = count(&|v| v == Verdict::Slower);
    let n = judged.len().max(1) as f64;
    let mean_change_pct = judged.iter().map(|(_, c, _)| c).sum::<f64>() / n;
    // Spread of the base (arm 2) and this level's arm (3 + index), as % of their means.
    let sd_pct = |arm: usize| {
        let sds: Vec<f64> = records
            .iter()
            .filter(|r| r.failed.is_none())
            .filter_map(|r| r.samples.get(arm))
            .filter_map(|(_, s)| Summary::of(s).map(|s| s.stddev_pct))
            .collect();
        sds.iter().sum::<f64>() / sds.len().max(1) as f64
    };
    let (sd_base, sd_level) = (sd_pct(2), sd_pct(3 + index));
    let rate = f64::from(if k == 0.0 { verdicts } else { slower }) / n;
    let expected_change_pct = if k == 0.0 { 0.0 } else { -100.0 * k / (100.0 + k) };
    Level {
        slowdown_pct: k,
        inject_ns,
        expected_change_pct,
        mean_change_pct,
        verdicts,
        slower,
        withheld: count(&|v| v == Verdict::Withheld),
        judged: judged.len() as u32,
        rate,
        mean_stddev_pct: (sd_base + sd_level) / 2.0,
        // From the injected change, not the observed one, whose sign noise can flip.
        repeat_for_90pct: if k > 0.0 && rate < TARGET_POWER { runs_for(expected_change_pct, sd_base, sd_level, TARGET_POWER) } else { None },
    }
}

fn targets(levels: &[Level], settings: &Settings, rounds: u32) -> Vec<Target> {
    let repeat = settings.repeat;
    let mut out = Vec::new();
    if let Some(aa) = levels.first() {
        out.push(Target {
            target: format!("A/A false alarms <= {:.0}% over at least 20 suites at REPEAT=10", MAX_FALSE_ALARMS * 100.0),
            value: format!("{} of {} ({:.0}%) at REPEAT={repeat}, {rounds} suites", aa.verdicts, aa.judged, aa.rate * 100.0),
            met: aa.rate <= MAX_FALSE_ALARMS && aa.judged >= 20 && repeat == 10,
        });
    }
    if let Some(l) = levels.iter().find(|l| l.slowdown_pct == TARGET_SLOWDOWN_PCT) {
        out.push(Target {
            target: format!("a {TARGET_SLOWDOWN_PCT}% injected slowdown detected in >= {:.0}% of suites at REPEAT=10", TARGET_POWER * 100.0),
            value: format!(
                "{} of {} ({:.0}%) at REPEAT={repeat}{}",
                l.slower,
                l.judged,
                l.rate * 100.0,
                l.repeat_for_90pct.map_or(String::new(), |n| format!("; REPEAT={n} would reach {:.0}% (estimate)", TARGET_POWER * 100.0))
            ),
            met: l.rate >= TARGET_POWER && repeat == 10,
        });
    }
    out
}

/// The command that reproduces this calibration: every resolved setting it takes, as a flag.
fn command(args: &CalibrateArgs, settings: &Settings, rounds: u32) -> String {
    let slowdowns = args.slowdowns.iter().map(f64::to_string).collect::<Vec<_>>().join(",");
    let mut c = format!("cargo run --release -p harness -- calibrate --rounds {rounds} --slowdowns {slowdowns}");
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
        "- Settings: the Rust producer, MSG_ID={} REPEAT={} BITS={} PACK={} BATCH={} MESSAGES={} WARMUP={}; {} suites, each one interleaved run of the A/A control, a base arm, an identical copy and one copy per slowdown.",
        CONTROL_MSG_ID, s.repeat, s.bits, s.pack, s.batch, s.messages, s.warmup, c.rounds
    );
    let _ = writeln!(
        out,
        "- Base arm: {} msgs/s, {:.1} ns per message (median of {BASE_RUNS} runs); a k% slowdown adds a calibrated busy-wait of k% of that per message inside the timed window, which lowers msgs/s by k/(100+k) %.\n",
        thousands(c.base_msgs_per_sec),
        c.base_ns_per_msg
    );
    let _ = writeln!(out, "| injected | busy-wait, ns/msg | expected change | mean observed change | mean stddev % | verdicts | rate | withheld | REPEAT for 90% |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    for l in &c.levels {
        let (what, verdicts) = if l.slowdown_pct == 0.0 {
            ("0% (A/A copy)".to_owned(), format!("{} false alarms of {}", l.verdicts, l.judged))
        } else {
            (format!("{}%", l.slowdown_pct), format!("{} detected (slower) of {}", l.slower, l.judged))
        };
        let _ = writeln!(
            out,
            "| {what} | {} | {:+.2}% | {:+.2}% | {:.2} | {verdicts} | {:.0}% | {} | {} |",
            l.inject_ns,
            l.expected_change_pct,
            l.mean_change_pct,
            l.mean_stddev_pct,
            l.rate * 100.0,
            l.withheld,
            match (l.slowdown_pct == 0.0, l.repeat_for_90pct) {
                (true, _) => "-".to_owned(),
                (false, Some(n)) => n.to_string(),
                (false, None) => format!("reached at {}", s.repeat),
            }
        );
    }
    let _ = writeln!(out, "\nThe A/A control itself was unstable (verdicts withheld) in {} of {} suites; {} suite(s) had a failed run.\n", c.control_unstable_suites, c.rounds, c.failed_suites);
    let _ = writeln!(out, "| target | value | met |\n|---|---|---|");
    for t in &c.targets {
        let _ = writeln!(out, "| {} | {} | {} |", t.target, t.value, if t.met { "yes" } else { "no" });
    }
    let _ = writeln!(
        out,
        "\nHow to read this: each suite judges every copy against the base with `harness run`'s rule (Welch p < {ALPHA} and a change beyond the A/A control's noise). A verdict on the identical copy is a false alarm; `slower` on a slowed copy is a detection. \"REPEAT for 90%\" is estimated where 90% was not reached: the REPEAT at which a two-sided test at {ALPHA} detects the injected change with 90% power given the mean observed spread (t-test power, as for \"runs needed\" in `harness run`). Every suite's samples and verdicts are in the JSON beside this file."
    );
    out
}
