//! What each generated block holds, read from the committed result files as their writers left
//! them (read as plain JSON, so a file recorded by an older revision still renders).

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::link;
use crate::mint_costs::strategy;
use crate::runner::figures::interval;
use crate::runner::settings;
use crate::stats::disjoint;

/// The body of block `name` in document `doc`.
pub fn render(root: &Path, doc: &Path, name: &str) -> Result<String> {
    let (kind, arg) = name.split_once(' ').unwrap_or((name, ""));
    match (kind, arg) {
        ("settings", "") => Ok(settings::table()),
        ("at-a-glance", file) if !file.is_empty() => at_a_glance(root, doc, file),
        ("calibration", file) if !file.is_empty() => calibration(root, doc, file),
        ("designs", files) if !files.is_empty() => designs(root, doc, files),
        ("mint-costs", "") => mint_costs(root, doc),
        ("native-mint", "") => native_mint(root, doc),
        ("results-index", "") => results_index(root),
        _ => bail!(
            "no such block (settings, at-a-glance RESULT, calibration RESULT, designs RESULT [RESULT ...], mint-costs, native-mint, results-index)"
        ),
    }
}

fn load(root: &Path, file: &str) -> Result<Value> {
    let path = root.join("results").join(format!("{file}.json"));
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// The machine a result names, in one phrase, whichever writer wrote it.
fn machine(json: &Value) -> String {
    match &json["machine"] {
        Value::String(s) => s.clone(),
        Value::Object(m) => format!("{}, {} cores", m["cpu_model"].as_str().unwrap_or("?"), m["cores"]),
        _ => format!("{}, {} cores", json["cpu"].as_str().unwrap_or("?"), json["cores"].as_str().unwrap_or("?")),
    }
}

fn when(json: &Value) -> &str {
    json["started"].as_str().or(json["date"].as_str()).unwrap_or("?")
}

/// Where a block's figures come from: the file (linked), its command, machine and date.
fn source(doc: &Path, file: &str, json: &Value) -> String {
    let md = format!("results/{file}.md");
    format!(
        "From [{md}]({}), recorded on {} ({}) by `{}`.\n\n",
        link(doc, &md),
        when(json),
        machine(json),
        json["command"].as_str().unwrap_or("?")
    )
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// A comparison's paired figures where it has them, else its cross-process ones.
fn judged(cmp: &Value) -> &Value {
    if cmp["paired"].is_object() { &cmp["paired"] } else { cmp }
}

/// The half-width of a comparison's 95% interval in % of its ratio, as PRECISION judges it
/// (`ArmComparison::half_width_pct`): the interval the verdict stands on, whatever the design.
fn half_width(cmp: &Value) -> f64 {
    let ci = &cmp["ratio_ci95"];
    crate::stats::paired::half_width_pct((f(&ci[0]), f(&ci[1])), f(&cmp["ratio"]))
}

/// What identifies a comparison across the workloads of a report: its row and its two arms.
fn key(cmp: &Value) -> (Value, Value, Value) {
    (cmp["sdk"].clone(), cmp["before"].clone(), cmp["after"].clone())
}

/// A table row's first two cells: the SDK row, and its arms as after / before.
fn row_cells(cmp: &Value) -> String {
    format!(
        "| {} | {} / {} |",
        cmp["sdk"].as_str().unwrap_or("?"),
        cmp["after"].as_str().unwrap_or("?"),
        cmp["before"].as_str().unwrap_or("?")
    )
}

/// A comparison in a few words: its ratio and 95% CI, and its verdict (a tie with its
/// half-width); then the median block's ratio where its interval parts from the verdict's
/// (report warnings: a cost the typical block leaves out).
fn verdict(cmp: &Value) -> String {
    let j = judged(cmp);
    let ci = |v: &Value| (f(&v["ratio_ci95"][0]), f(&v["ratio_ci95"][1]));
    let ratio = f(&j["ratio"]);
    let words = match cmp["verdict"].as_str().unwrap_or("?") {
        "noise" => {
            // From the interval, not a recorded half_width_pct: older files recorded it in % of
            // the baseline, which for a ratio far from 1 is another figure.
            format!("tie, {ratio:.3}x ±{:.2}%", half_width(j))
        }
        v => format!("{ratio:.3}x ({}), {v}", interval(ci(j))),
    };
    let median = &cmp["median"];
    if disjoint(ci(j), ci(median)) {
        format!("{words}; median block {:.3}x ({})", f(&median["ratio"]), interval(ci(median)))
    } else {
        words
    }
}

/// Payload bytes per message of a workload's settings, as the producers build it.
fn message_bytes(settings: &Value) -> String {
    let field = |key: &str| settings[key].as_u64().and_then(|v| u32::try_from(v).ok());
    match (field("bits"), field("pack")) {
        (Some(bits), Some(pack)) => {
            crate::wire::PayloadSpec::new(bits, pack).map_or("?".into(), |p| p.len().to_string())
        }
        _ => "?".into(),
    }
}

/// Each SDK row's comparisons of a run report, one column per workload.
fn at_a_glance(root: &Path, doc: &Path, file: &str) -> Result<String> {
    let json = load(root, file)?;
    let workloads = json["workloads"].as_array().context("no workloads")?;
    let mut out = source(doc, file, &json);
    let design = workloads.first().and_then(|w| w["settings"]["design"].as_str()).unwrap_or("processes");
    out += &format!("Design: {design}; each cell is after / before, its 95% CI and the verdict.\n\n");
    out += "| row | compared |";
    for w in workloads {
        out += &format!(" {} B messages |", message_bytes(&w["settings"]));
    }
    out += "\n|---|---|";
    out += &"---|".repeat(workloads.len());
    out += "\n";
    let first = workloads[0]["analysis"]["comparisons"].as_array().context("no comparisons")?;
    for cmp in first {
        out += &row_cells(cmp);
        for w in workloads {
            let found = w["analysis"]["comparisons"].as_array().and_then(|cs| cs.iter().find(|c| key(c) == key(cmp)));
            out += &format!(" {} |", found.map_or("-".into(), verdict));
        }
        out += "\n";
    }
    Ok(out)
}

/// A calibration's detection rates per design: A/A false alarms and each injected slowdown; where
/// launches were stolen and ran again, a row beneath with what they would have been had those
/// counted (the cells' `if_counted`).
fn calibration(root: &Path, doc: &Path, file: &str) -> Result<String> {
    let json = load(root, file)?;
    // `cells`: one per design, SDK, metric and level, over every round.
    let cells = json["cells"].as_array().context("no cells")?;
    let mut levels: Vec<f64> = cells.iter().map(|c| f(&c["injected_pct"])).filter(|l| *l > 0.0).collect();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    let mut out = source(doc, file, &json);
    out += "| design | SDK | A/A false alarms |";
    for l in &levels {
        out += &format!(" {l}% found |");
    }
    out += " A/A spread |\n|---|---|---|";
    out += &"---|".repeat(levels.len() + 1);
    out += "\n";
    let mut seen = Vec::new();
    for cell in cells {
        let arm = (cell["design"].clone(), cell["sdk"].clone(), cell["metric"].clone());
        if seen.contains(&arm) {
            continue;
        }
        seen.push(arm.clone());
        let of = |level: f64| {
            cells.iter().find(|c| {
                (c["design"].clone(), c["sdk"].clone(), c["metric"].clone()) == arm && f(&c["injected_pct"]) == level
            })
        };
        let metric = if cell["metric"] == "wall" {
            String::new()
        } else {
            format!(" ({})", cell["metric"].as_str().unwrap_or("?"))
        };
        let design = cell["design"].as_str().unwrap_or("?");
        // The row as recorded, then (`counted`) as the stolen launches would have had it.
        let mut row = |counted: bool, label: String| {
            // A level none of whose launches was stolen counts as it was.
            let figures =
                |c: &Value| if counted && c["if_counted"].is_object() { c["if_counted"].clone() } else { c.clone() };
            // Under PRECISION a trial's processes vary: their mean beside the count.
            let rate = |c: Option<&Value>| {
                c.map_or("-".into(), |c| match c["processes_mean"].as_f64() {
                    Some(n) => format!("{} of {} ({n:.1} processes each)", figures(c)["detected"], c["rounds"]),
                    None => format!("{} of {}", figures(c)["detected"], c["rounds"]),
                })
            };
            out += &format!("| {label} | {} | {} |", cell["sdk"].as_str().unwrap_or("?"), rate(of(0.0)));
            for l in &levels {
                out += &format!(" {} |", rate(of(*l)));
            }
            out += &format!(" {} |\n", of(0.0).map_or("-".into(), |c| format!("{:.2}%", f(&figures(c)["spread_pct"]))));
        };
        row(false, format!("{design}{metric}"));
        if std::iter::once(0.0)
            .chain(levels.iter().copied())
            .any(|l| of(l).is_some_and(|c| c["if_counted"].is_object()))
        {
            row(true, format!("{design}{metric}, had the stolen launches counted"));
        }
    }
    let missed: Vec<String> = json["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["met"] == false)
        .map(|t| format!("{} ({})", t["target"].as_str().unwrap_or("?"), t["value"].as_str().unwrap_or("?")))
        .collect();
    if !missed.is_empty() {
        out += &format!("\nTargets missed: {}.\n", missed.join("; "));
    }
    Ok(out)
}

/// Designs side by side: a run whose workloads differ in DESIGN (and message size), each row's
/// 95% CI half-width under each design with the wall time that row's launches took, and how many
/// times wider the last design's interval is than the first's, as measured and at equal seconds.
/// Rows: the control's A/A, every comparison, and every A/A twin (lock-step and paired only).
/// Each comparison's half-width by design (the workloads of one file), or by file (the same
/// workloads recorded another way, such as each row at its split), message size by size.
fn designs(root: &Path, doc: &Path, files: &str) -> Result<String> {
    let files: Vec<&str> = files.split_whitespace().collect();
    let mut out = String::new();
    // Each workload with the column it is shown in: its design, or with several files its file.
    let mut workloads: Vec<(String, Value)> = Vec::new();
    for file in &files {
        let json = load(root, file)?;
        out += &source(doc, file, &json);
        for w in json["workloads"].as_array().context("no workloads")? {
            let design = w["settings"]["design"].as_str().unwrap_or("?");
            workloads.push((if files.len() > 1 { (*file).to_owned() } else { design.to_owned() }, w.clone()));
        }
    }
    let rows = |w: &Value| -> Vec<Value> {
        let a = &w["analysis"];
        let listed = |key: &str| a[key].as_array().cloned().unwrap_or_default();
        let control = a["control"].is_object().then(|| a["control"].clone());
        control.into_iter().chain(listed("comparisons")).chain(listed("twins")).collect()
    };
    let mut sizes: Vec<String> = Vec::new();
    for size in workloads.iter().map(|(_, w)| message_bytes(&w["settings"])) {
        if !sizes.contains(&size) {
            sizes.push(size);
        }
    }
    for size in sizes {
        let group: Vec<&(String, Value)> =
            workloads.iter().filter(|(_, w)| message_bytes(&w["settings"]) == size).collect();
        out += &format!("**{size} B messages.**");
        for (label, w) in &group {
            let rounds = match (w["stopped"].as_str(), w["settings"]["split"].as_str()) {
                (Some(stopped), _) => stopped.to_owned(),
                (None, Some(split)) => format!("each row's rounds as SPLIT={split} advised"),
                (None, None) => "REPEAT rounds".to_owned(),
            };
            out += &format!(" {label}: {rounds}.");
        }
        out += "\n\n| row | compared |";
        for (label, _) in &group {
            out += &format!(" {label} ±% (s) |");
        }
        // With one column there is nothing to divide: its half-widths alone.
        let compared = group.len() > 1;
        if compared {
            let (first, last) = (&group[0].0, &group[group.len() - 1].0);
            out += &format!(" {last} / {first} | at equal seconds |");
        }
        out += &format!("\n|---|---|{}{}\n", "---|".repeat(group.len()), if compared { "---|---|" } else { "" });
        let listed: Vec<Vec<Value>> = group.iter().map(|(_, w)| rows(w)).collect();
        let mut seen = Vec::new();
        for cmp in listed.iter().flatten() {
            if seen.contains(&key(cmp)) {
                continue;
            }
            seen.push(key(cmp));
            out += &row_cells(cmp);
            // Per column: the half-width and the seconds its launches took.
            let mut cells = Vec::new();
            for ((_, w), its) in group.iter().zip(&listed) {
                let found = its.iter().find(|c| key(c) == key(cmp));
                let cell = found.map(|c| (half_width(c), row_seconds(w, c)));
                out += &cell.map_or(" - |".into(), |(h, s)| format!(" ±{h:.2} ({s:.0}) |"));
                cells.push(cell);
            }
            // A half-width narrows as one over the root of the launches, so the time each column
            // gave this row converts its ratio to what equal seconds would give.
            out += &match (cells[0], cells[cells.len() - 1]) {
                _ if !compared => "\n".into(),
                (Some((a, sa)), Some((b, sb))) => format!(" {:.1}x | {:.1}x |\n", b / a, b / a * (sb / sa).sqrt()),
                _ => " - | - |\n".into(),
            };
        }
        out += "\n";
    }
    Ok(out)
}

/// The wall time, in seconds, of the launches (processes, or lock-step sets) that ran a
/// comparison's arms in workload `w`, its warm-up round included: each launch once.
fn row_seconds(w: &Value, cmp: &Value) -> f64 {
    let sdk = cmp["sdk"].as_str().unwrap_or("?");
    // An arm's name in a comparison is its MSG_ID, with what it is in brackets: "uuid (A/A twin)".
    let msg_id = |side: &Value| side.as_str().unwrap_or("?").split(" (").next().unwrap_or("?").to_owned();
    let ids = [msg_id(&cmp["before"]), msg_id(&cmp["after"])];
    let mut launches: Vec<(u64, f64)> = w["arms"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["sdk"] == sdk && ids.iter().any(|id| a["msg_id"] == id.as_str()))
        .flat_map(|a| a["runs"].as_array().into_iter().flatten())
        .filter_map(|r| Some((r["order"].as_u64()?, r["launch_s"].as_f64()?)))
        .collect();
    launches.sort_by_key(|l| l.0);
    launches.dedup_by_key(|l| l.0);
    launches.iter().map(|l| l.1).sum()
}

/// idgen's strategies: instructions and ns per ID, and the distance from the AES floor.
fn mint_costs(root: &Path, doc: &Path) -> Result<String> {
    let json = load(root, "mint-costs")?;
    let mut block = source(doc, "mint-costs", &json)
        + &crate::mint_costs::floor_line(&json)
        + "\n\n"
        + &crate::mint_costs::table(&json).join("\n");
    let profile = crate::mint_costs::profile_line(&json);
    if !profile.is_empty() {
        block += &format!("\n\n{profile}");
    }
    Ok(block)
}

/// The languages' own benchmarks: ns per ID of uuid, fast and counter.
fn native_mint(root: &Path, doc: &Path) -> Result<String> {
    let mut out = String::from("| language | tool | uuid ns/ID | fast ns/ID | counter ns/ID | recorded |\n");
    out += "|---|---|---:|---:|---:|---|\n";
    for lang in ["node", "java", "go", "csharp", "python"] {
        let file = format!("sdk-{lang}-mint");
        let json = load(root, &file)?;
        let ns = |name: &str| {
            let median = f(&strategy(&json, name)["ns_per_id"]["median"]);
            if median.is_nan() { "-".into() } else { format!("{median:.2}") }
        };
        let md = format!("results/{file}.md");
        out += &format!(
            "| [{lang}]({}) | {} | {} | {} | {} | {} ({}) |\n",
            link(doc, &md),
            json["tool"].as_str().unwrap_or("?"),
            ns("uuid"),
            ns("fast"),
            ns("counter"),
            when(&json),
            machine(&json)
        );
    }
    Ok(out)
}

/// One line per committed result file: what it answers, its command and its headline.
fn results_index(root: &Path) -> Result<String> {
    let mut files: Vec<String> =
        committed_results(root)?.iter().filter_map(|n| n.strip_suffix(".json").map(str::to_owned)).collect();
    files.sort();
    let mut out = String::from("| result | what it answers | recorded | command | headline |\n|---|---|---|---|---|\n");
    for file in files {
        let json = load(root, &file)?;
        let (question, headline) = summary(&json);
        out += &format!(
            "| [{file}]({file}.md) | {question} | {} ({}) | `{}` | {headline} |\n",
            when(&json),
            machine(&json),
            json["command"].as_str().unwrap_or("?").replace('|', "\\|")
        );
    }
    Ok(out)
}

/// The file names git tracks in results/: the committed results, and not the reports a local
/// `scripts/bench.sh` wrote beside them (outside a git checkout: every file there).
fn committed_results(root: &Path) -> Result<Vec<String>> {
    let listed = std::process::Command::new("git").arg("-C").arg(root).args(["ls-files", "--", "results"]).output();
    match listed {
        Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("results/"))
            .filter(|n| !n.contains('/'))
            .map(str::to_owned)
            .collect()),
        _ => Ok(std::fs::read_dir(root.join("results"))?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect()),
    }
}

/// A result file's question and headline, by the kind of file its writer makes.
fn summary(json: &Value) -> (String, String) {
    if let Some(workloads) = json["workloads"].as_array() {
        let question =
            json["description"].as_str().map_or_else(|| arms_compared(&workloads[0]["settings"]), str::to_owned);
        return (question, run_headline(workloads));
    }
    if let Some(cells) = json["cells"].as_array() {
        let designs: Vec<&str> = cells.iter().filter_map(|c| c["design"].as_str()).fold(Vec::new(), |mut v, d| {
            if !v.contains(&d) {
                v.push(d)
            }
            v
        });
        let met = json["targets"].as_array().map_or(0, |t| t.iter().filter(|t| t["met"] == true).count());
        let all = json["targets"].as_array().map_or(0, Vec::len);
        return (
            format!("What this machine can detect ({})", designs.join(", ")),
            format!("{met} of {all} targets met"),
        );
    }
    if json["duplicates"].is_number() {
        return (
            "Do IDs repeat across forked, raw-cloned and spawned processes?".into(),
            format!("{} IDs, {} duplicates", json["ids"], json["duplicates"]),
        );
    }
    let strategy = |name: &str| strategy(json, name);
    if let Some(lang) = json["lang"].as_str() {
        return (
            format!("What one ID costs in {lang}'s own benchmark tool, per strategy"),
            format!(
                "fast {:.2} ns/ID, uuid {:.2}",
                f(&strategy("fast")["ns_per_id"]["median"]),
                f(&strategy("uuid")["ns_per_id"]["median"])
            ),
        );
    }
    let fast = strategy("fast");
    (
        "What one ID costs per Rust strategy: instructions, getrandom calls, ns".into(),
        format!("fast {:.2} Ir/ID, {:.2} ns/ID", f(&fast["ir_per_id"]), f(&fast["ns_per_id"]["median"])),
    )
}

/// What a run without a description compared, from its first workload's settings.
fn arms_compared(settings: &Value) -> String {
    let list = |key: &str| {
        settings[key].as_array().into_iter().flatten().filter_map(Value::as_str).collect::<Vec<_>>().join(", ")
    };
    let design = settings["design"].as_str().unwrap_or(if settings["paired"] == true { "paired" } else { "processes" });
    let what =
        if settings["mode"] == "mint" { "IDs/s".to_owned() } else { format!("{} B messages", message_bytes(settings)) };
    format!("{} of SDK rows {} ({what}, {design})", list("msg_ids"), list("sdks"))
}

/// A run report's headline: its comparisons' verdicts, and the control's A/A interval.
fn run_headline(workloads: &[Value]) -> String {
    let cmps: Vec<&Value> =
        workloads.iter().flat_map(|w| w["analysis"]["comparisons"].as_array().into_iter().flatten()).collect();
    let count = |v: &str| cmps.iter().filter(|c| c["verdict"] == v).count();
    let mut parts = Vec::new();
    if !cmps.is_empty() {
        let (faster, slower, ties) = (count("faster"), count("slower"), count("noise"));
        parts.push(format!("{} comparisons: {faster} faster, {slower} slower, {ties} ties", cmps.len()));
    }
    let spreads: Vec<f64> = workloads
        .iter()
        .flat_map(|w| w["analysis"]["arms"].as_array().into_iter().flatten())
        .filter_map(|a| a["summary"]["stddev_pct"].as_f64())
        .collect();
    if cmps.is_empty() && !spreads.is_empty() {
        let (lo, hi) = spreads.iter().fold((f64::MAX, f64::MIN), |(lo, hi), s| (lo.min(*s), hi.max(*s)));
        parts.push(format!("arms' run spread {lo:.1}% .. {hi:.1}%"));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_message_is_its_values_in_whole_bytes() {
        assert_eq!(message_bytes(&json!({"bits": 42, "pack": 1})), "6");
        assert_eq!(message_bytes(&json!({"bits": 42, "pack": 167})), "1002");
        assert_eq!(message_bytes(&json!({"bits": 0, "pack": 1})), "?");
    }

    #[test]
    fn a_rows_seconds_count_each_launch_once_and_only_its_own_arms() {
        let run = |order: u64, s: f64| json!({"order": order, "launch_s": s});
        // Lock-step: uuid, fast and the twin share each set's launch; go's set is another row.
        let lockstep = json!({"arms": [
            {"sdk": "rust", "msg_id": "uuid", "runs": [run(1, 2.0), run(3, 2.5)]},
            {"sdk": "rust", "msg_id": "fast", "runs": [run(1, 2.0), run(3, 2.5)]},
            {"sdk": "rust", "msg_id": "uuid", "twin": true, "runs": [run(1, 2.0), run(3, 2.5)]},
            {"sdk": "go", "msg_id": "uuid", "runs": [run(2, 9.0)]},
        ]});
        let cmp = json!({"sdk": "rust", "before": "uuid", "after": "fast"});
        assert_eq!(row_seconds(&lockstep, &cmp), 4.5);
        let twin = json!({"sdk": "rust", "before": "uuid", "after": "uuid (A/A twin)"});
        assert_eq!(row_seconds(&lockstep, &twin), 4.5);
        // One process per arm: every run is a launch of its own.
        let processes = json!({"arms": [
            {"sdk": "rust", "msg_id": "uuid", "runs": [run(1, 1.0), run(4, 1.0)]},
            {"sdk": "rust", "msg_id": "fast", "runs": [run(2, 0.5), run(3, 0.5)]},
        ]});
        assert_eq!(row_seconds(&processes, &cmp), 3.0);
    }

    #[test]
    fn a_verdict_reads_its_paired_interval_and_a_tie_its_half_width() {
        let paired = |verdict: &str| {
            json!({"verdict": verdict, "ratio": 9.0, "ratio_ci95": [8.0, 10.0],
                   "paired": {"ratio": 1.5, "ratio_ci95": [1.4, 1.6], "half_width_pct": 6.5}})
        };
        assert_eq!(verdict(&paired("faster")), "1.500x (1.400x .. 1.600x), faster");
        // A tie's half-width is its interval's, relative to the ratio, whatever the file recorded.
        assert_eq!(verdict(&paired("noise")), "tie, 1.500x ±6.67%");
        let across = json!({"verdict": "noise", "ratio": 1.0, "ratio_ci95": [0.98, 1.02]});
        assert_eq!(verdict(&across), "tie, 1.000x ±2.00%");
        // The median block joins where its interval parts from the verdict's, and only there.
        let with_median = |lo: f64, hi: f64| {
            let mut cmp = paired("faster");
            cmp["median"] = json!({"ratio": (lo + hi) / 2.0, "ratio_ci95": [lo, hi]});
            verdict(&cmp)
        };
        assert_eq!(with_median(1.7, 1.9), "1.500x (1.400x .. 1.600x), faster; median block 1.800x (1.700x .. 1.900x)");
        assert_eq!(with_median(1.55, 1.7), "1.500x (1.400x .. 1.600x), faster");
    }
    #[test]
    fn each_file_makes_one_column_and_says_how_its_rounds_ran() {
        let root = std::env::temp_dir().join(format!("mintbench-blocks-{}", std::process::id()));
        std::fs::create_dir_all(root.join("results")).unwrap();
        let report = |half: f64, split: Option<&str>| {
            json!({"command": "c", "started": "t", "machine": "m", "workloads": [{
                "settings": {"design": "lockstep", "bits": 42, "pack": 1, "split": split},
                "arms": [{"sdk": "node", "msg_id": "uuid", "runs": [{"order": 1, "launch_s": 10.0}, {"order": 2, "launch_s": 10.0}]}],
                "analysis": {"comparisons": [], "twins": [{"sdk": "node", "before": "uuid",
                    "after": "uuid (A/A twin)", "ratio": 1.0, "ratio_ci95": [1.0 - half, 1.0 + half]}]}}]})
        };
        for (name, json) in [("base", report(0.02, None)), ("split", report(0.01, Some("results/base.json")))] {
            std::fs::write(root.join("results").join(format!("{name}.json")), json.to_string()).unwrap();
        }
        let doc = root.join("docs").join("method.md");
        let out = designs(&root, &doc, "base split").unwrap();
        assert!(
            out.contains(
                "**6 B messages.** base: REPEAT rounds. split: each row's rounds as SPLIT=results/base.json advised."
            ),
            "{out}"
        );
        assert!(out.contains("| row | compared | base ±% (s) | split ±% (s) | split / base |"), "{out}");
        assert!(out.contains("| node | uuid (A/A twin) / uuid | ±2.00 (20) | ±1.00 (20) | 0.5x | 0.5x |"), "{out}");
        // One file of one design: its column alone, nothing to divide.
        let alone = designs(&root, &doc, "split").unwrap();
        assert!(alone.contains("| row | compared | lockstep ±% (s) |\n|---|---|---|\n"), "{alone}");
        assert!(alone.contains("| node | uuid (A/A twin) / uuid | ±1.00 (20) |\n"), "{alone}");
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn a_calibration_with_stolen_launches_shows_them_counted_beneath() {
        let root = std::env::temp_dir().join(format!("mintbench-calibration-{}", std::process::id()));
        std::fs::create_dir_all(root.join("results")).unwrap();
        let cell = |level: f64, detected: u32, counted: Option<Value>| {
            let mut c = json!({"design": "lockstep", "sdk": "rust", "metric": "wall", "injected_pct": level,
                               "rounds": 40, "detected": detected, "spread_pct": 1.25});
            if let Some(counted) = counted {
                c["if_counted"] = counted;
            }
            c
        };
        let write = |cells: Vec<Value>| {
            let json = json!({"command": "c", "started": "t", "machine": "m", "cells": cells, "targets": []});
            std::fs::write(root.join("results/cal.json"), json.to_string()).unwrap();
            calibration(&root, &root.join("docs/method.md"), "cal").unwrap()
        };
        // The 1% level lost no launch: it counts as it was.
        let out = write(vec![
            cell(0.0, 1, Some(json!({"detected": 3, "observed_change_pct": 0.0, "spread_pct": 1.5}))),
            cell(1.0, 35, None),
        ]);
        assert!(out.contains("| lockstep | rust | 1 of 40 | 35 of 40 | 1.25% |\n"), "{out}");
        assert!(
            out.contains("| lockstep, had the stolen launches counted | rust | 3 of 40 | 35 of 40 | 1.50% |\n"),
            "{out}"
        );
        // None stolen (or STOLEN=count): the row alone.
        let out = write(vec![cell(0.0, 1, None), cell(1.0, 35, None)]);
        assert!(!out.contains("had the stolen"), "{out}");
        std::fs::remove_dir_all(root).unwrap();
    }
}
