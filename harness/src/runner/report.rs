//! The report of one `harness run`: every raw sample in JSON, the tables in Markdown. Both are
//! rewritten atomically after each run and say how many runs they hold until the last one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::execute::Outcome;
use super::machine::Machine;
use super::settings::Resolved;
use super::stats::{Comparison, Summary, Verdict, compare};
use crate::producer::{Mode, ProducerResult};
use crate::sink::CountsSnapshot;

/// One SDK x MSG_ID variant (or one of the two control arms) and its runs.
#[derive(Clone, Debug, Serialize)]
pub struct Arm {
    pub sdk: String,
    pub msg_id: String,
    /// 'A' or 'B' for the two identical control arms.
    pub control: Option<char>,
    pub runs: Vec<RunRecord>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunRecord {
    /// Position in the interleaved order, from 1.
    pub order: usize,
    /// The discarded warm-up run.
    pub warmup: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ProducerResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// What the sink counted during this run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sink: Option<CountsSnapshot>,
}

impl RunRecord {
    pub fn new(order: usize, warmup: bool, outcome: Outcome, sink: Option<CountsSnapshot>) -> RunRecord {
        let (result, failed) = match outcome {
            Outcome::Ok(r) => (Some(r), None),
            Outcome::Failed(why) => (None, Some(why)),
        };
        RunRecord { order, warmup, result, failed, sink }
    }
}

impl Arm {
    pub fn new(sdk: &str, msg_id: &str, control: Option<char>) -> Arm {
        Arm { sdk: sdk.into(), msg_id: msg_id.into(), control, runs: Vec::new() }
    }

    pub fn label(&self) -> String {
        match self.control {
            Some(c) => format!("{} {} (control {c})", self.sdk, self.msg_id),
            None => format!("{} {}", self.sdk, self.msg_id),
        }
    }

    fn failure(&self) -> Option<&str> {
        self.runs.iter().find_map(|r| r.failed.as_deref())
    }

    /// Throughputs of the timed runs.
    fn samples(&self) -> Vec<f64> {
        self.runs.iter().filter(|r| !r.warmup).filter_map(|r| r.result.as_ref()).map(|r| r.msgs_per_sec).collect()
    }

    /// The summary, only for an arm none of whose runs failed.
    fn summary(&self) -> Option<Summary> {
        if self.failure().is_some() { None } else { Summary::of(&self.samples()) }
    }
}

#[derive(Clone, Debug, Serialize)]
struct ArmAnalysis {
    label: String,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<Summary>,
}

#[derive(Clone, Debug, Serialize)]
struct ComparisonRow {
    sdk: String,
    before: String,
    after: String,
    #[serde(flatten)]
    comparison: Comparison,
}

#[derive(Clone, Debug, Serialize)]
struct Analysis {
    arms: Vec<ArmAnalysis>,
    /// Control B against control A.
    control: Option<ComparisonRow>,
    /// The control's absolute % difference: changes smaller than this are noise.
    noise_pct: Option<f64>,
    control_unstable: bool,
    comparisons: Vec<ComparisonRow>,
}

#[derive(Serialize)]
pub struct Report {
    name: String,
    /// False until the last run is recorded: an incomplete report is not a result.
    complete: bool,
    runs_done: usize,
    runs_total: usize,
    command: String,
    settings: Resolved,
    machine: Machine,
    started: String,
    finished: Option<String>,
    analysis: Option<Analysis>,
    pub arms: Vec<Arm>,
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

impl Report {
    pub fn new(settings: Resolved, machine: Machine, arms: Vec<Arm>, runs_total: usize) -> Report {
        Report {
            name: settings.name.clone(),
            complete: false,
            runs_done: 0,
            runs_total,
            command: settings.command(),
            settings,
            machine,
            started: now(),
            finished: None,
            analysis: None,
            arms,
        }
    }

    /// results/<name>.json and results/<name>.md.
    pub fn paths(&self, dir: &Path) -> (PathBuf, PathBuf) {
        (dir.join(format!("{}.json", self.name)), dir.join(format!("{}.md", self.name)))
    }

    pub fn record(&mut self, arm: usize, run: RunRecord) {
        self.arms[arm].runs.push(run);
        self.runs_done += 1;
        self.analysis = Some(self.analyse());
    }

    pub fn finish(&mut self) {
        self.complete = self.runs_done == self.runs_total;
        self.finished = Some(now());
        self.analysis = Some(self.analyse());
    }

    pub fn any_failed(&self) -> bool {
        self.arms.iter().any(|a| a.failure().is_some())
    }

    fn analyse(&self) -> Analysis {
        let arms: Vec<ArmAnalysis> = self
            .arms
            .iter()
            .map(|a| ArmAnalysis {
                label: a.label(),
                status: if a.failure().is_some() { "FAILED" } else { "ok" },
                failure: a.failure().map(str::to_owned),
                summary: a.summary(),
            })
            .collect();
        let find = |sdk: &str, msg_id: &str, control: Option<char>| {
            self.arms.iter().position(|a| a.sdk == sdk && a.msg_id == msg_id && a.control == control)
        };
        let control = match (find("rust", "threadrng", Some('A')), find("rust", "threadrng", Some('B'))) {
            (Some(a), Some(b)) => match (arms[a].summary, arms[b].summary) {
                (Some(sa), Some(sb)) => Some(ComparisonRow {
                    sdk: "rust".into(),
                    before: "threadrng (control A)".into(),
                    after: "threadrng (control B)".into(),
                    comparison: compare(&sa, &sb, None, false),
                }),
                _ => None,
            },
            _ => None,
        };
        let noise_pct = control.as_ref().map(|c| c.comparison.change_pct.abs());
        let control_unstable = control.as_ref().is_some_and(|c| matches!(c.comparison.verdict, Verdict::Faster | Verdict::Slower));
        let mut comparisons = Vec::new();
        for (i, arm) in self.arms.iter().enumerate() {
            if arm.control.is_some() || arm.msg_id == "uuid" {
                continue;
            }
            let Some(base) = find(&arm.sdk, "uuid", None) else { continue };
            if let (Some(before), Some(after)) = (arms[base].summary, arms[i].summary) {
                comparisons.push(ComparisonRow {
                    sdk: arm.sdk.clone(),
                    before: "uuid".into(),
                    after: arm.msg_id.clone(),
                    comparison: compare(&before, &after, noise_pct, control_unstable),
                });
            }
        }
        Analysis { arms, control, noise_pct, control_unstable, comparisons }
    }

