//! `harness run`: every workload of a suite (or the one the flags describe), each SDK x MSG_ID
//! variant in its own process, interleaved (A B B A ...) after one discarded warm-up run each,
//! with an A/A control that calibrates the noise. Reports are rewritten after every run, marked
//! incomplete until the last one; budgets turn the results into an exit code.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::lab::Lab;
use super::model::{CONTROL_SDK, Outcome, RunRecord, SyscallCounts, Warning};
use super::overwrite;
use super::report::{self, Render, Report, Terminal};
use super::sdk;
use super::settings::{RunArgs, Settings};
use super::suite::Suite;
use super::syscalls;
use super::warnings::CpuSample;
use crate::machine::Machine;

/// Runs the whole suite; an error when a run or a budget FAILED, after the reports are written.
pub fn run(args: &RunArgs) -> anyhow::Result<()> {
    let suite = Suite::load(args)?;
    let formats = args.formats()?;
    let strace = syscalls::strace_available();
    if args.dry_run {
        print!("{}", suite.describe(strace));
        return Ok(());
    }
    let root = sdk::repo_root();
    let results_dir = args.results_dir().unwrap_or_else(|| root.join("results"));
    std::fs::create_dir_all(&results_dir).with_context(|| format!("cannot create {}", results_dir.display()))?;
    let planned: Vec<_> = suite.workloads.iter().map(|w| &w.settings).collect();
    overwrite::check(&results_dir.join(format!("{}.json", suite.name)), &planned, args.force()?)?;
    let mut used: Vec<&sdk::Sdk> = vec![sdk::find(CONTROL_SDK)?];
    for s in suite.workloads.iter().flat_map(|w| &w.sdks) {
        if !used.iter().any(|u| u.name == s.name) {
            used.push(s);
        }
    }
    for sdk in &used {
        eprintln!("building {} ...", sdk.name);
        sdk.build(&root)?;
    }
    let toolchains: Vec<(&str, &[&str])> = used.iter().map(|s| (s.name, s.version)).collect();
    let mut report = Report::new(&suite, Machine::describe(&root, &toolchains), suite.runs(strace));
    if suite.workloads.iter().any(|w| w.settings.counts) && !strace {
        report.warnings.push(Warning {
            cause: "strace is not installed, so there are no syscall or getrandom counts".into(),
            fix: "apt-get install strace, or set COUNTS=false to say they are not wanted".into(),
        });
    }
    for w in report.all_warnings() {
        eprintln!("{w}");
    }
    report::write(&report, &results_dir, &formats)?;

    let bar = ProgressBar::new(report.runs_total as u64).with_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} run {pos}/{len}, ETA {eta} {msg}").expect("valid template"),
    );
    let mut lab = Lab::new(root.clone());
    let scratch = std::env::temp_dir().join(format!("mintbench-counts-{}", std::process::id()));
    for (w, workload) in suite.workloads.iter().enumerate() {
        let cpu_before = CpuSample::take();
        let arms = report.workloads[w].arms.clone();
        for step in schedule(arms.len(), workload.settings.repeat as usize) {
            let arm = &arms[step.arm];
            let prefix = if suite.workloads.len() > 1 { format!("{}: ", workload.settings.name) } else { String::new() };
            bar.set_message(format!("{prefix}{}{}", arm.label(), if step.warmup { " (warm-up)" } else { "" }));
            let (outcome, delivered) = lab.run(&workload.settings, arm, workload.settings.size(), None);
            let line = match &outcome {
                Outcome::Ok(m) => format!("{:.0} msgs/s", m.result.msgs_per_sec),
                Outcome::Failed(reason) => format!("FAILED: {reason}"),
            };
            let k = report.runs_done + 1;
            let progress = format!("run {k}/{} {prefix}{}{}: {line}", report.runs_total, arm.label(), if step.warmup { " (warm-up, discarded)" } else { "" });
            say(&bar, progress);
            report.record(w, step.arm, RunRecord::new(k, step.warmup, outcome, delivered));
            report::write(&report, &results_dir, &formats)?;
            bar.inc(1);
        }
        let cpu_after = CpuSample::take();
        if workload.settings.counts && strace {
            std::fs::create_dir_all(&scratch).with_context(|| format!("cannot create {}", scratch.display()))?;
            for (i, arm) in arms.iter().enumerate().filter(|(_, a)| a.control.is_none()) {
                bar.set_message(format!("{} (counting syscalls under strace)", arm.label()));
                let k = report.runs_done + 1;
                let counts = lab.syscall_counts(&workload.settings, arm, &scratch);
                say(&bar, counting_line(k, report.runs_total, arm.label(), &workload.settings, &counts));
                report.record_syscalls(w, i, counts, syscalls::RUNS);
                report::write(&report, &results_dir, &formats)?;
                bar.inc(syscalls::RUNS as u64);
            }
        }
        let load = cpu_before.zip(cpu_after).and_then(|(a, b)| a.others_since(&b, &format!("workload {}", workload.settings.name)));
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
fn counting_line(k: usize, total: usize, label: String, settings: &Settings, counts: &Result<SyscallCounts, String>) -> String {
    let [short, long] = syscalls::sizes(settings.batch, settings.messages);
    let what = match counts {
        Ok(c) => format!("{:.3} syscalls/msg, {:.2} getrandom/1000 IDs", c.syscalls_per_msg, c.getrandom_per_1000_ids),
        Err(why) => format!("no counts: {why}"),
    };
    format!("runs {k}-{}/{total} {label} under strace ({} and {} messages): {what}", k + syscalls::RUNS - 1, short.messages, long.messages)
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

/// One process to start: which arm, and whether it is its discarded warm-up run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub arm: usize,
    pub warmup: bool,
}

/// One warm-up run per arm, then `repeat` rounds alternating forward and backward
/// (A B C, C B A, A B C ...) so that drift over time hits every arm alike.
pub fn schedule(arms: usize, repeat: usize) -> Vec<Step> {
    let warmups = (0..arms).map(|arm| Step { arm, warmup: true });
    let rounds = (0..repeat).flat_map(move |round| {
        (0..arms).map(move |i| Step { arm: if round % 2 == 0 { i } else { arms - 1 - i }, warmup: false })
    });
    warmups.chain(rounds).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_warms_up_each_arm_then_alternates() {
        let order: Vec<(usize, bool)> = schedule(2, 4).iter().map(|s| (s.arm, s.warmup)).collect();
        assert_eq!(
            order,
            [(0, true), (1, true), (0, false), (1, false), (1, false), (0, false), (0, false), (1, false), (1, false), (0, false)]
        );
    }

    #[test]
    fn every_arm_runs_repeat_times() {
        let order = schedule(5, 3);
        for arm in 0..5 {
            assert_eq!(order.iter().filter(|s| s.arm == arm && !s.warmup).count(), 3);
            assert_eq!(order.iter().filter(|s| s.arm == arm && s.warmup).count(), 1);
        }
    }
}
