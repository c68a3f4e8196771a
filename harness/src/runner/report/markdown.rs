//! The Markdown report, and the tables and budget blocks the terminal shows too.

use std::fmt::Write as _;

use super::columns;
use super::contents::{Report, WorkloadReport, unit};
use super::render::Render;
use crate::producer::Mode;
use crate::runner::analysis::{Analysis, ArmAnalysis, ArmComparison};
use crate::runner::design::Design;
use crate::runner::figures::{change, p_value, paired_change, ratio_ci, thousands};
use crate::runner::records::Warning;
use crate::stats::Verdict;
use crate::stats::paired::{CLIP_MIN_BLOCKS, CLIP_PERCENTILE, PairedComparison};

pub struct Markdown;

impl Render for Markdown {
    fn render(&self, report: &Report) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", report.name);
        let status = report.status_line();
        let _ = writeln!(out, "{}\n", if report.complete { status } else { format!("**{status}**") });
        if let Some(d) = &report.description {
            let _ = writeln!(out, "{d}\n");
        }
        let _ = writeln!(out, "- Command: `{}`", report.command);
        let _ = writeln!(out, "- Started {}, finished {}", report.started, report.finished.as_deref().unwrap_or("-"));
        let _ = writeln!(out, "- Machine: {}", report.machine.summary());
        let _ = writeln!(out, "- Toolchains: {}", report.machine.toolchains.join("; "));
        for w in &report.workloads {
            let s = &w.settings;
            let _ = writeln!(out, "\n## {}\n", w.name);
            let payload = match s.mode {
                Mode::Producer => format!(
                    " (payload {} B/message)",
                    crate::wire::PayloadSpec::new(s.bits, s.pack).map_or(0, |p| p.len())
                ),
                Mode::Mint => String::new(),
            };
            let _ = writeln!(out, "- Settings: {}{payload}; {}", s.line(), design(s));
            if let Some(split) = s.split_line() {
                let _ = writeln!(out, "- Rows' splits, as their Budget lines there advised: {split}.");
            }
            if let Some(stopped) = &w.stopped {
                let _ = writeln!(out, "- Rounds: {stopped}.");
            }
            for allocation in &w.allocations {
                let _ = writeln!(out, "- Budget: {allocation}.");
            }
            let _ = writeln!(out, "- This workload alone: `{}`\n", w.command);
            tables(w, &mut out);
            budgets(w, &mut out);
            warnings("\n### Warnings\n", &w.warnings, &mut out);
        }
        warnings("\n## Warnings\n", &report.warnings, &mut out);
        let _ = writeln!(out, "\n{}", how_to_read(report.mode()));
        out
    }
}

/// How the runs were made, in one sentence with the seed that reproduces their order.
pub fn design(s: &crate::runner::settings::Settings) -> String {
    if s.design == Design::Lockstep {
        format!(
            "design: lock-step. Each set (an SDK's arms, or every row of your own, with an A/A twin of the first arm) ran as one process per arm at once against the sink, started in an order shuffled per set, which released one batch at a time in blocks of one turn per process in a shuffled order and timed each turn: the producer's own part (its reply written to its next batch read in full) and the sink's service; every set is one pair of estimates (the log ratio of the arms' total producer's parts, each arm's rarest stalls clipped). Sets ran REPEAT times in a randomised order per round after one discarded warm-up round; SEED={} reproduces every order.",
            s.seed
        )
    } else if s.design == Design::Paired {
        format!(
            "design: paired in-process. Each SDK's arms (and an A/A twin of its first arm) ran in one process REPEAT times, batches dealt in blocks of one per arm in a shuffled order; every process is one pair of estimates (the log ratio of the arms' total batch times, each arm's rarest stalls clipped). Processes ran in a randomised order per round after one discarded warm-up round; SEED={} reproduces both orders.",
            s.seed
        )
    } else {
        format!(
            "design: one process per arm, REPEAT rounds in a randomised order after one discarded warm-up round (SEED={} reproduces it); the runs of one round are also compared as pairs.",
            s.seed
        )
    }
}

