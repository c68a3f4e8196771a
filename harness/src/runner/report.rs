//! The report of one `harness run`: every raw sample in JSON, the tables in Markdown, the
//! charts in HTML. All are rewritten atomically after each run and say how many runs they hold
//! until the last one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::analysis::{Analysis, ArmAnalysis, baseline_pairs};
use super::arm::{Arm, RunRecord};
use super::budget::{Check, Expect};
use super::counts::Counts;
use super::html;
use super::machine::Machine;
use super::settings::{Format, Resolved, mode_name};
use super::suite::Suite;
use super::warnings::{self, Warning};
use crate::producer::Mode;

#[derive(Serialize)]
pub struct Report {
    pub name: String,
    /// False until the last run is recorded: an incomplete report is not a result.
    pub complete: bool,
    pub runs_done: usize,
    pub runs_total: usize,
    pub command: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub machine: Machine,
    pub started: String,
    pub finished: Option<String>,
    /// About the machine while the runs ran.
    pub warnings: Vec<Warning>,
    pub workloads: Vec<WorkloadReport>,
}

#[derive(Serialize)]
pub struct WorkloadReport {
    pub name: String,
    /// Reproduces this workload on its own.
    pub command: String,
    pub settings: Resolved,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
    pub analysis: Option<Analysis>,
    /// Judged once the workload's runs are done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budgets: Option<Vec<Check>>,
    pub warnings: Vec<Warning>,
    pub arms: Vec<Arm>,
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

impl WorkloadReport {
    fn analyse(&mut self) {
        self.analysis = Some(Analysis::of(&self.arms, &baseline_pairs(&self.arms)));
    }

    pub fn unit(&self) -> &'static str {
        match self.settings.mode {
            Mode::Producer => "msgs/s",
            Mode::Mint => "IDs/s",
        }
    }

    pub fn failed_budgets(&self) -> impl Iterator<Item = &Check> {
        self.budgets.iter().flatten().filter(|c| !c.passed)
    }
}

impl Report {
    pub fn new(suite: &Suite, machine: Machine, runs_total: usize) -> Report {
        let workloads = suite
            .workloads
            .iter()
            .map(|w| WorkloadReport {
                name: w.settings.name.clone(),
                command: w.settings.command(),
                settings: w.settings.clone(),
                expect: w.expect.clone(),
                analysis: None,
                budgets: None,
                warnings: warnings::settings(&w.settings),
                arms: w.arms(),
            })
            .collect();
        Report {
            name: suite.name.clone(),
            complete: false,
            runs_done: 0,
            runs_total,
            command: suite.command(),
            description: suite.description.clone(),
            machine,
            started: now(),
            finished: None,
            warnings: suite.intent_warnings().into_iter().chain(warnings::governor()).collect(),
            workloads,
        }
    }

    pub fn record(&mut self, workload: usize, arm: usize, run: RunRecord) {
        let w = &mut self.workloads[workload];
        w.arms[arm].runs.push(run);
        self.runs_done += 1;
        w.analyse();
    }

    /// The instrumented runs of an arm are done: its counts, or why there are none.
    pub fn record_counts(&mut self, workload: usize, arm: usize, counts: Result<Counts, String>, runs: usize) {
        let w = &mut self.workloads[workload];
        match counts {
            Ok(c) => w.arms[arm].counts = Some(c),
            Err(why) => w.warnings.push(Warning { cause: why, fix: "see the error above; the throughput results do not depend on these runs".into() }),
        }
        self.runs_done += runs;
        w.analyse();
    }

    /// The workload's runs are done: its budgets and the warnings its results carry.
    pub fn finish_workload(&mut self, workload: usize, mint_costs: &Path, machine_warning: Option<Warning>) {
        let w = &mut self.workloads[workload];
        w.analyse();
        let analysis = w.analysis.as_ref().expect("analysed");
        w.warnings.extend(warnings::results(&w.settings, &w.arms, analysis));
        w.warnings.extend(machine_warning);
        w.budgets = w.expect.as_ref().map(|e| e.judge(&w.settings, &w.arms, analysis, mint_costs));
    }

    pub fn finish(&mut self) {
        self.complete = self.runs_done == self.runs_total;
        self.finished = Some(now());
    }

    pub fn any_failed(&self) -> bool {
        self.workloads.iter().any(|w| w.arms.iter().any(|a| a.failure().is_some()))
    }

    pub fn failed_budgets(&self) -> Vec<(&str, &Check)> {
        self.workloads.iter().flat_map(|w| w.failed_budgets().map(move |c| (w.name.as_str(), c))).collect()
    }

    /// Writes each format through a temporary name and a rename, so a reader never sees half.
    pub fn write(&self, dir: &Path, formats: &[Format]) -> anyhow::Result<Vec<PathBuf>> {
        formats
            .iter()
            .map(|format| {
                let (ext, text) = match format {
                    Format::Json => ("json", serde_json::to_string_pretty(self)? + "\n"),
                    Format::Md => ("md", self.markdown()),
                    Format::Html => ("html", html::render(self)),
                };
                let path = dir.join(format!("{}.{ext}", self.name));
                atomic_write(&path, &text)?;
                Ok(path)
            })
            .collect()
    }

