//! The HTML report: one self-contained file (inline CSS and SVG, nothing fetched) with, per
//! workload, the headline of every comparison's ratio, each SDK's arms on their own axis, a dot
//! plot of every timed run, the verdict table, latency and counts, budgets and warnings.

use std::fmt::Write as _;

use super::charts::{self, DotRow, LevelRow, RatioRow, esc};
use super::columns;
use super::contents::{Report, WorkloadReport};
use super::markdown::{control_words, how_to_read, verdict_words};
use super::render::Render;
use crate::producer::Mode;
use crate::runner::analysis::{Analysis, ArmAnalysis, ArmComparison};
use crate::runner::figures::{change, fixed, p_value, ratio_ci, thousands};
use crate::runner::records::{Arm, Warning};
use crate::stats::Verdict;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}\
h1,h2,h3{font-weight:600}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}\
td:first-child,th:first-child{text-align:left}.incomplete{color:#b00;font-weight:700}.passed{color:#060}.failed{color:#b00}\
pre.budget-failure{background:#fff4f4;border-left:4px solid #b00;padding:.6em;white-space:pre-wrap}\
.warnings li{color:#8a5a00}.how-to-read{color:#444;max-width:60em}\
table.arms{display:block;max-width:100%;overflow-x:auto}";

pub struct Html;

impl Render for Html {
    fn render(&self, report: &Report) -> String {
        page(report)
    }
}

fn page(report: &Report) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}{}</style></head><body>\n",
        esc(&report.name),
        charts::STYLE
    );
    let _ = writeln!(out, "<h1>{}</h1>", esc(&report.name));
    let _ = writeln!(
        out,
        "<p class=\"status {}\">{}</p>",
        if report.complete { "complete" } else { "incomplete" },
        esc(&report.status_line())
    );
    if let Some(d) = &report.description {
        let _ = writeln!(out, "<p>{}</p>", esc(d));
    }
    let m = &report.machine;
    let _ = writeln!(
        out,
        "<ul class=\"meta\"><li>Command: <code>{}</code></li><li>Started {}, finished {}</li><li>Machine: {}</li><li>Toolchains: {}</li></ul>",
        esc(&report.command),
        esc(&report.started),
        esc(report.finished.as_deref().unwrap_or("-")),
        esc(&m.summary()),
        esc(&m.toolchains.join("; "))
    );
    for w in &report.workloads {
        workload(w, &mut out);
    }
    warnings(report.warnings.iter(), &mut out);
    let _ = writeln!(out, "<p class=\"how-to-read\">{}</p>", inline_markdown(&how_to_read(report.mode())));
    out.push_str("</body></html>\n");
    out
}

fn workload(w: &WorkloadReport, out: &mut String) {
    let _ = writeln!(out, "<section class=\"workload\" id=\"workload-{}\"><h2>{}</h2>", esc(&w.name), esc(&w.name));
    let _ = writeln!(out, "<p>This workload alone: <code>{}</code></p>", esc(&w.command));
    if let Some(a) = &w.analysis {
        let _ = writeln!(
            out,
            "<h3>Each comparison: ratio of after to before, with its 95% interval (log axis; 1.0 is no change)</h3>"
        );
        out.push_str(&charts::ratio_chart(&headline(a)));
        for (sdk, rows) in levels(&w.arms, &a.arms) {
            let _ =
                writeln!(out, "<h3>{}: median {} (whiskers: min to max), on its own axis</h3>", esc(&sdk), w.unit());
            out.push_str(&charts::level_chart(&rows, w.unit()));
        }
        let _ = writeln!(out, "<h3>Every timed run</h3>");
        out.push_str(&charts::dot_chart(&dots(&w.arms)));
        verdicts(w, out);
        measured(&a.arms, w.settings.mode, out);
    }
    if let Some(checks) = &w.budgets {
        let failed: Vec<_> = w.failed_budgets().collect();
        let class = if failed.is_empty() { "passed" } else { "failed" };
        let _ = writeln!(
            out,
            "<div class=\"budgets {class}\"><h3>Budgets: {}</h3><p>{} of {} met.</p>",
            class.to_uppercase(),
            checks.len() - failed.len(),
            checks.len()
        );
        for c in failed {
            let _ = writeln!(out, "<pre class=\"budget-failure\">{}</pre>", esc(&c.failure_text()));
        }
        out.push_str("</div>\n");
    }
    warnings(w.warnings.iter(), out);
    out.push_str("</section>\n");
}

fn class_of(arm: &Arm) -> &'static str {
    match (arm.control, arm.msg_id.as_str()) {
        (Some(_), _) => "bar control",
        (None, "uuid") => "bar base",
        _ => "bar",
    }
}