/// The paragraph that says how the tables read, in Markdown (the HTML report shows it too).
/// MODE=mint sends nothing: no sink, no latency, no A/A control, no paired design.
pub fn how_to_read(mode: Mode) -> String {
    let unit = unit(mode);
    let producer = mode == Mode::Producer;
    let rule = if producer {
        "*and* a change larger than the control's noise (the % difference between two identical arms of the Rust producer with MSG_ID=threadrng)"
    } else {
        "(MODE=mint runs no A/A control)"
    };
    let mut text = format!(
        "How to read this: mean {unit} with the sample standard deviation in brackets, over the timed runs. A verdict needs Welch's p < 0.05 {rule}; otherwise it is `~ (noise)`, and \"runs needed\" is the REPEAT at which a difference of the observed size would be detected with 80% power (two-sided t-test at 0.05 with the observed spreads), so `~` with a large figure means \"not enough runs\", not \"no effect\". Mann-Whitney's p (rank-based, exact for small tie-free samples) and a seeded bootstrap 95% interval of the ratio are shown beside it."
    );
    if producer {
        text += " If the control arms themselves differ significantly, verdicts across processes are withheld.";
    }
    text += " With fewer than 3 runs a side there is no verdict (\"too few runs (n=2)\"); a tie states its interval's half-width (\"within ±0.40%\").";
    if producer {
        text += " In lock-step (DESIGN=lockstep) the same holds per set of processes: the sink times each process's turns, the estimate is of the producer's own part of each turn (the sink's service is the same work for both arms, so it would only dilute the change), the twin is a second process of the base arm, and \"at one in flight\" gives the change of whole turns (producer and sink), the throughput each arm would reach with one request in flight.";
        text += &format!(
            " In paired mode (DESIGN=paired) the ratio, its interval and the verdict are paired: each process gives one estimate per arm, the log ratio of the two arms' total batch times over the blocks they shared, the throughput ratio in that process (each arm's times above its own {CLIP_PERCENTILE}th percentile in that process counted at it, so a cost paid in 1 block in {CLIP_MIN_BLOCKS} or more counts in full and a rarer stall counts as a slow block, not as its own length), and the verdict is the one-sample t-test of those estimates (Wilcoxon's signed-rank p beside it); the change must also exceed the SDK's own in-process A/A twin's, whose own alarm withholds nothing (the arms share the process, so no drift lies between them). \"Pace r\" is the correlation over the processes of those estimates with each process's pace (the log of its twin's median batch time). Far from 0, the ratio itself moves with the machine's pace from process to process, as a change of fixed cost per batch does (near -1 where it is a gain, +1 where it is a loss: its share shrinks as the rest of the batch slows); that spread is real, and only more processes narrow the interval. \"Median block\" is the same test of each process's median over its blocks of the log ratio, the typical block: it leaves out a cost an arm pays in a minority of its blocks (a pool refilled every few batches, a collection), which the verdict counts. Where their intervals part, a warning says so.",
        );
    }
    text += " Across processes, \"paired by round\" compares the two arms' runs of each round.";
    if producer {
        text += " Latency is the batch round trip (send to ack), the median over runs of each run's percentile.";
    }
    text += &format!(
        " Syscall counts come from two extra runs per arm under `strace -f -c` differing only in their message count, so start-up cancels out; runtimes with background threads (JVM, Go, Node) leave a little jitter in them. Absolute {unit} is a property of this machine; ratios transfer. Every raw sample{} in the JSON beside this file.",
        if producer { " and the sink's counts per run are" } else { " is" }
    );
    text
}

fn warnings(heading: &str, list: &[Warning], out: &mut String) {
    if !list.is_empty() {
        let _ = writeln!(out, "{heading}");
        for warning in list {
            let _ = writeln!(out, "- {} Fix: {}.", capitalized(&warning.cause), warning.fix);
        }
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect::<String>() + ".")
}

