//! `harness run`: every workload of a suite (or the one the flags describe), each SDK x MSG_ID
//! arm in its own process, interleaved (A B B A ...) after one discarded warm-up run each,
//! with an A/A control that calibrates the noise. Reports are rewritten after every run, marked
//! incomplete until the last one; budgets turn the results into an exit code.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::analysis::Analysis;
use super::design::Design;
use super::launch::Launcher;
use super::overwrite;
use super::records::{Arm, RunRecord, STOLEN_LAUNCH_PCT, SyscallCounts, Warning, launch_steal_pct, launches_in};
use super::report::{self, Render, Report, Terminal};
use super::schedule::{Step, launches, next_round, plan};
use super::sdk;
use super::settings::{RunArgs, Settings};
use super::suite::Suite;
use super::syscalls;
use super::warnings::CpuSample;
use crate::machine::Machine;
use crate::splitmix::SplitMix64;

/// Runs the whole suite; an error when a run or a budget FAILED, after the reports are written.
pub fn run(args: &RunArgs) -> anyhow::Result<()> {
    let suite = Suite::load(args)?;
    // The output settings are read before a dry run too, so it refuses what the run would.
    let (formats, results_dir, force) = (args.formats()?, args.results_dir()?, args.force()?);
    let strace = syscalls::strace_available();
    if args.dry_run {
        print!("{}", suite.describe(strace));
        return Ok(());
    }
    // A server to forward to must answer before anything is written.
    for upstream in suite.workloads.iter().filter_map(|w| w.settings.upstream.as_deref()) {
        crate::sink::upstream::resolve("UPSTREAM=", upstream)?;
    }
    let root = sdk::repo_root();
    let results_dir = results_dir.unwrap_or_else(|| root.join("results"));
    std::fs::create_dir_all(&results_dir).with_context(|| format!("cannot create {}", results_dir.display()))?;
    let planned: Vec<_> = suite.workloads.iter().map(|w| &w.settings).collect();
    let written = results_dir.join(format!("{}.json", suite.name));
    for split in planned.iter().filter_map(|s| s.split.as_deref()) {
        if Path::new(split).canonicalize().ok() == written.canonicalize().ok() {
            bail!(
                "SPLIT={split} is the report this run writes: give this run its own NAME, so the advice it follows stays"
            );
        }
    }
    overwrite::check(&written, &planned, force)?;
    let used = suite.sdk_rows();
    for sdk in &used {
        eprintln!("building {} ...", sdk.name);
        sdk.build(&root)?;
    }
    let toolchains: Vec<(&str, &[&str])> = used.iter().map(|s| (s.name, s.version)).collect();
    let mut report = Report::new(&suite, Machine::describe(&root, &toolchains), suite.runs(strace));
    if suite.workloads.iter().any(|w| w.settings.syscalls) && !strace {
        report.warnings.push(Warning {
            cause: "strace is not installed, so there are no syscall or getrandom counts".into(),
            fix: "apt-get install strace, or set SYSCALLS=false to say they are not wanted".into(),
        });
    }
    for w in report.all_warnings() {
        eprintln!("{w}");
    }
    report::write(&report, &results_dir, &formats)?;

    let bar = ProgressBar::new(report.runs_total as u64).with_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} run {pos}/{len}, ETA {eta} {msg}")
            .expect("valid template"),
    );
    let mut launcher = Launcher::new(root.clone());
    let scratch = std::env::temp_dir().join(format!("mintbench-syscalls-{}", std::process::id()));
    for (w, workload) in suite.workloads.iter().enumerate() {
        let cpu_before = CpuSample::take();
        let arms = report.workloads[w].arms.clone();
        let settings = &workload.settings;
        let started = Instant::now();
        let mut steps = plan(&arms, settings);
        let mut k = 0;
        loop {
            for (step, indexes) in std::mem::take(&mut steps) {
                let launch: Vec<&Arm> = indexes.iter().map(|&i| &arms[i]).collect();
                let prefix = if suite.workloads.len() > 1 { format!("{}: ", settings.name) } else { String::new() };
                let warmup = if step.round == 0 { " (warm-up, discarded)" } else { "" };
                bar.set_message(format!("{prefix}{}{warmup}", launch_label(&launch, settings.design)));
                let records = run_step(&mut launcher, settings, &arms, &indexes, step, report.runs_done + 1, k);
                k += 1;
                let again = launches_in(&records) - 1;
                report.runs_total += again;
                bar.inc_length(again as u64);
                for (n, ran) in records.chunk_by(|a, b| a.1.order == b.1.order).enumerate() {
                    let line = ran
                        .iter()
                        .map(|(i, r)| progress_figure(&arms[*i], r, launch.len() > 1, report::unit(settings.mode)))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let stolen = match ran[0].1.stolen {
                        true => format!(
                            " (stolen: the hypervisor took {:.1}% of its CPUs' time; runs again)",
                            launch_steal_pct(ran.iter().map(|(_, r)| r)).unwrap_or(0.0)
                        ),
                        false => String::new(),
                    };
                    say(
                        &bar,
                        format!(
                            "run {}/{} {prefix}{}{warmup}: {line}{stolen}",
                            report.runs_done + n + 1,
                            report.runs_total,
                            launch_label(&launch, settings.design)
                        ),
                    );
                }
                report.record_process(w, records);
                report::write(&report, &results_dir, &formats)?;
                bar.inc(1 + again as u64);
            }
            let rounds =
                report.workloads[w].arms.iter().flat_map(|a| a.runs.iter().map(|r| r.round)).max().unwrap_or(0);
            let analysis = report.workloads[w].analysis.as_ref().expect("analysed after every run");
            let arms_now = &report.workloads[w].arms;
            match more_rounds(analysis, arms_now, settings, started.elapsed(), rounds) {
                Ok(open) => {
                    steps = next_round(&arms, settings, rounds + 1, &open);
                    report.runs_total += steps.len();
                    bar.inc_length(steps.len() as u64);
                }
                Err(stopped) => {
                    report.workloads[w].stopped = stopped;
                    break;
                }
            }
        }
        let cpu_after = CpuSample::take();
        if workload.settings.syscalls && strace {
            std::fs::create_dir_all(&scratch).with_context(|| format!("cannot create {}", scratch.display()))?;
            for (i, arm) in arms.iter().enumerate().filter(|(_, a)| a.is_under_test()) {
                bar.set_message(format!("{} (counting syscalls under strace)", arm.label()));
                let k = report.runs_done + 1;
                let settings = workload.settings.for_launch([arm]);
                let syscalls = launcher.syscall_counts(&settings, arm, &scratch);
                say(&bar, counting_line(k, report.runs_total, arm.label(), &settings, &syscalls));
                report.record_syscalls(w, i, syscalls, syscalls::RUNS);
                report::write(&report, &results_dir, &formats)?;
                bar.inc(syscalls::RUNS as u64);
            }
        }
        let load = cpu_before
            .zip(cpu_after)
            .and_then(|(a, b)| a.others_since(&b, &format!("workload {}", workload.settings.name)));
        report.finish_workload(w, &budget_costs(&root), load);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    bar.finish_and_clear();
    report.finish();
    let written = report::write(&report, &results_dir, &formats)?;
    println!("{}", Terminal.render(&report));
    // Last on stdout, so a script can take the paths with `tail -n 1`.
    println!("wrote {}", written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "));
    outcome(&report)
}

/// A line of progress above the bar. A hidden bar (stderr not a terminal: CI, logs) drops
/// println, so it is said plainly there.
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() { eprintln!("{line}") } else { bar.println(line) }
}

