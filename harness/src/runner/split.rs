//! SPLIT: each SDK row run at the split its Budget line in an earlier report advised, MESSAGES
//! (with that WARMUP) and REPEAT of its own, so each row's time goes where its variance lives:
//! many short launches where launches differ more than their blocks, few long ones where
//! start-up is dear. The earlier report is the measurement (its rows' start-up, cost per message
//! and spread); this run is the one the advice is for, every launch of a row alike.

use serde::{Deserialize, Serialize};

/// One row's launches: how many messages each (warm-up included), the warm-up, how many rounds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowSplit {
    pub row: String,
    pub messages: u64,
    pub warmup: u64,
    pub repeat: u32,
}

/// What a report's workload holds of its Budget lines (`runner::allocation::Allocation`).
#[derive(Deserialize)]
struct Written {
    name: String,
    #[serde(default)]
    allocations: Vec<WrittenAllocation>,
}

#[derive(Deserialize)]
struct WrittenAllocation {
    /// `ROW ARM against BASE`: it starts with its row's name.
    comparison: String,
    best_messages: u64,
    warmup: u64,
    best_rounds: usize,
}

#[derive(Deserialize)]
struct WrittenReport {
    workloads: Vec<Written>,
}

/// The splits of `rows` in workload `workload` of the report at `path` (or its only workload),
/// or why not (the message names SPLIT, the file and what is missing). Each group of `rows` is
/// one launch's (a built-in row alone; rows of one's own together, one lock-step set with one
/// Budget line): every row of a group takes the line any of them has.
pub fn read(path: &str, workload: &str, rows: &[Vec<String>]) -> anyhow::Result<Vec<RowSplit>> {
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
        let row_of =
            |a: &&WrittenAllocation| a.comparison.split(' ').next().is_some_and(|r| group.iter().any(|g| g == r));
        let Some(advice) = written.allocations.iter().find(row_of) else {
            anyhow::bail!(
                "SPLIT={path} has no Budget line for row {} in workload {workload}: a lock-step or paired report of at least 3 rounds has one per row",
                group.join(" or ")
            );
        };
        splits.extend(group.iter().map(|row| RowSplit {
            row: row.clone(),
            messages: advice.best_messages,
            warmup: advice.warmup,
            repeat: u32::try_from(advice.best_rounds).unwrap_or(u32::MAX),
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

    const REPORT: &str = r#"{"workloads": [{"name": "pack167"}, {"name": "bits42", "allocations": [
        {"comparison": "node uuid (A/A twin) against uuid", "best_messages": 311000, "warmup": 100000, "best_rounds": 27},
        {"comparison": "go fast against uuid", "best_messages": 2000000, "warmup": 100000, "best_rounds": 5}]}]}"#;

    #[test]
    fn each_row_takes_its_own_budget_line() {
        let path = written("rows", REPORT);
        let rows = read(&path, "bits42", &[vec!["go".into()], vec!["node".into()]]).unwrap();
        assert_eq!(
            rows,
            [
                RowSplit { row: "go".into(), messages: 2_000_000, warmup: 100_000, repeat: 5 },
                RowSplit { row: "node".into(), messages: 311_000, warmup: 100_000, repeat: 27 },
            ]
        );
        // Rows of one's own share a set and its one line, whichever of them it names.
        let own = read(&path, "bits42", &[vec!["master".into(), "node".into()]]).unwrap();
        assert_eq!(own.iter().map(|r| (r.row.as_str(), r.repeat)).collect::<Vec<_>>(), [("master", 27), ("node", 27)]);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn a_missing_workload_row_or_file_is_named() {
        let path = written("missing", REPORT);
        let err = |w: &str, rows: &[&str]| {
            read(&path, w, &rows.iter().map(|r| vec![r.to_string()]).collect::<Vec<_>>()).unwrap_err().to_string()
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
        assert_eq!(read(&one, "my-branch", &[vec!["go".into()]]).unwrap()[0].repeat, 5);
        std::fs::remove_file(one).unwrap();
        let bad = written("bad", "{\"workloads\": 3}");
        let e = read(&bad, "bits42", &[]).unwrap_err().to_string();
        assert!(e.starts_with(&format!("SPLIT={bad} is not a report `harness run` wrote as JSON")), "{e}");
        std::fs::remove_file(bad).unwrap();
    }
}
