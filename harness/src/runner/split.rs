//! SPLIT: each SDK row run at the split that an earlier report's measurement of it advises,
//! MESSAGES (with that WARMUP) and REPEAT of its own, so each row's time goes where its variance
//! lives: many short launches where launches differ more than their blocks, few long ones where
//! start-up is dear. The earlier report is the measurement (its rows' start-up, cost per message
//! and spread, as its Budget lines keep them); the advice is today's model's
//! (`runner::advice`), not the one that report printed; this run is the one it is for, every
//! launch of a row alike.

use serde::{Deserialize, Serialize};

use super::advice::Measured;

/// One row's launches: how many messages each (warm-up included), the warm-up, how many rounds,
/// and the measurement they were advised from (what this run's launches are held against).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowSplit {
    pub row: String,
    pub messages: u64,
    pub warmup: u64,
    pub repeat: u32,
    pub from: Measured,
}

/// What a report's workload holds of its Budget lines.
#[derive(Deserialize)]
struct Written {
    name: String,
    #[serde(default)]
    allocations: Vec<Measured>,
}

#[derive(Deserialize)]
struct WrittenReport {
    workloads: Vec<Written>,
}

/// The splits of `rows` in workload `workload` of the report at `path` (or its only workload),
/// in launches of whole `batch`es, or why not (the message names SPLIT, the file and what is
/// missing). Each group of `rows` is one launch's (a built-in row alone; rows of one's own
/// together, one lock-step set with one Budget line): every row of a group takes the line any of
/// them has.
pub fn read(path: &str, workload: &str, rows: &[Vec<String>], batch: u32) -> anyhow::Result<Vec<RowSplit>> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("SPLIT={path} cannot be read: {e}"))?;
    let report: WrittenReport = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("SPLIT={path} is not a report `harness run` wrote as JSON: {e}"))?;
    let names = || report.workloads.iter().map(|w| w.name.as_str()).collect::<Vec<_>>().join(", ");
    // A run of flags alone is one workload named after its report: the earlier report's only
    // workload is the one it repeats.
    let only = match &report.workloads[..] {
        [one] => Some(one),
        _ => None,
    };
    let Some(written) = report.workloads.iter().find(|w| w.name == workload).or(only) else {
        anyhow::bail!("SPLIT={path} has no workload {workload} (it has: {})", names());
    };
    let mut splits = Vec::new();
    for group in rows {
        let row_of = |a: &&Measured| a.comparison.split(' ').next().is_some_and(|r| group.iter().any(|g| g == r));
        let Some(measured) = written.allocations.iter().find(row_of) else {
            anyhow::bail!(
                "SPLIT={path} has no Budget line for row {} in workload {workload}: a lock-step or paired report of at least 3 rounds has one per row",
                group.join(" or ")
            );
        };
        if measured.messages <= measured.warmup {
            anyhow::bail!(
                "SPLIT={path}: the Budget line of {} timed no messages (MESSAGES={} WARMUP={})",
                measured.comparison,
                measured.messages,
                measured.warmup
            );
        }
        let advice = measured.clone().advise(batch);
        splits.extend(group.iter().map(|row| RowSplit {
            row: row.clone(),
            messages: advice.best_messages,
            warmup: measured.warmup,
            repeat: u32::try_from(advice.best_rounds).unwrap_or(u32::MAX),
            from: measured.clone(),
        }));
    }
    Ok(splits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(name: &str, json: &str) -> String {
        let path = std::env::temp_dir().join(format!("mintbench-split-{}-{name}.json", std::process::id()));
        std::fs::write(&path, json).unwrap();
        path.to_string_lossy().into_owned()
    }

    // Two Budget lines of a lock-step report as it keeps them, with the advice it printed then
    // (stale on purpose: this run's is today's model's, from the measurement beside it).
    const REPORT: &str = r#"{"workloads": [{"name": "pack167"}, {"name": "bits42", "allocations": [
        {"comparison": "node uuid (A/A twin) against uuid", "fixed_s_per_round": 2.16, "ns_per_message_per_round": 11480.0,
         "between_pct": 1.81, "within_pct": 0.72, "budget_s": 124.9, "messages": 1000000, "warmup": 100000, "rounds": 10,
         "half_width_pct": 1.39, "best_messages": 311000, "best_rounds": 27},
        {"comparison": "go fast against uuid", "fixed_s_per_round": 0.18, "ns_per_message_per_round": 1180.0,
         "between_pct": 0.37, "within_pct": 0.71, "budget_s": 12.4, "messages": 1000000, "warmup": 100000, "rounds": 10,
         "half_width_pct": 0.57, "best_messages": 2000000, "best_rounds": 5}]}]}"#;

    /// A line of REPORT's as today's model advises it.
    fn advised(line: usize) -> (u64, u32) {
        let report: WrittenReport = serde_json::from_str(REPORT).unwrap();
        let a = report.workloads[1].allocations[line].clone().advise(1000);
        (a.best_messages, a.best_rounds as u32)
    }

    #[test]
    fn each_row_takes_the_advice_of_its_own_budget_line_s_measurement() {
        let path = written("rows", REPORT);
        let rows = read(&path, "bits42", &[vec!["go".into()], vec!["node".into()]], 1000).unwrap();
        let ((node_m, node_n), (go_m, go_n)) = (advised(0), advised(1));
        assert_eq!(
            rows.iter().map(|r| (r.row.as_str(), r.messages, r.warmup, r.repeat)).collect::<Vec<_>>(),
            [("go", go_m, 100_000, go_n), ("node", node_m, 100_000, node_n)]
        );
        // Not what the lines printed. Node's sets differ more between them than within their
        // blocks, Go's less: Node's are the shorter.
        assert!((node_m, node_n) != (311_000, 27) && (go_m, go_n) != (2_000_000, 5), "{rows:?}");
        assert!(node_m < go_m && go_m < 1_000_000 && node_n > 10, "{rows:?}");
        // Rows of one's own share a set and its one line, whichever of them it names.
        let own = read(&path, "bits42", &[vec!["master".into(), "node".into()]], 1000).unwrap();
        assert_eq!(
            own.iter().map(|r| (r.row.as_str(), r.repeat)).collect::<Vec<_>>(),
            [("master", node_n), ("node", node_n)]
        );
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn a_missing_workload_row_or_file_is_named() {
        let path = written("missing", REPORT);
        let err = |w: &str, rows: &[&str]| {
            read(&path, w, &rows.iter().map(|r| vec![r.to_string()]).collect::<Vec<_>>(), 1000).unwrap_err().to_string()
        };
        assert_eq!(err("w", &["go"]), format!("SPLIT={path} has no workload w (it has: pack167, bits42)"));
        assert!(
            err("bits42", &["go", "java"])
                .starts_with(&format!("SPLIT={path} has no Budget line for row java in workload bits42"))
        );
        // A row's name is the comparison's first word, not any word of it.
        assert!(err("bits42", &["uuid"]).contains("no Budget line for row uuid"));
        std::fs::remove_file(&path).unwrap();
        assert!(err("bits42", &["go"]).starts_with(&format!("SPLIT={path} cannot be read: ")));
        // A run of flags alone takes the only workload, whatever its name.
        let one = written("one", &REPORT.replace(r#"{"name": "pack167"}, "#, ""));
        assert_eq!(read(&one, "my-branch", &[vec!["go".into()]], 1000).unwrap()[0].repeat, advised(1).1);
        std::fs::remove_file(one).unwrap();
        let bad = written("bad", "{\"workloads\": 3}");
        let e = read(&bad, "bits42", &[], 1000).unwrap_err().to_string();
        assert!(e.starts_with(&format!("SPLIT={bad} is not a report `harness run` wrote as JSON")), "{e}");
        std::fs::remove_file(bad).unwrap();
        // A line that timed nothing is no measurement to advise from.
        let empty = written(
            "empty",
            &REPORT.replace(
                r#""messages": 1000000, "warmup": 100000, "rounds": 10,
         "half_width_pct": 0.57"#,
                r#""messages": 100000, "warmup": 100000, "rounds": 10,
         "half_width_pct": 0.57"#,
            ),
        );
        let e = read(&empty, "bits42", &[vec!["go".into()]], 1000).unwrap_err().to_string();
        assert!(e.contains("go fast against uuid timed no messages (MESSAGES=100000 WARMUP=100000)"), "{e}");
        std::fs::remove_file(empty).unwrap();
    }
}
