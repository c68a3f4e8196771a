//! Where and when a result was measured: recorded beside every report, since absolute figures
//! are a property of the machine.

use std::path::Path;
use std::process::Command;

use serde::Serialize;

/// Now, as every report's dates read: UTC, RFC 3339, to the second.
pub fn timestamp() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    pub cpu_model: String,
    pub cores: usize,
    pub kernel: String,
    pub git_revision: String,
    /// `name: version` of each toolchain the run used.
    pub toolchains: Vec<String>,
}

impl Machine {
    pub fn describe(root: &Path, toolchains: &[(&str, &[&str])]) -> Machine {
        let revision = first_line(root, &["git", "rev-parse", "--short", "HEAD"]);
        // Name the changed files, so a reader can tell edited code from regenerated results.
        let changed = Command::new("git")
            .args(["diff", "--name-only", "HEAD"])
            .current_dir(root)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().collect::<Vec<_>>().join(", "))
            .unwrap_or_default();
        Machine {
            cpu_model: cpu_model(),
            cores: cores(),
            kernel: kernel(),
            git_revision: if changed.is_empty() {
                revision
            } else {
                format!("{revision} (with uncommitted changes to {changed})")
            },
            toolchains: toolchains.iter().map(|(name, cmd)| format!("{name}: {}", first_line(root, cmd))).collect(),
        }
    }
}

impl Machine {
    /// CPU, cores, kernel and revision in one phrase, as every report states them.
    pub fn summary(&self) -> String {
        format!("{} ({} cores), Linux {}, revision {}", self.cpu_model, self.cores, self.kernel, self.git_revision)
    }
}

/// The CPU's model name from /proc/cpuinfo, or "unknown".
pub fn cpu_model() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name").and_then(|r| r.split_once(':')).map(|(_, m)| m.trim().to_owned()))
        .unwrap_or_else(|| "unknown".into())
}

/// The kernel release, or "unknown".
pub fn kernel() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease").map_or_else(|_| "unknown".into(), |k| k.trim().to_owned())
}

/// The machine's online CPUs: all of them, however few a run is confined to (CPUS).
pub fn cores() -> usize {
    // SAFETY: sysconf reads a system value and has no preconditions.
    usize::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }).unwrap_or(0)
}

/// The first non-empty line a command prints on stdout or stderr (java prints its version on
/// stderr), or "unknown".
fn first_line(dir: &Path, cmd: &[&str]) -> String {
    let Ok(out) = Command::new(cmd[0]).args(&cmd[1..]).current_dir(dir).output() else { return "unknown".into() };
    let text = [out.stdout, out.stderr].concat();
    String::from_utf8_lossy(&text)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map_or_else(String::new, str::to_owned)
}