    /// The tables, budgets and warnings, for the terminal.
    pub fn terminal_table(&self) -> String {
        let mut out = String::new();
        for w in &self.workloads {
            if self.workloads.len() > 1 {
                let _ = writeln!(out, "\n== {}", w.name);
            }
            tables(w, &mut out);
            budgets(w, &mut out);
        }
        for warning in self.all_warnings() {
            let _ = writeln!(out, "\n{warning}");
        }
        out
    }

    pub fn all_warnings(&self) -> impl Iterator<Item = &Warning> {
        self.warnings.iter().chain(self.workloads.iter().flat_map(|w| &w.warnings))
    }

    pub fn status_line(&self) -> String {
        if self.complete {
            format!("Complete: {} of {} runs.", self.runs_done, self.runs_total)
        } else {
            format!(
                "INCOMPLETE: {} of {} runs recorded. This is not a result: the run is in progress or was interrupted.",
                self.runs_done, self.runs_total
            )
        }
    }

    fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", self.name);
        let status = self.status_line();
        let _ = writeln!(out, "{}\n", if self.complete { status } else { format!("**{status}**") });
        if let Some(d) = &self.description {
            let _ = writeln!(out, "{d}\n");
        }
        let m = &self.machine;
        let _ = writeln!(out, "- Command: `{}`", self.command);
        let _ = writeln!(out, "- Started {}, finished {}", self.started, self.finished.as_deref().unwrap_or("-"));
        let _ = writeln!(out, "- Machine: {} ({} cores), Linux {}, revision {}", m.cpu_model, m.cores, m.kernel, m.git_revision);
        let _ = writeln!(out, "- Toolchains: {}", m.toolchains.join("; "));
        for w in &self.workloads {
            let s = &w.settings;
            let _ = writeln!(out, "\n## {}\n", w.name);
            let _ = writeln!(
                out,
                "- Settings: MODE={} REPEAT={} BITS={} PACK={} BATCH={} MESSAGES={} WARMUP={} (payload {} B/message); every variant ran REPEAT times in its own process, interleaved, after one discarded warm-up run.",
                mode_name(s.mode), s.repeat, s.bits, s.pack, s.batch, s.messages, s.warmup,
                crate::wire::PayloadSpec::new(s.bits, s.pack).map_or(0, |p| p.len())
            );
            let _ = writeln!(out, "- This workload alone: `{}`\n", w.command);
            tables(w, &mut out);
            budgets(w, &mut out);
            if !w.warnings.is_empty() {
                let _ = writeln!(out, "\n### Warnings\n");
                for warning in &w.warnings {
                    let _ = writeln!(out, "- {} Fix: {}.", capitalized(&warning.cause), warning.fix);
                }
            }
        }
        if !self.warnings.is_empty() {
            let _ = writeln!(out, "\n## Warnings\n");
            for warning in &self.warnings {
                let _ = writeln!(out, "- {} Fix: {}.", capitalized(&warning.cause), warning.fix);
            }
        }
        let unit = self.workloads.first().map_or("msgs/s", WorkloadReport::unit);
        let _ = writeln!(
            out,
            "\nHow to read this: mean {unit} with the sample standard deviation in brackets, over the timed runs. A verdict needs Welch's p < 0.05 *and* a change larger than the control's noise (the % difference between two identical arms of the Rust producer with MSG_ID=threadrng); otherwise it is `~ (noise)`, and \"runs needed\" is the REPEAT at which a difference of the observed size would be detected with 80% power (two-sided t-test at 0.05 with the observed spreads), so `~` with a large figure means \"not enough runs\", not \"no effect\". Mann-Whitney's p (rank-based, exact for small tie-free samples) and a seeded bootstrap 95% interval of the ratio are shown beside it. If the control arms themselves differ significantly, verdicts are withheld. Latency is the batch round trip (send to ack), the median over runs of each run's percentile. Counts come from two extra runs per variant under `strace -f -c` differing only in their message count, so start-up cancels out; runtimes with background threads (JVM, Go, Node) leave a little jitter in them. Absolute {unit} is a property of this machine; ratios transfer. Every raw sample and the sink's counts per run are in the JSON beside this file."
        );
        out
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect::<String>() + ".")
}

fn p_cell(p: Option<f64>) -> String {
    p.map_or("-".into(), |p| format!("{p:.4}"))
}

