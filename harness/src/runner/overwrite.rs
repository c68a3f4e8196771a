//! The one rule for replacing a report: a complete report is never silently replaced by a run
//! that would hold less of any workload. A run is refused before it starts when
//! `<results-dir>/<NAME>.json` is complete and one of its workloads has more timed runs
//! (REPEAT) or more messages per run (MESSAGES) than this run's workload of the same name, or
//! is missing from this run; FORCE replaces it anyway. An incomplete report, or one this run
//! matches or exceeds in every workload, is replaced.

use std::path::Path;

use anyhow::bail;
use serde::Deserialize;

use super::settings::Settings;

/// What a report on disk holds, as far as the rule asks.
#[derive(Deserialize)]
struct Held {
    complete: bool,
    workloads: Vec<HeldWorkload>,
}

#[derive(Deserialize)]
struct HeldWorkload {
    name: String,
    settings: HeldSettings,
}

#[derive(Deserialize)]
struct HeldSettings {
    repeat: u32,
    messages: u64,
}

/// Refuses to run when `report` (a JSON report, if present) holds more than `planned`, naming
/// the file and why. A file that is not a report of this shape is not ours to judge: replaced.
pub fn check(report: &Path, planned: &[&Settings], force: bool) -> anyhow::Result<()> {
    if force {
        return Ok(());
    }
    let Ok(text) = std::fs::read_to_string(report) else { return Ok(()) };
    let Ok(held) = serde_json::from_str::<Held>(&text) else { return Ok(()) };
    if let Some(why) = fuller(&held, planned) {
        bail!("{} is a complete report with {why}; give another NAME or RESULTS_DIR, or FORCE=true (--force) to replace it", report.display());
    }
    Ok(())
}

/// Why `held` holds more than `planned` would, if it does.
fn fuller(held: &Held, planned: &[&Settings]) -> Option<String> {
    if !held.complete {
        return None;
    }
    held.workloads.iter().find_map(|h| {
        let Some(p) = planned.iter().find(|p| p.name == h.name) else {
            return Some(format!("workload {}, which this run does not have", h.name));
        };
        let s = &h.settings;
        if s.repeat > p.repeat {
            Some(format!("REPEAT={} in workload {} (this run: REPEAT={})", s.repeat, h.name, p.repeat))
        } else if s.messages > p.messages {
            Some(format!("MESSAGES={} in workload {} (this run: MESSAGES={})", s.messages, h.name, p.messages))
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::settings::Layer;

    fn planned(repeat: u32, messages: u64) -> Settings {
        let mut s = Layer::default().resolve(Some("w")).unwrap().0;
        (s.repeat, s.messages) = (repeat, messages);
        s
    }

    fn held(complete: bool, name: &str, repeat: u32, messages: u64) -> Held {
        Held { complete, workloads: vec![HeldWorkload { name: name.into(), settings: HeldSettings { repeat, messages } }] }
    }

    #[test]
    fn a_complete_fuller_report_is_kept() {
        let small = planned(1, 100_000);
        assert_eq!(fuller(&held(true, "w", 10, 100_000), &[&small]).unwrap(), "REPEAT=10 in workload w (this run: REPEAT=1)");
        assert_eq!(fuller(&held(true, "w", 1, 1_000_000), &[&small]).unwrap(), "MESSAGES=1000000 in workload w (this run: MESSAGES=100000)");
        assert_eq!(fuller(&held(true, "other", 1, 1), &[&small]).unwrap(), "workload other, which this run does not have");
    }

    #[test]
    fn an_incomplete_or_smaller_report_is_replaced() {
        let run = planned(10, 1_000_000);
        assert!(fuller(&held(false, "w", 20, 2_000_000), &[&run]).is_none());
        assert!(fuller(&held(true, "w", 10, 1_000_000), &[&run]).is_none());
        assert!(fuller(&held(true, "w", 3, 20_000), &[&run]).is_none());
    }

    #[test]
    fn the_refusal_names_the_file_and_force_overrides_it() {
        let dir = std::env::temp_dir().join(format!("mintbench-overwrite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("w.json");
        std::fs::write(&file, r#"{"complete":true,"workloads":[{"name":"w","settings":{"repeat":10,"messages":1000000}}]}"#).unwrap();
        let small = planned(1, 100_000);
        let err = check(&file, &[&small], false).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{} is a complete report with REPEAT=10", file.display())), "{err}");
        assert!(check(&file, &[&small], true).is_ok());
        assert!(check(&dir.join("absent.json"), &[&small], false).is_ok());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