/// The progress line of an arm's instrumented runs, numbered like the timed ones.
fn counting_line(
    k: usize,
    total: usize,
    label: String,
    settings: &Settings,
    counted: &Result<SyscallCounts, String>,
) -> String {
    let [short, long] = syscalls::sizes(settings.batch, settings.messages);
    let what = match counted {
        Ok(c) => format!(
            "{:.3} syscalls/{}, {:.2} getrandom/1000 IDs",
            c.syscalls_per_msg,
            report::per(settings.mode),
            c.getrandom_per_1000_ids
        ),
        Err(why) => format!("no syscall counts: {why}"),
    };
    let items = if settings.mode == crate::producer::Mode::Mint { "IDs" } else { "messages" };
    format!(
        "runs {k}-{}/{total} {label} under strace ({} and {} {items}): {what}",
        k + syscalls::RUNS - 1,
        short.messages,
        long.messages
    )
}

fn budget_costs(root: &Path) -> PathBuf {
    root.join("results").join("mint-costs.json")
}

/// The exit: an error naming what failed, so scripts and CI can gate on it.
fn outcome(report: &Report) -> anyhow::Result<()> {
    let failed_budgets = report.failed_budgets();
    let budgets = failed_budgets.iter().map(|(w, c)| format!("{w}: {} {}", c.subject, c.budget)).collect::<Vec<_>>();
    match (report.any_failed(), budgets.is_empty()) {
        (false, true) => Ok(()),
        (true, true) => bail!("at least one run FAILED; see the report"),
        (failed, false) => bail!(
            "{}{} budget(s) FAILED ({}); see the explanation above and in the report",
            if failed { "at least one run FAILED and " } else { "" },
            budgets.len(),
            budgets.join("; ")
        ),
    }
}