fn tables(w: &WorkloadReport, out: &mut String) {
    let Some(a) = &w.analysis else { return };
    let unit = w.unit();
    let cell = |label: String| match a.arms.iter().find(|x| x.label == label) {
        Some(ArmAnalysis { summary: Some(s), .. }) => format!("{} ({:.1}%)", thousands(s.mean), s.stddev_pct),
        Some(ArmAnalysis { failure: Some(_), .. }) => "FAILED".into(),
        _ => "-".into(),
    };
    let ci = |c: &super::stats::Comparison| c.ratio_ci95.map_or("-".into(), |(lo, hi)| format!("{lo:.2}x .. {hi:.2}x"));
    if !a.comparisons.is_empty() || a.control.is_some() {
        let _ = writeln!(out, "| SDK | before, {unit} | after | after, {unit} | change | 95% CI of ratio | p (Welch) | p (Mann-Whitney) | verdict |");
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    }
    for c in &a.comparisons {
        let verdict = match c.comparison.runs_needed {
            Some(n) => format!("{}; {n} runs would tell", c.comparison.verdict.label()),
            None => c.comparison.verdict.label().into(),
        };
        let _ = writeln!(
            out,
            "| {} | {}: {} | {} | {} | {:+.1}% ({:.2}x) | {} | {} | {} | {verdict} |",
            c.sdk,
            c.before,
            cell(format!("{} {}", c.sdk, c.before)),
            c.after,
            cell(format!("{} {}", c.sdk, c.after)),
            c.comparison.change_pct,
            c.comparison.ratio,
            ci(&c.comparison),
            p_cell(c.comparison.welch.p),
            p_cell(c.comparison.mann_whitney.p),
        );
    }
    if let Some(c) = &a.control {
        let _ = writeln!(
            out,
            "| control: rust threadrng A/A | {} | threadrng | {} | {:+.1}% ({:.2}x) | {} | {} | {} | {} |",
            cell("rust threadrng (control A)".into()),
            cell("rust threadrng (control B)".into()),
            c.comparison.change_pct,
            c.comparison.ratio,
            ci(&c.comparison),
            p_cell(c.comparison.welch.p),
            p_cell(c.comparison.mann_whitney.p),
            if a.control_unstable { "UNSTABLE: verdicts withheld" } else { "stable" }
        );
    }
    let _ = writeln!(out, "\n| variant | mean {unit} | stddev % | median | min | max | n | status |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    for arm in &a.arms {
        match (&arm.summary, &arm.failure) {
            (Some(s), _) => {
                let _ = writeln!(
                    out,
                    "| {} | {} | {:.1} | {} | {} | {} | {} | ok |",
                    arm.label, thousands(s.mean), s.stddev_pct, thousands(s.median), thousands(s.min), thousands(s.max), s.n
                );
            }
            (None, Some(why)) => {
                let _ = writeln!(out, "| {} | - | - | - | - | - | - | FAILED: {} |", arm.label, why.replace('|', "/"));
            }
            (None, None) => {
                let _ = writeln!(out, "| {} | - | - | - | - | - | 0 | pending |", arm.label);
            }
        }
    }
    let us = |ns: f64| format!("{:.1}", ns / 1e3);
    let measured: Vec<&ArmAnalysis> = a.arms.iter().filter(|x| x.latency.is_some() || x.counts.is_some() || x.alloc_bytes_per_msg.is_some()).collect();
    if !measured.is_empty() {
        let _ = writeln!(out, "\n| variant | batch RTT p50, us | p99, us | p99.9, us | syscalls/msg | sends/batch | recvs/batch | getrandom/1000 IDs | alloc B/msg |");
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
        for x in measured {
            let (p50, p99, p999) = x.latency.map_or(("-".into(), "-".into(), "-".into()), |l| (us(l.p50_ns), us(l.p99_ns), us(l.p999_ns)));
            let counts = x.counts.map_or(["-".into(), "-".into(), "-".into(), "-".into()], |c| {
                [format!("{:.3}", c.syscalls_per_msg), format!("{:.2}", c.sends_per_batch), format!("{:.2}", c.recvs_per_batch), format!("{:.2}", c.getrandom_per_1000_ids)]
            });
            let alloc = x.alloc_bytes_per_msg.map_or("-".into(), |b| format!("{b:.1}"));
            let _ = writeln!(out, "| {} | {p50} | {p99} | {p999} | {} | {alloc} |", x.label, counts.join(" | "));
        }
    }
}

fn budgets(w: &WorkloadReport, out: &mut String) {
    let Some(checks) = &w.budgets else { return };
    let failed: Vec<&Check> = w.failed_budgets().collect();
    let _ = writeln!(out, "\nBudgets of {}: {} ({} of {} met)", w.name, if failed.is_empty() { "PASSED" } else { "FAILED" }, checks.len() - failed.len(), checks.len());
    for c in failed {
        let _ = writeln!(out, "\n```\nFAILED  {}: {}", c.subject, c.budget);
        let _ = writeln!(out, "  observed: {}", c.observed);
        let _ = writeln!(out, "  meaning:  {}\n```", c.meaning.as_deref().unwrap_or(""));
    }
}

/// A figure with thousands separators and no decimals (the JSON keeps full precision).
pub fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let (sign, digits) = digits.strip_prefix('-').map_or(("", digits.as_str()), |d| ("-", d));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

pub fn atomic_write(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension(format!("{}.tmp", path.extension().and_then(|e| e.to_str()).unwrap_or("")));
    std::fs::write(&tmp, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(1_234_567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(-1000.0), "-1,000");
    }
}
