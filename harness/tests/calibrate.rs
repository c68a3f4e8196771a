//! `harness calibrate` end to end on a tiny scale, and the counts that do not depend on noise.

mod common;

use common::{fails_with, harness, scratch};

/// Held by every test that runs a calibration. Tests run in parallel, and a calibration measures
/// its base arm first and scales its injected slowdowns from it: another calibration running
/// beside that measurement (two CPUs) makes the base read slow and the slowdowns far larger than
/// the levels they are named for.
static ONE_CALIBRATION: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn calibration_reports_a_cell_per_design_sdk_and_level() {
    let _alone = ONE_CALIBRATION.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("calibrate");
    let out = harness()
        .args([
            "calibrate",
            "--rounds",
            "2",
            "--repeat",
            "3",
            "--messages",
            "20000",
            "--slowdowns",
            "2,5",
            "--design",
            "lockstep,paired,processes",
            "--results-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
    let cells = json["cells"].as_array().unwrap();
    let keys: Vec<String> = cells
        .iter()
        .map(|c| format!("{} {} {}", c["design"].as_str().unwrap(), c["metric"].as_str().unwrap(), c["injected_pct"]))
        .collect();
    // Processes judges the same runs by wall and by CPU time.
    let expected = [
        "lockstep wall 0.0",
        "lockstep wall 2.0",
        "lockstep wall 5.0",
        "paired wall 0.0",
        "paired wall 2.0",
        "paired wall 5.0",
        "processes wall 0.0",
        "processes wall 2.0",
        "processes wall 5.0",
        "processes cpu 0.0",
        "processes cpu 2.0",
        "processes cpu 5.0",
    ];
    assert_eq!(keys, expected);
    for c in cells {
        // Paired and lock-step, every slowed level's processes (sets) carry an A/A twin: 2 rounds
        // x 2 levels trials.
        let paired_aa = c["design"] != "processes" && c["injected_pct"] == 0.0;
        assert_eq!(
            (c["sdk"].as_str(), c["rounds"].as_u64()),
            (Some("rust"), Some(if paired_aa { 4 } else { 2 })),
            "{c}"
        );
        // There, the copy is judged by the whole rule; the twin's own test is counted apart.
        assert_eq!(c["twin_alarms"].is_u64(), paired_aa, "{c}");
        for key in ["detected", "expected_change_pct", "observed_change_pct"] {
            assert!(!c[key].is_null(), "{key} in {c}");
        }
        // The expected change comes from the injected time the producers measured: none at 0%,
        // and a slowdown wherever something was injected.
        let expected = c["expected_change_pct"].as_f64().unwrap();
        if c["injected_pct"] == 0.0 { assert_eq!(expected, 0.0) } else { assert!(expected < 0.0, "{c}") }
    }
    // Each design's levels are shares of one base, measured in the statistic that design's
    // expected change divides by, so a k% copy's expected change by wall time is near
    // -k/(100+k) (here -4.76% at 5%; loose bounds, the runs are tiny).
    for design in ["lockstep", "paired", "processes"] {
        let level = |pct: f64| {
            cells.iter().find(|c| c["design"] == design && c["metric"] == "wall" && c["injected_pct"] == pct).unwrap()
        };
        let ns = |pct: f64| level(pct)["inject_ns"].as_f64().unwrap();
        assert!((ns(5.0) / ns(2.0) - 2.5).abs() < 0.02, "{design}: {} and {} ns/msg", ns(2.0), ns(5.0));
        let expected = level(5.0)["expected_change_pct"].as_f64().unwrap();
        assert!((-10.0..-2.5).contains(&expected), "{design}: expected change {expected}% at 5%");
    }
    let command = json["command"].as_str().unwrap();
    assert!(
        command
            .contains("calibrate --design lockstep,paired,processes --sdk rust --rounds 2 --slowdowns 2,5 --repeat 3"),
        "{command}"
    );
    let md = std::fs::read_to_string(dir.join("calibration.md")).unwrap();
    assert!(
        md.contains("| lockstep | rust | 0% |")
            && md.contains("| paired | rust | 0% | 0 | 4 |")
            && md.contains("(twin's own test: ")
            && md.contains("| processes | rust | 5% |")
            && md.contains("| processes (cpu) | rust | 5% |"),
        "{md}"
    );
    // A smaller calibration does not replace it unasked.
    let report = dir.join("calibration.json");
    fails_with(
        &["calibrate", "--rounds", "1", "--results-dir", dir.to_str().unwrap()],
        &format!("{} is a complete report with 2 rounds (this run: 1)", report.display()),
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn under_precision_each_trial_runs_until_its_interval_is_as_narrow_as_asked() {
    let _alone = ONE_CALIBRATION.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("calibrate-precision");
    let out = harness()
        .args(["calibrate", "--design", "paired", "--rounds", "1", "--repeat", "2", "--messages", "20000"])
        .args(["--slowdowns", "5", "--precision", "50", "--results-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
    // Every trial runs REPEAT processes at least, then stops once its intervals are narrow
    // (a loose 50% here, so the test stays short), and says how many it ran.
    for j in json["judged"].as_array().unwrap() {
        assert!(j["processes"].as_u64().unwrap() >= 2, "{j}");
    }
    for c in json["cells"].as_array().unwrap() {
        assert!(c["processes_mean"].as_f64().unwrap() >= 2.0, "{c}");
    }
    let targets = json["targets"].as_array().unwrap();
    assert!(targets.iter().any(|t| t["target"].as_str().unwrap().contains("under PRECISION=50%")), "{targets:?}");
    let md = std::fs::read_to_string(dir.join("calibration.md")).unwrap();
    assert!(
        md.contains("- PRECISION=50%: each trial ran REPEAT processes, then more") && md.contains("processes each)")
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn calibration_settings_are_checked() {
    fails_with(
        &["calibrate", "--precision", "1"],
        "--precision 1% applies to the lockstep and paired designs only: give --design lockstep or paired, or drop --precision",
    );
    fails_with(&["calibrate", "--design", "paired", "--precision", "0"], "PRECISION=0 is out of range");
    fails_with(&["calibrate", "--suites", "0"], "--suites 0 is out of range");
    fails_with(&["calibrate", "--slowdowns", "5,-1"], "--slowdowns -1 is out of range");
    fails_with(&["calibrate", "--messages", "10"], "MESSAGES=10 is below BATCH=1000");
    fails_with(&["calibrate", "--design", "duet"], "--design duet is unknown; expected lockstep, paired or processes");
    fails_with(&["calibrate", "--sdk", "cobol"], "SDK=cobol is unknown");
    fails_with(&["calibrate", "--design", "paired,paired"], "--design lists paired twice");
    fails_with(&["calibrate", "--slowdowns", "1,5,1"], "--slowdowns lists 1 twice");
    fails_with(&["calibrate", "--rounds", "-1"], "--rounds -1 is not valid");
    fails_with(&["calibrate", "--name", ".."], "NAME=\"..\" must be a plain file name");
}