/// How many times a stolen launch (see [`stolen`]) runs again; the last run counts whatever it
/// lost, so a busy host slows a workload down at most this many times over and never stops it.
const STOLEN_RUNS_AGAIN: usize = 2;

/// Whether a timed launch's records are stolen: every process gave its result and the launch's
/// CPUs lost more than [`STOLEN_LAUNCH_PCT`] of their time to the hypervisor. The theft comes in
/// slices of milliseconds at moments of the host's choosing, so it lands in a few turns of one
/// arm and not the other's (docs/method.md, "The hypervisor"). Steal is the host's, not the
/// arm's, so running the launch again leaves every comparison unbiased.
fn stolen(step: Step, records: &[(usize, RunRecord)]) -> bool {
    step.round > 0
        && records.iter().all(|(_, r)| r.result.is_some())
        && launch_steal_pct(records.iter().map(|(_, r)| r)).is_some_and(|pct| pct > STOLEN_LAUNCH_PCT)
}

/// Runs one step's launch (the `k`th of the plan, its first process `order`), and with
/// STOLEN=rerun again while it is [`stolen`], at most [`STOLEN_RUNS_AGAIN`] times: the records of its arms, as (arm index,
/// record), the stolen launches' marked so and numbered in order before the one that counts.
pub fn run_step(
    launcher: &mut Launcher,
    settings: &Settings,
    arms: &[Arm],
    indexes: &[usize],
    step: Step,
    order: usize,
    k: usize,
) -> Vec<(usize, RunRecord)> {
    // Each process deals its blocks from its own seed, derived from the workload's; a launch
    // run again takes the next one.
    let mut seeds = SplitMix64::new(settings.seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let launch: Vec<&Arm> = indexes.iter().map(|&i| &arms[i]).collect();
    let settings = settings.for_launch(launch.iter().copied());
    let mut out = Vec::new();
    for again in 0..=STOLEN_RUNS_AGAIN {
        let started = Instant::now();
        let (outcomes, delivered) = launcher.run(&settings, &launch, settings.size(), seeds.next_u64(), None);
        let launch_s = started.elapsed().as_secs_f64();
        let mut records: Vec<(usize, RunRecord)> = indexes
            .iter()
            .zip(outcomes)
            .map(|(&i, outcome)| {
                let mut record = RunRecord::new(order + again, step.round, step.round == 0, outcome, delivered.clone());
                record.launch_s = Some(launch_s);
                (i, record)
            })
            .collect();
        let run_again = settings.rerun_stolen && again < STOLEN_RUNS_AGAIN && stolen(step, &records);
        if run_again {
            records.iter_mut().for_each(|(_, r)| r.stolen = true);
        }
        out.extend(records);
        if !run_again {
            break;
        }
    }
    out
}

fn launch_label(launch: &[&Arm], design: Design) -> String {
    match launch {
        [one] => one.label(),
        _ => format!(
            "{} {} ({})",
            launch[0].sdk,
            launch.iter().map(|a| a.short_label()).collect::<Vec<_>>().join(" + "),
            if design == Design::Lockstep { "lock-step set" } else { "paired" }
        ),
    }
}

/// Rounds with PRECISION and BUDGET never go past this: nothing runs for ever.
pub const MAX_ROUNDS: usize = 1000;

/// Whether more rounds should run after the `rounds` (REPEAT at least) that took `elapsed`: the
/// launches (indexes into `schedule::launches`) the next round runs, or why the workload's rounds
/// stop (None when neither PRECISION nor BUDGET was given). With PRECISION, a launch runs again
/// while one of its comparisons' 95% CI half-width is above it, so the time goes to the rows
/// still wide (where the variance lives), and the rounds stop when none is; with BUDGET, while
/// the next round (each of its launches at the mean time it took) fits. The rule stops on the
/// width of each interval, never on its verdict, so an A/A comparison is not stopped when it
/// happens to look significant.
pub fn more_rounds(
    analysis: &Analysis,
    arms: &[Arm],
    settings: &Settings,
    elapsed: Duration,
    rounds: usize,
) -> Result<Vec<usize>, Option<String>> {
    if settings.precision_pct.is_none() && settings.budget_s.is_none() {
        return Err(None);
    }
    let launches = launches(arms, settings.design);
    let said = |why: String| Some(format!("{why}{}", rounds_per_launch(arms, &launches)));
    if analysis.arms.iter().any(|a| a.failure.is_some()) {
        return Err(said(format!("stopped after {rounds} rounds: a run FAILED")));
    }
    let widths: Vec<(usize, usize, f64)> =
        analysis.half_widths().map(|(c, h)| (c.before_arm, c.after_arm, h)).collect();
    let widest = widths.iter().map(|w| w.2).fold(None, |w: Option<f64>, h| Some(w.map_or(h, |w| w.max(h))));
    let open = open_launches(&launches, &widths, settings.precision_pct);
    if let (Some(p), Some(widest)) = (settings.precision_pct, widest)
        && open.is_empty()
    {
        return Err(said(format!(
            "PRECISION met after {rounds} rounds: every comparison's 95% CI half-width is at most {p}% (the widest {widest:.2}%)"
        )));
    }
    let what = |why: &str| match (settings.precision_pct, widest) {
        (Some(p), Some(w)) => {
            said(format!("{why} after {rounds} rounds, before PRECISION={p}% was met (the widest half-width {w:.2}%)"))
        }
        (Some(p), None) => said(format!("{why} after {rounds} rounds with no comparison to measure PRECISION={p}% on")),
        (None, _) => said(format!("{why} after {rounds} rounds")),
    };
    if settings.precision_pct.is_some() && widest.is_none() {
        return Err(what("stopped"));
    }
    if let Some(budget) = settings.budget_s {
        let next_s: f64 = open.iter().map(|&l| mean_launch_s(&arms[launches[l][0]])).sum();
        if elapsed.as_secs_f64() + next_s > budget as f64 {
            return Err(what(&format!("BUDGET={} ran out", humantime::format_duration(Duration::from_secs(budget)))));
        }
    }
    if rounds >= MAX_ROUNDS {
        return Err(what(&format!("stopped at the {MAX_ROUNDS}-round limit")));
    }
    Ok(open)
}

/// The launches (indexes into `launches`) that run again under PRECISION=`precision`: each with a
/// comparison (`widths`: before arm, after arm, half-width) touching its arms that is wider than
/// asked; a launch no comparison touches (the control's) rides along while any such is open.
/// Without PRECISION, all of them.
fn open_launches(launches: &[Vec<usize>], widths: &[(usize, usize, f64)], precision: Option<f64>) -> Vec<usize> {
    let Some(p) = precision else { return (0..launches.len()).collect() };
    let touches = |launch: &Vec<usize>, w: &(usize, usize, f64)| launch.contains(&w.0) || launch.contains(&w.1);
    let judged = |launch: &Vec<usize>| widths.iter().any(|w| touches(launch, w));
    let wide = |launch: &Vec<usize>| widths.iter().any(|w| touches(launch, w) && (w.2.is_nan() || w.2 > p));
    if !launches.iter().any(wide) {
        return Vec::new();
    }
    (0..launches.len()).filter(|&l| wide(&launches[l]) || !judged(&launches[l])).collect()
}

/// The mean wall time of the launches `arm` took part in, its warm-up included.
fn mean_launch_s(arm: &Arm) -> f64 {
    let times: Vec<f64> = arm.runs.iter().filter_map(|r| r.launch_s).collect();
    times.iter().sum::<f64>() / times.len().max(1) as f64
}

/// Where PRECISION stopped launches at different rounds, how many each ran: ` (rounds per
/// launch: rust 5, node 27, ...)`; empty where they all ran alike.
fn rounds_per_launch(arms: &[Arm], launches: &[Vec<usize>]) -> String {
    let ran: Vec<(String, usize)> = launches
        .iter()
        .map(|l| {
            let first = &arms[l[0]];
            let name = match (l.len(), first.control) {
                (1, _) => first.label(),
                (_, Some(_)) => "control".to_owned(),
                _ => first.sdk.clone(),
            };
            (name, first.runs.iter().map(|r| r.round).max().unwrap_or(0))
        })
        .collect();
    if ran.iter().all(|(_, r)| *r == ran[0].1) {
        return String::new();
    }
    let each = ran.iter().map(|(name, r)| format!("{name} {r}")).collect::<Vec<_>>().join(", ");
    format!(" (rounds per launch: {each})")
}

fn progress_figure(arm: &Arm, record: &RunRecord, named: bool, unit: &str) -> String {
    let name = if named { format!("{} ", arm.short_label()) } else { String::new() };
    match (&record.result, &record.failed) {
        (Some(r), _) => format!("{name}{:.0} {unit}", r.msgs_per_sec),
        (None, Some(why)) => format!("FAILED: {why}"),
        (None, None) => format!("{name}-"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::records::fixtures::paired;

    /// Two paired rows: rust's fast 5% under its uuid with next to no spread, go's scattered.
    fn two_rows(rust_processes: usize) -> Vec<Arm> {
        let rust = &[95_000, 95_010, 94_990, 95_005, 94_995][..rust_processes];
        let go = [90_000, 100_000, 95_000, 85_000, 105_000];
        let row = |sdk: &str, fast: &[u64], launch_s: f64| {
            let mut arms = [paired("uuid", &vec![100_000; fast.len()], |b| b), paired("fast", fast, |b| b)];
            for arm in &mut arms {
                arm.sdk = sdk.into();
                arm.runs.iter_mut().for_each(|r| r.launch_s = Some(launch_s));
            }
            arms
        };
        row("rust", rust, 2.0).into_iter().chain(row("go", &go, 4.0)).collect()
    }

    fn settings(precision_pct: Option<f64>, budget_s: Option<u64>) -> Settings {
        let base = crate::runner::settings::Layer::default().resolve(Some("w")).unwrap().0;
        Settings { design: Design::Paired, precision_pct, budget_s, ..base }
    }

    #[test]
    fn under_precision_only_the_rows_still_wide_run_again_and_the_budget_counts_theirs() {
        let arms = two_rows(5);
        let analysis = Analysis::of(&arms, &[(0, 1), (2, 3)]);
        let at = |elapsed: u64, s: &Settings| more_rounds(&analysis, &arms, s, Duration::from_secs(elapsed), 5);
        // Rust's interval is narrow, go's is not: only go's processes run again...
        assert_eq!(at(0, &settings(Some(1.0), None)), Ok(vec![1]));
        // ...and the budget is judged by their time alone: 5 s + 4 s fits in 10 s (both rows, 6 s,
        // would not), 7 s + 4 s does not.
        assert_eq!(at(5, &settings(Some(1.0), Some(10))), Ok(vec![1]));
        let out = at(7, &settings(Some(1.0), Some(10))).unwrap_err().unwrap();
        assert!(out.starts_with("BUDGET=10s ran out after 5 rounds, before PRECISION=1% was met"), "{out}");
        // BUDGET alone runs every row.
        assert_eq!(at(0, &settings(None, Some(100))), Ok(vec![0, 1]));
        assert_eq!(at(0, &settings(None, None)), Err(None));
    }

    #[test]
    fn where_rows_stopped_at_different_rounds_the_stop_says_how_many_each_ran() {
        let arms = two_rows(3);
        let analysis = Analysis::of(&arms, &[(0, 1), (2, 3)]);
        let out = more_rounds(&analysis, &arms, &settings(Some(50.0), None), Duration::ZERO, 5).unwrap_err().unwrap();
        assert!(out.starts_with("PRECISION met after 5 rounds: every comparison's"), "{out}");
        assert!(out.ends_with(" (rounds per launch: rust 3, go 5)"), "{out}");
        let alike = two_rows(5);
        let analysis = Analysis::of(&alike, &[(0, 1), (2, 3)]);
        let out = more_rounds(&analysis, &alike, &settings(Some(50.0), None), Duration::ZERO, 5).unwrap_err().unwrap();
        assert!(out.ends_with("(the widest") || out.ends_with("%)"), "{out}");
        assert!(!out.contains("per launch"), "{out}");
    }

    #[test]
    fn a_launch_runs_again_while_a_comparison_touching_it_is_wide_and_the_control_rides_along() {
        // Lock-step: the control's set, then two rows' sets (base, twin, arm).
        let launches = [vec![0, 1], vec![2, 3, 4], vec![5, 6, 7]];
        let widths = [(2, 3, 0.4), (2, 4, 0.8), (5, 6, 2.0), (5, 7, 0.3)];
        assert_eq!(open_launches(&launches, &widths, Some(1.0)), [0, 2], "the second row's twin is wide");
        assert_eq!(open_launches(&launches, &widths, Some(2.0)), Vec::<usize>::new(), "all met");
        assert_eq!(open_launches(&launches, &widths, None), [0, 1, 2]);
        // A comparison without an interval is as wide as can be.
        assert_eq!(open_launches(&launches, &[(2, 4, f64::INFINITY), (5, 6, 0.3)], Some(50.0)), [0, 1]);
        // One process per arm: a base arm runs while any comparison with it is wide.
        let alone = [vec![0], vec![1], vec![2]];
        assert_eq!(open_launches(&alone, &[(0, 1, 0.5), (0, 2, 3.0)], Some(1.0)), [0, 2]);
    }

    #[test]
    fn a_timed_launch_whose_cpus_lost_over_5_pct_to_the_hypervisor_is_stolen_and_no_other() {
        let launch = |steal: [Option<f64>; 2]| -> Vec<(usize, RunRecord)> {
            let arm = paired("uuid", &[100_000, 100_000], |b| b);
            arm.runs
                .into_iter()
                .zip(steal)
                .enumerate()
                .map(|(i, (mut r, s))| {
                    (i, {
                        r.steal_pct = s;
                        r
                    })
                })
                .collect()
        };
        let timed = Step { launch: 0, round: 1 };
        assert!(stolen(timed, &launch([Some(5.5), Some(0.1)])), "any process of the launch over 5%");
        assert!(!stolen(timed, &launch([Some(5.0), Some(5.0)])), "5% is not over 5%");
        assert!(!stolen(timed, &launch([None, None])), "not measured");
        assert!(!stolen(Step { launch: 0, round: 0 }, &launch([Some(9.0), None])), "the warm-up is discarded anyway");
        let mut failed = launch([Some(9.0), Some(9.0)]);
        failed[1].1.result = None;
        assert!(!stolen(timed, &failed), "a launch that FAILED is reported, never run again");
    }
}
