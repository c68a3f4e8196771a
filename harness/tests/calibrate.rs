//! `harness calibrate` end to end on a tiny scale, and the counts that do not depend on noise.

mod common;

use common::{fails_with, harness, scratch};

#[test]
fn calibration_reports_every_level_and_the_targets() {
    let dir = scratch("calibrate");
    let out = harness()
        .args(["calibrate", "--rounds", "2", "--repeat", "2", "--messages", "20000", "--results-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
    let levels = json["levels"].as_array().unwrap();
    let pct: Vec<f64> = levels.iter().map(|l| l["slowdown_pct"].as_f64().unwrap()).collect();
    assert_eq!(pct, [0.0, 2.0, 5.0, 10.0]);
    let ns: Vec<u64> = levels.iter().map(|l| l["inject_ns"].as_u64().unwrap()).collect();
    assert!(ns[0] == 0 && ns[1] >= 1 && ns[1] <= ns[2] && ns[2] < ns[3], "{ns:?}");
    // k% more time per message is k/(100+k) % fewer messages per second.
    assert!((levels[3]["expected_change_pct"].as_f64().unwrap() + 100.0 * 10.0 / 110.0).abs() < 1e-9);
    assert!(levels.iter().all(|l| l["judged"] == 2), "{levels:?}");
    assert_eq!(json["runs"].as_array().unwrap().len(), 2);
    let command = json["command"].as_str().unwrap();
    assert!(command.contains("calibrate --rounds 2 --slowdowns 2,5,10 --repeat 2 --bits 42 --pack 1 --batch 1000 --messages 20000 --warmup 2000 --timeout 300"), "{command}");
    assert_eq!(json["targets"].as_array().unwrap().len(), 2);
    let md = std::fs::read_to_string(dir.join("calibration.md")).unwrap();
    assert!(md.contains("| 0% (A/A copy) | 0 |") && md.contains("| 5% | "), "{md}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn calibration_settings_are_checked() {
    fails_with(&["calibrate", "--suites", "0"], "--suites 0 is out of range");
    fails_with(&["calibrate", "--slowdowns", "5,-1"], "--slowdowns -1 is out of range");
    fails_with(&["calibrate", "--messages", "10"], "MESSAGES=10 is below BATCH=1000");
}

#[test]
fn counts_per_message_come_from_strace() {
    if std::process::Command::new("strace").arg("-V").output().is_err() {
        eprintln!("SKIPPED: strace is not installed (apt-get install strace); the runner then warns and reports no counts");
        return;
    }
    let dir = scratch("counts");
    let out = harness()
        .args(["run", "--repeat", "1", "--messages", "20000", "--msg-id", "uuid,fast", "--name", "counts", "--format", "json"])
        .env("RESULTS_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("counts.json")).unwrap()).unwrap();
    let arms = json["workloads"][0]["arms"].as_array().unwrap();
    let counts = |msg_id: &str| arms.iter().find(|a| a["msg_id"] == msg_id && a["control"].is_null()).unwrap()["counts"].clone();
    // idgen's uuid strategy asks the OS for every ID; fast reseeds from a pool (idgen's tests).
    let (uuid, fast) = (counts("uuid"), counts("fast"));
    assert!((uuid["getrandom_per_1000_ids"].as_f64().unwrap() - 1000.0).abs() < 1.0, "{uuid}");
    assert!(fast["getrandom_per_1000_ids"].as_f64().unwrap() < 1.0, "{fast}");
    // One request and its reply per batch: at least one send and one receive.
    assert!(fast["sends_per_batch"].as_f64().unwrap() >= 1.0 && fast["recvs_per_batch"].as_f64().unwrap() >= 1.0, "{fast}");
    std::fs::remove_dir_all(dir).unwrap();
}