fn verdicts(w: &WorkloadReport, out: &mut String) {
    let Some(a) = &w.analysis else { return };
    let (p1, p2) =
        if w.settings.design.blocks() { ("p (paired t)", "p (Wilcoxon)") } else { ("p (Welch)", "p (Mann-Whitney)") };
    let _ = writeln!(
        out,
        "<h3>Verdicts</h3>\n<table class=\"verdicts\"><tr><th>SDK</th><th>before</th><th>after</th><th>change</th><th>95% CI of ratio</th><th>{p1}</th><th>{p2}</th><th>verdict</th></tr>"
    );
    let control = a.control.iter().zip(control_words(a));
    for (c, verdict) in a.comparisons.iter().chain(&a.twins).map(|c| (c, verdict_words(c))).chain(control) {
        let k = &c.comparison;
        let (pa, pb) = c.paired.as_ref().map_or((k.welch.p, k.mann_whitney.p), |p| (p.t.p, p.wilcoxon.p));
        let _ = writeln!(
            out,
            "<tr class=\"verdict\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&c.sdk),
            esc(&c.before),
            esc(&c.after),
            change(k),
            ratio_ci(k).unwrap_or_else(|| "-".into()),
            p_value(pa),
            p_value(pb),
            esc(&verdict),
        );
    }
    out.push_str("</table>\n");
}

fn measured(arms: &[ArmAnalysis], mode: Mode, out: &mut String) {
    let columns = columns::measured(mode);
    let headers: String = columns.iter().map(|c| format!("<th>{}</th>", esc(&c.header))).collect();
    let _ = writeln!(
        out,
        "<h3>Per arm</h3>\n<table class=\"arms\"><tr><th>arm</th><th>mean</th><th>sd %</th><th>median</th><th>min</th><th>max</th><th>n</th>{headers}<th>status</th></tr>"
    );
    for a in arms {
        let cells: String = columns.iter().map(|c| format!("<td>{}</td>", (c.cell)(a))).collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{cells}<td>{}</td></tr>",
            esc(&a.label),
            a.summary.map_or("-".into(), |s| thousands(s.mean)),
            fixed(a.summary.map(|s| s.stddev_pct), 1),
            a.summary.map_or("-".into(), |s| thousands(s.median)),
            a.summary.map_or("-".into(), |s| thousands(s.min)),
            a.summary.map_or("-".into(), |s| thousands(s.max)),
            a.summary.map_or(0, |s| s.n),
            esc(a.failure.as_deref().map_or(a.status, |why| why))
        );
    }
    out.push_str("</table>\n");
}

/// The headline's rows: each comparison, then the A/A control. One row per comparison row of
/// the analysis, so a new kind of comparison is one more source chained here.
fn headline(a: &Analysis) -> Vec<RatioRow> {
    let row = |c: &ArmComparison, label: String| {
        let k = &c.comparison;
        let class = match k.verdict {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Noise => "tie",
            Verdict::Withheld => "withheld",
            Verdict::Undecided => "undecided",
        };
        let title = format!("{label}: {} ({})", change(k), k.verdict.label());
        RatioRow { label, ratio: k.ratio, ci95: k.ratio_ci95, class, title }
    };
    let pairs = a.comparisons.iter().map(|c| {
        row(c, format!("{} {} / {}{}", c.sdk, c.after, c.before, if c.paired.is_some() { " (paired)" } else { "" }))
    });
    // Paired mode: each SDK's in-process A/A, its own noise floor.
    let twins = a.twins.iter().map(|c| row(c, format!("A/A in-process: {} {}", c.sdk, c.before)));
    // Short enough for the chart's label column: the arms' labels say "control B" / "control A".
    let control = a
        .control
        .iter()
        .map(|c| row(c, format!("A/A control: {} {} B / A", c.sdk, c.before.split(' ').next().unwrap_or_default())));
    pairs.chain(twins).chain(control).collect()
}

/// Each SDK's arms (the control's with the SDK it runs), for a chart of its own.
fn levels(arms: &[Arm], analysed: &[ArmAnalysis]) -> Vec<(String, Vec<LevelRow>)> {
    let mut out: Vec<(String, Vec<LevelRow>)> = Vec::new();
    for (arm, a) in arms.iter().zip(analysed) {
        let Some(s) = a.summary else { continue };
        let row = LevelRow { label: a.label.clone(), median: s.median, min: s.min, max: s.max, class: class_of(arm) };
        match out.iter_mut().find(|(sdk, _)| *sdk == arm.sdk) {
            Some((_, rows)) => rows.push(row),
            None => out.push((arm.sdk.clone(), vec![row])),
        }
    }
    out
}

/// Every arm's timed runs, for the dot plot.
fn dots(arms: &[Arm]) -> Vec<DotRow> {
    arms.iter().map(|arm| DotRow { label: arm.label(), samples: arm.timed_samples().collect() }).collect()
}

/// Markdown's inline code and emphasis as HTML, the rest escaped.
fn inline_markdown(text: &str) -> String {
    let mut out = String::new();
    let (mut code, mut em) = (false, false);
    for c in text.chars() {
        match c {
            '`' if !em => {
                out.push_str(if code { "</code>" } else { "<code>" });
                code = !code;
            }
            '*' if !code => {
                out.push_str(if em { "</em>" } else { "<em>" });
                em = !em;
            }
            _ => out.push_str(&esc(&c.to_string())),
        }
    }
    out
}

fn warnings<'a>(list: impl Iterator<Item = &'a Warning>, out: &mut String) {
    let items: Vec<String> =
        list.map(|w| format!("<li>{}. <b>Fix:</b> {}.</li>", esc(&w.cause), esc(&w.fix))).collect();
    if !items.is_empty() {
        let _ = writeln!(out, "<h3>Warnings</h3><ul class=\"warnings\">{}</ul>", items.concat());
    }
}
