//! Counts that do not depend on noise: syscalls per message, send/recv calls per batch and
//! getrandom calls per 1000 IDs, from two extra runs of an arm under `strace -f -c` that differ
//! only in their message count. The difference cancels everything a process does once
//! (start-up, class loading, connecting), leaving what each further message costs. Everything
//! the project knows about strace is here: the launcher runs the commands, and `harness syscalls`
//! counts one command's calls for scripts (`scripts/mint-costs.sh`).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};

use super::records::{Size, SyscallCounts};

/// Batches in the shorter instrumented run, a tenth of the workload's, within these bounds;
/// the longer one sends twice as many. strace slows a producer many times over, so the runs
/// scale with the workload; below MIN_BATCHES the difference of two runs is too few messages
/// for a pooled strategy's getrandom calls to show.
const MIN_BATCHES: u64 = 5;
const MAX_BATCHES: u64 = 50;

const SENDS: &[&str] = &["write", "writev", "sendto", "sendmsg", "sendmmsg"];
const RECVS: &[&str] = &["read", "readv", "recvfrom", "recvmsg", "recvmmsg"];

pub fn strace_available() -> bool {
    Command::new("strace").arg("-V").output().is_ok_and(|o| o.status.success())
}

/// `command` under `strace -f -c`, its summary written to `summary`.
pub fn traced(command: &Command, summary: &Path) -> Command {
    traced_only(command, summary, &[])
}

/// The same counting only the syscalls in `only` (all when empty).
fn traced_only(command: &Command, summary: &Path, only: &[String]) -> Command {
    let mut traced = Command::new("strace");
    traced.args(["-f", "-c"]);
    if !only.is_empty() {
        traced.arg("-e").arg(format!("trace={}", only.join(",")));
    }
    traced.arg("-o").arg(summary).arg("--").arg(command.get_program()).args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        traced.current_dir(dir);
    }
    traced
}

/// Instrumented runs per arm.
pub const RUNS: usize = 2;

/// The instrumented runs' sizes for a workload of `messages` in batches of `batch`: one
/// warm-up batch, then n or 2n batches.
pub fn sizes(batch: u32, messages: u64) -> [Size; RUNS] {
    let batch = u64::from(batch);
    let n = (messages / batch / 10).clamp(MIN_BATCHES, MAX_BATCHES);
    [Size { messages: (n + 1) * batch, warmup: batch }, Size { messages: (2 * n + 1) * batch, warmup: batch }]
}

/// The counts from the summaries of the short and the long run of [`sizes`].
pub fn per_message(batch: u32, messages: u64, short: &Summary, long: &Summary) -> SyscallCounts {
    let [s, l] = sizes(batch, messages);
    let messages = (l.messages - s.messages) as f64;
    let batches = messages / f64::from(batch);
    let delta = |names: &[&str]| long.calls(names) as f64 - short.calls(names) as f64;
    SyscallCounts {
        syscalls_per_msg: (long.total() as f64 - short.total() as f64) / messages,
        sends_per_batch: delta(SENDS) / batches,
        recvs_per_batch: delta(RECVS) / batches,
        getrandom_per_1000_ids: delta(&["getrandom"]) / messages * 1000.0,
    }
}

/// Calls per syscall from `strace -c`'s table: "% time  seconds  usecs/call  calls  [errors]  syscall".
pub struct Summary(Vec<(String, u64)>);

impl Summary {
    pub fn parse(text: &str) -> Summary {
        Summary(
            text.lines()
                .filter_map(|line| {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    let name = *fields.last()?;
                    let calls = fields.get(3)?.parse().ok()?;
                    (name != "total").then(|| (name.to_owned(), calls))
                })
                .collect(),
        )
    }

    fn calls(&self, names: &[&str]) -> u64 {
        self.0.iter().filter(|(n, _)| names.contains(&n.as_str())).map(|(_, c)| c).sum()
    }

    fn total(&self) -> u64 {
        self.0.iter().map(|(_, c)| c).sum()
    }

    /// Calls of each of `names`, or of every syscall seen when `names` is empty.
    fn by_name(&self, names: &[String]) -> BTreeMap<String, u64> {
        if names.is_empty() {
            return self.0.iter().cloned().collect();
        }
        names.iter().map(|n| (n.clone(), self.calls(&[n.as_str()]))).collect()
    }
}

