//! The HTML report opened in a real browser (headless Chromium): one self-contained file whose
//! charts and tables are all there.

mod common;

use std::path::Path;
use std::process::Command;

use common::{harness, scratch};

const CHROMIUM: &str = "/usr/bin/chromium";

/// Chromium with nothing fetched or synced, a fresh profile, and a bound on its time.
fn chromium(profile: &Path) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.arg("60").arg(CHROMIUM).args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1100,1600",
    ]);
    cmd.arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

/// Whether this machine could install Chromium (Debian's package, as root): then its absence
/// is a setup fault, not a reason to skip.
fn installable() -> bool {
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    root && Path::new("/usr/bin/apt-get").exists()
}

#[test]
fn the_html_report_renders_its_charts_and_tables() {
    if !Path::new(CHROMIUM).exists() {
        assert!(
            !installable(),
            "{CHROMIUM} is missing but installable: run scripts/setup.sh (it installs Debian's chromium)"
        );
        eprintln!("SKIPPED: {CHROMIUM} is missing and this machine cannot install it (no apt-get, or not root)");
        return;
    }
    let dir = scratch("html");
    let out = harness()
        .args([
            "run",
            "--repeat",
            "2",
            "--messages",
            "20000",
            "--msg-id",
            "uuid,fast",
            "--name",
            "page",
            "--format",
            "html",
            "--syscalls",
            "false",
            "--paired",
            "0",
        ])
        .env("RESULTS_DIR", &dir)
        // No launch runs again whatever the host's steal, so "12 of 12" is exact.
        .env("STOLEN", "count")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = dir.join("page.html");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.trim_end().lines().last(),
        Some(format!("wrote {}", page.display()).as_str()),
        "the paths written come last: {stdout}"
    );
    assert!(!dir.join("page.md").exists() && !dir.join("page.json").exists(), "only the formats asked for");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("src=") && !html.contains("href=") && !html.contains("@import"), "nothing fetched");

    let url = format!("file://{}", page.display());
    let dom = chromium(&dir.join("profile-dom")).arg("--dump-dom").arg(&url).output().unwrap();
    assert!(dom.status.success(), "chromium --dump-dom: {}", String::from_utf8_lossy(&dom.stderr));
    let dom = String::from_utf8_lossy(&dom.stdout);
    let count = |needle: &str| dom.matches(needle).count();
    // Four arms: the two control arms, uuid and fast; two timed runs each.
    // The headline: uuid -> fast and the A/A control, on a log axis with 1.0 marked.
    assert_eq!(count("<svg class=\"ratio-chart\""), 1, "{dom}");
    assert_eq!(count("<g class=\"ratio "), 2, "{dom}");
    assert!(dom.contains(">A/A control: rust threadrng B / A</text>"), "{dom}");
    assert_eq!(count("<line class=\"one\""), 1, "{dom}");
    // One SDK (rust, with the control's arms): one chart of its own, median and min..max per arm.
    assert_eq!(count("<svg class=\"level-chart\""), 1, "{dom}");
    assert_eq!(count("<rect class=\"bar"), 4, "{dom}");
    assert_eq!(count("<path class=\"range\""), 4, "{dom}");
    assert!(!dom.contains("text-anchor=\"middle\">-"), "no negative axis label: {dom}");
    assert!(dom.contains("<th>median</th><th>min</th><th>max</th>"), "{dom}");
    assert!(dom.contains("<p class=\"how-to-read\">How to read this:"), "{dom}");
    assert_eq!(count("<svg class=\"dot-plot\""), 1, "{dom}");
    assert_eq!(count("<circle class=\"sample\""), 8, "{dom}");
    assert_eq!(count("<table class=\"verdicts\">"), 1, "{dom}");
    assert_eq!(count("<tr class=\"verdict\">"), 2, "uuid -> fast and the A/A control: {dom}");
    assert!(dom.contains("<p class=\"status complete\">Complete: 12 of 12 runs.</p>"), "{dom}");

    let shot = dir.join("page.png");
    let run =
        chromium(&dir.join("profile-shot")).arg(format!("--screenshot={}", shot.display())).arg(&url).output().unwrap();
    assert!(run.status.success(), "chromium --screenshot: {}", String::from_utf8_lossy(&run.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000, "a screenshot of {} bytes", png.len());
    std::fs::remove_dir_all(dir).unwrap();
}