    /// Writes both files through a temporary name and a rename, so a reader never sees half.
    pub fn write(&self, (json, md): &(PathBuf, PathBuf)) -> anyhow::Result<()> {
        atomic_write(json, &(serde_json::to_string_pretty(self)? + "\n"))?;
        atomic_write(md, &self.markdown())
    }

    fn unit(&self) -> &'static str {
        match self.settings.mode {
            Mode::Producer => "msgs/s",
            Mode::Mint => "IDs/s",
        }
    }

    /// The seed-shaped comparison table, for the terminal.
    pub fn terminal_table(&self) -> String {
        let mut out = String::new();
        self.tables(&mut out);
        out
    }

    fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", self.name);
        if self.complete {
            let _ = writeln!(out, "Complete: {} of {} runs.\n", self.runs_done, self.runs_total);
        } else {
            let _ = writeln!(
                out,
                "**INCOMPLETE: {} of {} runs recorded. This is not a result: the run is in progress or was interrupted.**\n",
                self.runs_done, self.runs_total
            );
        }
        let m = &self.machine;
        let _ = writeln!(out, "- Command: `{}`", self.command);
        let _ = writeln!(out, "- Started {}, finished {}", self.started, self.finished.as_deref().unwrap_or("-"));
        let _ = writeln!(out, "- Machine: {} ({} cores), Linux {}, revision {}", m.cpu_model, m.cores, m.kernel, m.git_revision);
        let _ = writeln!(out, "- Toolchains: {}", m.toolchains.join("; "));
        let s = &self.settings;
        let _ = writeln!(
            out,
            "- Settings: MODE={} REPEAT={} BITS={} PACK={} BATCH={} MESSAGES={} WARMUP={} (payload {} B/message); every variant ran REPEAT times in its own process, interleaved, after one discarded warm-up run.\n",
            self.settings.producer_env()[0].1, s.repeat, s.bits, s.pack, s.batch, s.messages, s.warmup,
            crate::wire::PayloadSpec::new(s.bits, s.pack).map_or(0, |p| p.len())
        );
        self.tables(&mut out);
        let _ = writeln!(
            out,
            "\nHow to read this: mean {unit} with the sample standard deviation in brackets, over the timed runs. A verdict needs Welch's p < 0.05 *and* a change larger than the control's noise (the % difference between two identical arms of the Rust producer with MSG_ID=threadrng); otherwise it is `~ (noise)`. If the control arms themselves differ significantly, verdicts are withheld. Absolute {unit} is a property of this machine; ratios transfer. Every raw sample and the sink's counts per run are in the JSON beside this file.",
            unit = self.unit()
        );
        out
    }

    fn tables(&self, out: &mut String) {
        let Some(a) = &self.analysis else { return };
        let unit = self.unit();
        let summary_of = |label: &str| a.arms.iter().find(|x| x.label == label);
        let cell = |label: String| match summary_of(&label) {
            Some(ArmAnalysis { summary: Some(s), .. }) => format!("{} ({:.1}%)", thousands(s.mean), s.stddev_pct),
            Some(ArmAnalysis { failure: Some(_), .. }) => "FAILED".into(),
            _ => "-".into(),
        };
        if !a.comparisons.is_empty() {
            let _ = writeln!(out, "| SDK | before: uuid, {unit} | after | after, {unit} | change | p (Welch) | verdict |");
            let _ = writeln!(out, "|---|---|---|---|---|---|---|");
            for c in &a.comparisons {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {:+.1}% ({:.2}x) | {} | {} |",
                    c.sdk,
                    cell(format!("{} uuid", c.sdk)),
                    c.after,
                    cell(format!("{} {}", c.sdk, c.after)),
                    c.comparison.change_pct,
                    c.comparison.ratio,
                    c.comparison.welch.p.map_or("-".into(), |p| format!("{p:.4}")),
                    c.comparison.verdict.label()
                );
            }
        }
        if let Some(c) = &a.control {
            let _ = writeln!(
                out,
                "| control: rust threadrng A/A | {} | threadrng | {} | {:+.1}% ({:.2}x) | {} | {} |",
                cell("rust threadrng (control A)".into()),
                cell("rust threadrng (control B)".into()),
                c.comparison.change_pct,
                c.comparison.ratio,
                c.comparison.welch.p.map_or("-".into(), |p| format!("{p:.4}")),
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
    }
}

/// A figure with thousands separators and no decimals (the JSON keeps full precision).
fn thousands(x: f64) -> String {
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

fn atomic_write(path: &Path, text: &str) -> anyhow::Result<()> {
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
