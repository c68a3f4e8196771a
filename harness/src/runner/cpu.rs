//! A producer's CPU time: waiting for it with wait4(2) returns its user and system time, those
//! of the children it waited for included (a wrapper script's JVM, say), with its exit status.
//! And the machine's, from /proc/stat: how busy it was, and how much of it the hypervisor took
//! while a run ran (steal).

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// How a waited-for process ended.
pub struct Ended {
    pub status: ExitStatus,
    /// User plus system time.
    pub cpu: Duration,
}

/// Waits for `child` until `timeout`; past it, kills it and returns None. The child is reaped
/// here, so `Child::wait` must not be called on it afterwards.
pub fn wait_with_cpu(child: &mut Child, timeout: Duration) -> io::Result<Option<Ended>> {
    let started = Instant::now();
    loop {
        if let Some(ended) = try_wait(child)? {
            return Ok(Some(ended));
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            wait4(child.id(), 0)?;
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The child's end if it has ended, without waiting; it is then reaped.
pub fn try_wait(child: &Child) -> io::Result<Option<Ended>> {
    wait4(child.id(), libc::WNOHANG)
}

fn wait4(pid: u32, options: libc::c_int) -> io::Result<Option<Ended>> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data that wait4 fills in; a zeroed one is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: status and usage point to live locals for the duration of the call.
    let reaped = unsafe { libc::wait4(pid as libc::pid_t, &mut status, options, &mut usage) };
    match reaped {
        -1 => Err(io::Error::last_os_error()),
        0 => Ok(None),
        _ => {
            let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
            Ok(Some(Ended { status: ExitStatus::from_raw(status), cpu: time(usage.ru_utime) + time(usage.ru_stime) }))
        }
    }
}

/// CPU time from /proc/stat, in clock ticks, of the whole machine or of some of its CPUs: what
/// the hypervisor took from this guest (steal), idle time (idle and iowait) and all of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MachineTicks {
    steal: u64,
    idle: u64,
    pub total: u64,
}

impl MachineTicks {
    /// The whole machine's, now; None where /proc/stat is not there or not Linux's.
    pub fn now() -> Option<MachineTicks> {
        MachineTicks::now_on(None)
    }

    /// Those of `cpus` (None: the whole machine), now: a run confined to some CPUs (CPUS) is
    /// stolen from on those alone.
    pub fn now_on(cpus: Option<&[usize]>) -> Option<MachineTicks> {
        MachineTicks::parse(&std::fs::read_to_string("/proc/stat").ok()?, cpus)
    }

    /// `cpu user nice system idle iowait irq softirq steal [guest guest_nice]`, the machine's
    /// line, or the sum of the `cpuN` lines of `cpus`: guest time is already inside user, so
    /// the total is the first eight.
    fn parse(stat: &str, cpus: Option<&[usize]>) -> Option<MachineTicks> {
        let ticks = |line: &str| -> Option<MachineTicks> {
            let fields: Vec<u64> = line.split_whitespace().take(8).map(|f| f.parse().ok()).collect::<Option<_>>()?;
            (fields.len() == 8).then(|| MachineTicks {
                steal: fields[7],
                idle: fields[3] + fields[4],
                total: fields.iter().sum(),
            })
        };
        let Some(cpus) = cpus else { return ticks(stat.lines().next()?.strip_prefix("cpu ")?) };
        cpus.iter().try_fold(MachineTicks { steal: 0, idle: 0, total: 0 }, |sum, cpu| {
            let prefix = format!("cpu{cpu} ");
            let t = ticks(stat.lines().find_map(|l| l.strip_prefix(prefix.as_str()))?)?;
            Some(MachineTicks { steal: sum.steal + t.steal, idle: sum.idle + t.idle, total: sum.total + t.total })
        })
    }

    /// Ticks made up for a test: `busy` of `total` used, none stolen.
    #[cfg(test)]
    pub fn made_up(busy: u64, total: u64) -> MachineTicks {
        MachineTicks { steal: 0, idle: total - busy, total }
    }

    /// The ticks some CPU was not idle.
    pub fn busy(&self) -> u64 {
        self.total - self.idle
    }

    /// The share (%) of the CPU time since `earlier` that the hypervisor took.
    pub fn steal_pct_since(&self, earlier: &MachineTicks) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total).filter(|t| *t > 0)?;
        Some(100.0 * self.steal.saturating_sub(earlier.steal) as f64 / total as f64)
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    #[test]
    fn steal_is_its_share_of_all_the_machine_s_ticks_between_two_readings() {
        let before = MachineTicks::parse("cpu  100 0 50 800 10 0 5 35 7 0\ncpu0 1 2 3\n", None).unwrap();
        assert_eq!(before, MachineTicks { steal: 35, idle: 810, total: 1000 });
        assert_eq!(before.busy(), 190);
        let after = MachineTicks::parse("cpu  130 0 60 855 10 0 5 40 9 0\n", None).unwrap();
        assert_eq!(after.steal_pct_since(&before), Some(5.0));
        assert_eq!(before.steal_pct_since(&before), None, "no time passed");
        assert_eq!(MachineTicks::parse("cpu0 1 2 3 4 5 6 7 8\n", None), None, "not the machine's line");
        assert_eq!(MachineTicks::parse("cpu  1 2 3\n", None), None, "too few fields");
    }

    #[test]
    fn steal_on_some_cpus_sums_their_lines_alone() {
        let before = "cpu  200 0 0 1600 0 0 0 0 0 0\ncpu0 100 0 0 800 0 0 0 0 0 0\ncpu1 100 0 0 800 0 0 0 0 0 0\ncpu10 9 9 9 9 9 9 9 9 0 0\n";
        let on_1 = |stat: &str| MachineTicks::parse(stat, Some(&[1])).unwrap();
        assert_eq!(on_1(before), MachineTicks { steal: 0, idle: 800, total: 900 }, "cpu1's line, not cpu10's");
        // Ten ticks stolen, all from cpu1: a sixth of its time since, an eleventh of the machine's.
        let after = "cpu  200 0 0 1700 0 0 0 10 0 0\ncpu0 100 0 0 850 0 0 0 0 0 0\ncpu1 100 0 0 850 0 0 0 10 0 0\n";
        assert_eq!(on_1(after).steal_pct_since(&on_1(before)), Some(100.0 * 10.0 / 60.0));
        let machine = |stat: &str| MachineTicks::parse(stat, None).unwrap();
        assert_eq!(machine(after).steal_pct_since(&machine(before)), Some(100.0 * 10.0 / 110.0));
        assert_eq!(MachineTicks::parse(before, Some(&[0, 7])), None, "a CPU the file does not list");
    }

    #[test]
    fn busy_child_reports_its_cpu_and_status() {
        // A shell that spins in a child of its own for about 0.3 s: the grandchild's time counts.
        let mut child =
            Command::new("sh").args(["-c", "timeout 0.3 sh -c 'while :; do :; done'; exit 3"]).spawn().unwrap();
        let ended = wait_with_cpu(&mut child, Duration::from_secs(10)).unwrap().expect("ends by itself");
        assert_eq!(ended.status.code(), Some(3));
        assert!(ended.cpu >= Duration::from_millis(100), "cpu {:?}", ended.cpu);
    }

    #[test]
    fn a_child_past_its_timeout_is_killed() {
        let mut child = Command::new("sleep").arg("5").spawn().unwrap();
        let started = Instant::now();
        assert!(wait_with_cpu(&mut child, Duration::from_millis(100)).unwrap().is_none());
        assert!(started.elapsed() < Duration::from_secs(3));
    }
}
