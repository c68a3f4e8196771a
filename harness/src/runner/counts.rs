//! Counts that do not depend on noise: syscalls per message, send/recv calls per batch and
//! getrandom calls per 1000 IDs, from two extra runs of an arm under `strace -f -c` that differ
//! only in their message count. The difference cancels everything a process does once
//! (start-up, class loading, connecting), leaving what each further message costs.

use std::path::Path;

use serde::Serialize;

use super::arm::Arm;
use super::execute::{Lab, Outcome, Size};
use super::settings::Resolved;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Counts {
    pub syscalls_per_msg: f64,
    pub sends_per_batch: f64,
    pub recvs_per_batch: f64,
    pub getrandom_per_1000_ids: f64,
}

/// Batches in the shorter instrumented run; the longer one sends twice as many.
const BATCHES: u64 = 50;

const SENDS: &[&str] = &["write", "writev", "sendto", "sendmsg", "sendmmsg"];
const RECVS: &[&str] = &["read", "readv", "recvfrom", "recvmsg", "recvmmsg"];

pub fn strace_available() -> bool {
    std::process::Command::new("strace").arg("-V").output().is_ok_and(|o| o.status.success())
}

/// The instrumented runs' sizes: one warm-up batch, then BATCHES or 2 x BATCHES.
pub fn sizes(settings: &Resolved) -> [Size; 2] {
    let batch = u64::from(settings.batch);
    [Size { messages: (BATCHES + 1) * batch, warmup: batch }, Size { messages: (2 * BATCHES + 1) * batch, warmup: batch }]
}

/// Measures `arm`'s counts; an error names the run that failed.
pub fn measure(lab: &mut Lab, settings: &Resolved, arm: &Arm, scratch: &Path) -> Result<Counts, String> {
    let [short, long] = sizes(settings);
    let mut tallies = Vec::with_capacity(2);
    for size in [short, long] {
        let out = scratch.join(format!("strace-{}-{}-{}.txt", arm.sdk, arm.msg_id, size.messages));
        match lab.run(settings, arm, size, Some(&out)) {
            (Outcome::Ok(_), _) => {}
            (Outcome::Failed(why), _) => return Err(format!("instrumented run of {} failed: {why}", arm.label())),
        }
        let text = std::fs::read_to_string(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
        tallies.push(Tally::parse(&text));
    }
    let messages = (long.messages - short.messages) as f64;
    let batches = messages / f64::from(settings.batch);
    let delta = |names: &[&str]| tallies[1].calls(names) as f64 - tallies[0].calls(names) as f64;
    Ok(Counts {
        syscalls_per_msg: (tallies[1].total() as f64 - tallies[0].total() as f64) / messages,
        sends_per_batch: delta(SENDS) / batches,
        recvs_per_batch: delta(RECVS) / batches,
        getrandom_per_1000_ids: delta(&["getrandom"]) / messages * 1000.0,
    })
}

/// Calls per syscall from `strace -c`'s table: "% time  seconds  usecs/call  calls  [errors]  syscall".
struct Tally(Vec<(String, u64)>);

impl Tally {
    fn parse(text: &str) -> Tally {
        Tally(
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strace_summary_rows_are_read_by_name() {
        // strace 6.1 `-c` output; the errors column is blank on most rows.
        let text = "% time     seconds  usecs/call     calls    errors syscall\n\
                    ------ ----------- ----------- --------- --------- ----------------\n\
                    \x20 52.10    0.001000          10       100           write\n\
                    \x20 30.00    0.000500           2       205         3 read\n\
                    \x20  5.00    0.000100           1        40           getrandom\n\
                    ------ ----------- ----------- --------- --------- ----------------\n\
                    100.00    0.001600                   345         3 total\n";
        let t = Tally::parse(text);
        assert_eq!((t.calls(SENDS), t.calls(RECVS), t.calls(&["getrandom"]), t.total()), (100, 205, 40, 345));
    }
}
