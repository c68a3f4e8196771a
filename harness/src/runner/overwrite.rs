//! The one rule for replacing a report: a complete report is never silently replaced by a run
//! that would hold less of any workload. A run is refused before it starts when
//! `<results-dir>/<NAME>.json` is complete and one of its workloads has more timed runs
//! (REPEAT) or more messages per run (MESSAGES) than this run's workload of the same name, or
//! is missing from this run; FORCE replaces it anyway. An incomplete report, or one this run
//! matches or exceeds in every workload, is replaced. A calibration (`harness calibrate`) is
//! kept the same way: from a run with fewer rounds, REPEAT or MESSAGES, or without one of its
//! designs and SDKs.

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

/// A calibration on disk, as far as the rule asks.
#[derive(Deserialize)]
struct HeldCalibration {
    rounds: u32,
    settings: HeldSettings,
    cells: Vec<HeldCell>,
}

#[derive(Deserialize)]
struct HeldCell {
    design: String,
    sdk: String,
}

/// Refuses to run when `report` (a JSON report, if present) holds more than `planned`, naming
/// the file and why. A file that is not a report of this shape is not ours to judge: replaced.
pub fn check(report: &Path, planned: &[&Settings], force: bool) -> anyhow::Result<()> {
    refuse_if(report, force, |held: Held| fuller(&held, planned))
}

/// The same for a calibration of `rounds` rounds of `planned`'s size, over `cells` (design, SDK).
pub fn check_calibration(
    report: &Path,
    rounds: u32,
    planned: &Settings,
    cells: &[(&str, &str)],
    force: bool,
) -> anyhow::Result<()> {
    refuse_if(report, force, |held: HeldCalibration| fuller_calibration(&held, rounds, planned, cells))
}

fn refuse_if<H: serde::de::DeserializeOwned>(
    report: &Path,
    force: bool,
    fuller: impl FnOnce(H) -> Option<String>,
) -> anyhow::Result<()> {
    if force {
        return Ok(());
    }
    let Ok(text) = std::fs::read_to_string(report) else { return Ok(()) };
    let Ok(held) = serde_json::from_str::<H>(&text) else { return Ok(()) };
    if let Some(why) = fuller(held) {
        bail!(
            "{} is a complete report with {why}; give another NAME or RESULTS_DIR, or FORCE=true (--force) to replace it",
            report.display()
        );
    }
    Ok(())
}

fn fuller_calibration(
    held: &HeldCalibration,
    rounds: u32,
    planned: &Settings,
    cells: &[(&str, &str)],
) -> Option<String> {
    let s = &held.settings;
    if held.rounds > rounds {
        Some(format!("{} rounds (this run: {rounds})", held.rounds))
    } else if s.repeat > planned.repeat {
        Some(format!("REPEAT={} (this run: REPEAT={})", s.repeat, planned.repeat))
    } else if s.messages > planned.messages {
        Some(format!("MESSAGES={} (this run: MESSAGES={})", s.messages, planned.messages))
    } else {
        let missing = held.cells.iter().find(|c| !cells.contains(&(c.design.as_str(), c.sdk.as_str())))?;
        Some(format!("the {} design for SDK {}, which this run does not calibrate", missing.design, missing.sdk))
    }
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
        Held {
            complete,
            workloads: vec![HeldWorkload { name: name.into(), settings: HeldSettings { repeat, messages } }],
        }
    }

    #[test]
    fn a_complete_fuller_report_is_kept() {
        let small = planned(1, 100_000);
        assert_eq!(
            fuller(&held(true, "w", 10, 100_000), &[&small]).unwrap(),
            "REPEAT=10 in workload w (this run: REPEAT=1)"
        );
        assert_eq!(
            fuller(&held(true, "w", 1, 1_000_000), &[&small]).unwrap(),
            "MESSAGES=1000000 in workload w (this run: MESSAGES=100000)"
        );
        assert_eq!(
            fuller(&held(true, "other", 1, 1), &[&small]).unwrap(),
            "workload other, which this run does not have"
        );
    }

    #[test]
    fn an_incomplete_or_smaller_report_is_replaced() {
        let run = planned(10, 1_000_000);
        assert!(fuller(&held(false, "w", 20, 2_000_000), &[&run]).is_none());
        assert!(fuller(&held(true, "w", 10, 1_000_000), &[&run]).is_none());
        assert!(fuller(&held(true, "w", 3, 20_000), &[&run]).is_none());
    }

    #[test]
    fn a_calibration_is_kept_from_a_smaller_one() {
        let held = HeldCalibration {
            rounds: 20,
            settings: HeldSettings { repeat: 10, messages: 1_000_000 },
            cells: vec![
                HeldCell { design: "paired".into(), sdk: "rust".into() },
                HeldCell { design: "processes".into(), sdk: "rust".into() },
            ],
        };
        let run = planned(10, 1_000_000);
        let both = [("paired", "rust"), ("processes", "rust")];
        assert_eq!(fuller_calibration(&held, 1, &run, &both).unwrap(), "20 rounds (this run: 1)");
        assert_eq!(
            fuller_calibration(&held, 20, &planned(3, 1_000_000), &both).unwrap(),
            "REPEAT=10 (this run: REPEAT=3)"
        );
        assert_eq!(
            fuller_calibration(&held, 20, &run, &[("paired", "rust")]).unwrap(),
            "the processes design for SDK rust, which this run does not calibrate"
        );
        assert!(fuller_calibration(&held, 20, &run, &both).is_none());
        assert!(
            fuller_calibration(&held, 40, &run, &[("paired", "rust"), ("processes", "rust"), ("paired", "java")])
                .is_none()
        );
    }

    #[test]
    fn the_refusal_names_the_file_and_force_overrides_it() {
        let dir = std::env::temp_dir().join(format!("mintbench-overwrite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("w.json");
        std::fs::write(
            &file,
            r#"{"complete":true,"workloads":[{"name":"w","settings":{"repeat":10,"messages":1000000}}]}"#,
        )
        .unwrap();
        let small = planned(1, 100_000);
        let err = check(&file, &[&small], false).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{} is a complete report with REPEAT=10", file.display())), "{err}");
        assert!(check(&file, &[&small], true).is_ok());
        assert!(check(&dir.join("absent.json"), &[&small], false).is_ok());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