/// `harness syscalls`: one command's syscall counts.
#[derive(clap::Args)]
pub struct SyscallsArgs {
    /// Count only these syscalls, comma-separated (strace's `-e trace=`); each is printed, 0 when
    /// never called.
    #[arg(long, value_delimiter = ',')]
    trace: Vec<String>,
    /// The command to run under `strace -f -c`, after `--`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// Runs the command under strace, its own output sent to stderr, and prints one JSON object of
/// calls per syscall (threads and children included) on stdout.
pub fn count(args: &SyscallsArgs) -> anyhow::Result<()> {
    if !strace_available() {
        bail!("strace not found: harness syscalls runs the command under it (apt-get install strace)");
    }
    // A directory of our own, so no one else's file (or link) can stand where strace writes.
    let dir = std::env::temp_dir().join(format!("harness-syscalls-{}", std::process::id()));
    std::fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let summary = dir.join("summary");
    let mut command = Command::new(&args.command[0]);
    command.args(&args.command[1..]);
    let status = traced_only(&command, &summary, &args.trace).stdout(std::io::stderr()).status();
    let text = std::fs::read_to_string(&summary);
    std::fs::remove_dir_all(&dir).ok();
    let status = status.context("cannot start strace")?;
    if !status.success() {
        bail!("`{}` failed under strace ({status})", args.command.join(" "));
    }
    let text = text.with_context(|| format!("strace wrote no summary for `{}`", args.command.join(" ")))?;
    println!("{}", serde_json::to_string(&Summary::parse(&text).by_name(&args.trace)).expect("serializable"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // strace 6.1 `-c` output; the errors column is blank on most rows.
    fn table(write: u64, read: u64, getrandom: u64) -> String {
        format!(
            "% time     seconds  usecs/call     calls    errors syscall\n\
             ------ ----------- ----------- --------- --------- ----------------\n\
             \x20 52.10    0.001000          10 {write:>9}           write\n\
             \x20 30.00    0.000500           2 {read:>9}         3 read\n\
             \x20  5.00    0.000100           1 {getrandom:>9}           getrandom\n\
             ------ ----------- ----------- --------- --------- ----------------\n\
             100.00    0.001600                   345         3 total\n"
        )
    }

    #[test]
    fn strace_summary_rows_are_read_by_name() {
        let t = Summary::parse(&table(100, 205, 40));
        assert_eq!((t.calls(SENDS), t.calls(RECVS), t.calls(&["getrandom"]), t.total()), (100, 205, 40, 345));
    }

    #[test]
    fn counts_by_name_cover_every_name_asked_for() {
        let t = Summary::parse(&table(100, 205, 40));
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let counts = |n: &[&str]| t.by_name(&names(n)).into_iter().collect::<Vec<_>>();
        assert_eq!(
            counts(&["getrandom", "clone3"]),
            [("clone3".into(), 0), ("getrandom".into(), 40)],
            "a syscall never called is 0"
        );
        assert_eq!(
            counts(&[]),
            [("getrandom".into(), 40), ("read".into(), 205), ("write".into(), 100)],
            "every row when none is named"
        );
    }

    #[test]
    fn a_command_that_fails_under_strace_is_an_error() {
        assert!(strace_available(), "strace is missing: run scripts/setup.sh (it installs Debian's strace)");
        let args = SyscallsArgs { trace: vec!["getrandom".into()], command: vec!["false".into()] };
        let e = count(&args).unwrap_err().to_string();
        assert!(e.contains("`false` failed under strace"), "{e}");
    }

    #[test]
    fn instrumented_runs_scale_with_the_workload() {
        let messages = |b, m| sizes(b, m).map(|s| s.messages);
        assert_eq!(messages(1000, 1_000_000), [51_000, 101_000], "a tenth of the default's batches, at most 50");
        assert_eq!(messages(1000, 100_000), [11_000, 21_000]);
        assert_eq!(messages(1000, 20_000), [6_000, 11_000], "at least 5 batches");
        assert!(sizes(1000, 100_000).iter().all(|s| s.warmup == 1000));
    }

    #[test]
    fn the_longer_run_minus_the_shorter_is_per_message() {
        // 50 more batches of 10 messages: one send and one receive each, one getrandom per ID.
        let (short, long) = (Summary::parse(&table(60, 70, 510)), Summary::parse(&table(110, 120, 1010)));
        let c = per_message(10, 1_000_000, &short, &long);
        assert_eq!((c.sends_per_batch, c.recvs_per_batch, c.getrandom_per_1000_ids), (1.0, 1.0, 1000.0));
        assert!((c.syscalls_per_msg - 1.2).abs() < 1e-12, "{c:?}");
    }
}