/// The verdict table, every arm's summary, and latency and counts where there are any.
pub fn tables(w: &WorkloadReport, out: &mut String) {
    let Some(a) = &w.analysis else { return };
    let unit = w.unit();
    let cell = |arm: usize| match a.arms.get(arm) {
        Some(ArmAnalysis { summary: Some(s), .. }) => format!("{} ({:.1}%)", thousands(s.mean), s.stddev_pct),
        Some(ArmAnalysis { failure: Some(_), .. }) => "FAILED".into(),
        _ => "-".into(),
    };
    let ci = |c| ratio_ci(c).unwrap_or_else(|| "-".into());
    let paired = w.settings.design.blocks();
    let (p1, p2) = if paired { ("p (paired t)", "p (Wilcoxon)") } else { ("p (Welch)", "p (Mann-Whitney)") };
    if !a.comparisons.is_empty() || a.control.is_some() {
        let _ = writeln!(
            out,
            "| SDK | before, {unit} | after | after, {unit} | change | 95% CI of ratio | {p1} | {p2} | {} | verdict |",
            if paired { "design" } else { "paired by round" }
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|");
    }
    for c in a.comparisons.iter().chain(&a.twins) {
        let k = &c.comparison;
        let (pa, pb) = match &c.paired {
            Some(p) => (p.t.p, p.wilcoxon.p),
            None => (k.welch.p, k.mann_whitney.p),
        };
        // The spread across processes, and what their own blocks alone would give.
        let spread = |p: &PairedComparison| {
            c.blocks_sd_pct.map_or(String::new(), |b| format!("; spread {:.2}% (blocks {b:.2}%)", 100.0 * p.t.sd))
        };
        let lockstep = w.settings.design == Design::Lockstep;
        let in_flight =
            c.at_one_in_flight.as_ref().map_or(String::new(), |t| format!("; at one in flight {}", paired_change(t)));
        let side = match (&c.paired, &c.by_round) {
            (Some(p), _) if c.after.ends_with("(A/A twin)") => {
                format!("{} A/A{}", if lockstep { "lock-step" } else { "in-process" }, spread(p))
            }
            (Some(p), _) => format!(
                "{}, {} {}{}{}{}{in_flight}",
                if lockstep { "lock-step" } else { "paired" },
                p.processes,
                if lockstep { "sets" } else { "processes" },
                c.pace_r.map_or(String::new(), |r| format!("; pace r {r:+.2}")),
                spread(p),
                c.median.as_ref().map_or(String::new(), |m| format!("; median block {}", paired_change(m))),
            ),
            (None, Some(r)) => format!("{}, p {}", paired_change(r), p_value(r.t.p)),
            (None, None) => "-".into(),
        };
        let _ = writeln!(
            out,
            "| {} | {}: {} | {} | {} | {} | {} | {} | {} | {side} | {} |",
            c.sdk,
            c.before,
            cell(c.before_arm),
            c.after,
            cell(c.after_arm),
            change(k),
            ci(k),
            p_value(pa),
            p_value(pb),
            verdict_words(c),
        );
    }
    if let Some((c, stability)) = a.control.as_ref().zip(control_words(a)) {
        let k = &c.comparison;
        let _ = writeln!(
            out,
            "| control: rust threadrng A/A | {} | threadrng | {} | {} | {} | {} | {} | {} | {stability} |",
            cell(c.before_arm),
            cell(c.after_arm),
            change(k),
            ci(k),
            p_value(c.paired.as_ref().map_or(k.welch.p, |p| p.t.p)),
            p_value(c.paired.as_ref().map_or(k.mann_whitney.p, |p| p.wilcoxon.p)),
            if c.paired.is_some() { "lock-step set" } else { "cross-process" },
        );
    }
    let _ = writeln!(out, "\n| arm | mean {unit} | stddev % | median | min | max | n | status |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    for arm in &a.arms {
        match (&arm.summary, &arm.failure) {
            (Some(s), _) => {
                let _ = writeln!(
                    out,
                    "| {} | {} | {:.1} | {} | {} | {} | {} | ok |",
                    arm.label,
                    thousands(s.mean),
                    s.stddev_pct,
                    thousands(s.median),
                    thousands(s.min),
                    thousands(s.max),
                    s.n
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
    let measured: Vec<&ArmAnalysis> = a
        .arms
        .iter()
        .filter(|x| {
            x.latency.is_some()
                || x.syscalls.is_some()
                || x.alloc_bytes_per_msg.is_some()
                || x.cpu_ns_per_msg.is_some()
                || x.steal_pct.is_some()
        })
        .collect();
    if !measured.is_empty() {
        let columns = columns::measured(w.settings.mode);
        let _ = writeln!(out, "\n| arm |{}", columns.iter().map(|c| format!(" {} |", c.header)).collect::<String>());
        let _ = writeln!(out, "|---|{}", "---|".repeat(columns.len()));
        for x in measured {
            let _ = writeln!(
                out,
                "| {} |{}",
                x.label,
                columns.iter().map(|c| format!(" {} |", (c.cell)(x))).collect::<String>()
            );
        }
    }
}

/// What the A/A control says of the machine, in words that match its evidence: with too few
/// runs nothing was tested, so its stability is unknown, not "stable".
pub fn control_words(a: &Analysis) -> Option<String> {
    let k = &a.control.as_ref()?.comparison;
    Some(match k.verdict {
        Verdict::Undecided => format!("unknown: too few runs (n={})", k.n),
        _ if a.control_unstable => "UNSTABLE: verdicts across processes withheld".into(),
        _ => "stable".into(),
    })
}

/// A verdict in words that match its evidence: a tie says how tight it is, too few runs says so.
pub fn verdict_words(c: &ArmComparison) -> String {
    let k = &c.comparison;
    match k.verdict {
        Verdict::Noise => {
            let within = c.half_width_pct().map_or(String::new(), |h| format!(" within ±{h:.2}%"));
            // Past a number a user could run, the figure says only that runs will not settle it.
            let runs = k.runs_needed.map_or(String::new(), |n| {
                if n > 1000 { "; more than 1,000 runs would tell".into() } else { format!("; {n} runs would tell") }
            });
            format!("~ (tie){within}{runs}")
        }
        v => v.describe(c.runs()),
    }
}

/// Whether the workload's budgets held, with each failure spelled out.
pub fn budgets(w: &WorkloadReport, out: &mut String) {
    let Some(checks) = &w.budgets else { return };
    let failed: Vec<_> = w.failed_budgets().collect();
    let _ = writeln!(
        out,
        "\nBudgets of {}: {} ({} of {} met)",
        w.name,
        if failed.is_empty() { "PASSED" } else { "FAILED" },
        checks.len() - failed.len(),
        checks.len()
    );
    for c in failed {
        let _ = writeln!(out, "\n```\n{}\n```", c.failure_text());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::analysis::baseline_pairs;
    use crate::runner::records::fixtures::arm;

    /// An analysis of an A/A control (B: A's samples in reverse order) and rust uuid and fast.
    fn analysis(control: &[f64], uuid: &[f64], fast: &[f64]) -> Analysis {
        let arms = [
            arm("rust", "threadrng", Some('A'), (0, 4), control),
            arm("rust", "threadrng", Some('B'), (1, 4), &control.iter().rev().copied().collect::<Vec<_>>()),
            arm("rust", "uuid", None, (2, 4), uuid),
            arm("rust", "fast", None, (3, 4), fast),
        ];
        Analysis::of(&arms, &baseline_pairs(&arms))
    }

    #[test]
    fn two_runs_of_a_large_difference_give_no_verdict_word() {
        let a = analysis(&[1000.0, 1002.0], &[100.0, 101.0], &[500.0, 502.0]);
        let c = &a.comparisons[0];
        assert!(
            c.comparison.change_pct > 300.0 && c.comparison.welch.p.is_some_and(|p| p < 0.05),
            "a large, significant-looking difference: {:?}",
            c.comparison
        );
        let words = verdict_words(c);
        assert_eq!(words, "too few runs (n=2)");
        for verdict in ["faster", "slower", "~", "tie", "noise"] {
            assert!(!words.contains(verdict), "{words}");
        }
    }

    #[test]
    fn an_a_a_control_of_one_run_is_unknown_not_stable() {
        assert_eq!(
            control_words(&analysis(&[1000.0], &[100.0], &[500.0])).as_deref(),
            Some("unknown: too few runs (n=1)")
        );
        let steady = [1000.0, 1001.0, 999.0, 1000.5, 999.5];
        assert_eq!(
            control_words(&analysis(&steady, &steady, &steady)).as_deref(),
            Some("stable"),
            "five steady runs a side are tested"
        );
    }
}
