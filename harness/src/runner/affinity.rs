//! Which CPUs a run uses (CPUS): the runner's threads, its in-process sinks', and so every
//! producer it starts, which inherits the affinity of the thread that starts it.

use std::io;
use std::sync::OnceLock;

/// The CPUs this process was allowed when it first asked, before any CPUS confined it.
pub fn allowed() -> &'static [usize] {
    static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
    ALLOWED.get_or_init(|| {
        // SAFETY: cpu_set_t is plain data; sched_getaffinity fills in the one it is given.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: `set` is a live local of the size passed.
        let got = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
        // SAFETY: CPU_ISSET only reads `set`, for indexes below its size.
        let cpus: Vec<usize> =
            (0..libc::CPU_SETSIZE as usize).filter(|&c| got == 0 && unsafe { libc::CPU_ISSET(c, &set) }).collect();
        if cpus.is_empty() { vec![0] } else { cpus }
    })
}

/// A CPUS value: `all` (None: every allowed CPU) or a list of CPUs and ranges (`0`, `0-1`, `0,2`),
/// each of them one this process may use; the error says why, to follow `CPUS=<value>`.
pub fn parse(v: &str) -> Result<Option<Vec<usize>>, String> {
    if v == "all" {
        return Ok(None);
    }
    let unreadable = || "is not all or a list of CPUs (e.g. 0 or 0-1)".to_owned();
    let mut cpus = Vec::new();
    for part in v.split(',') {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        let (lo, hi): (usize, usize) = (lo.parse().map_err(|_| unreadable())?, hi.parse().map_err(|_| unreadable())?);
        if lo > hi {
            return Err(unreadable());
        }
        cpus.extend(lo..=hi);
    }
    cpus.sort_unstable();
    cpus.dedup();
    match cpus.iter().find(|c| !allowed().contains(c)) {
        Some(c) => Err(format!("is out of range: CPU {c} is not one the runner may use ({})", text(Some(allowed())))),
        None => Ok(Some(cpus)),
    }
}

/// A CPUS value as `parse` reads it: `all` for None.
pub fn text(cpus: Option<&[usize]>) -> String {
    match cpus {
        None => "all".into(),
        Some(cpus) => cpus.iter().map(usize::to_string).collect::<Vec<_>>().join(","),
    }
}

/// Confines the calling thread alone to `cpus`: what it starts from now on inherits that.
pub fn pin_thread(cpus: &[usize]) -> io::Result<()> {
    // SAFETY: `set` is a live local of the size passed; tid 0 is the calling thread.
    if unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &cpu_set(cpus)) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Where a lock-step set runs on `cpus`: the sink on the last, the producers on the others (all
/// of them on one CPU when there is only one). Producers left to the scheduler land on the
/// sink's CPU or the other by the order they started, and a wake-up on the sink's own CPU costs
/// a different time from one across: that placement, not the arm, then decides a turn's time.
pub fn split_for_set(cpus: &[usize]) -> (Vec<usize>, Vec<usize>) {
    match cpus.split_last() {
        Some((&sink, producers)) if !producers.is_empty() => (vec![sink], producers.to_vec()),
        _ => (cpus.to_vec(), cpus.to_vec()),
    }
}

fn cpu_set(cpus: &[usize]) -> libc::cpu_set_t {
    // SAFETY: cpu_set_t is plain data; a zeroed one is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus {
        // SAFETY: CPU_SET writes inside `set`; parse only admits CPUs that sched_getaffinity named.
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    set
}

/// Confines every thread of this process to `cpus` (None: every allowed CPU). Threads and
/// processes started after it inherit that.
pub fn confine(cpus: Option<&[usize]>) -> io::Result<()> {
    let set = cpu_set(cpus.unwrap_or(allowed()));
    // Affinity is per thread: each of the sink's threads is set, not only the calling one.
    for task in std::fs::read_dir("/proc/self/task")? {
        let Some(tid) = task?.file_name().to_str().and_then(|t| t.parse::<libc::pid_t>().ok()) else { continue };
        // SAFETY: `set` is a live local of the size passed.
        if unsafe { libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set) } != 0 {
            let e = io::Error::last_os_error();
            // A thread that ended since the directory was read is no longer there to confine.
            if e.raw_os_error() != Some(libc::ESRCH) {
                return Err(e);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_puts_its_sink_on_a_cpu_of_its_own_where_there_are_two() {
        assert_eq!(split_for_set(&[0, 1]), (vec![1], vec![0]));
        assert_eq!(split_for_set(&[0, 2, 3]), (vec![3], vec![0, 2]));
        assert_eq!(split_for_set(&[5]), (vec![5], vec![5]));
    }

    #[test]
    fn cpus_are_all_or_a_list_of_allowed_cpus() {
        let first = allowed()[0];
        assert_eq!(parse("all"), Ok(None));
        assert_eq!(parse(&first.to_string()), Ok(Some(vec![first])));
        assert_eq!(parse(&format!("{first}-{first},{first}")), Ok(Some(vec![first])));
        assert_eq!((text(Some(&[0, 1])), text(None)), ("0,1".into(), "all".into()));
        for bad in ["", "x", "1-0", "0-", "-1", "0,,1"] {
            assert_eq!(parse(bad), Err("is not all or a list of CPUs (e.g. 0 or 0-1)".into()), "{bad:?}");
        }
        let past = allowed().last().unwrap() + 1;
        assert!(
            parse(&past.to_string())
                .unwrap_err()
                .starts_with(&format!("is out of range: CPU {past} is not one the runner may use"))
        );
    }

    #[test]
    fn a_process_started_after_confining_runs_on_those_cpus_only() {
        let cpus_of_a_child = || {
            let out = std::process::Command::new("sh")
                .args(["-c", "grep Cpus_allowed_list /proc/self/status"])
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap().split_whitespace().last().unwrap().to_owned()
        };
        let first = allowed()[0];
        confine(Some(&[first])).unwrap();
        let confined = cpus_of_a_child();
        let cores_confined = crate::machine::cores();
        confine(None).unwrap();
        assert_eq!(confined, first.to_string());
        assert!(cores_confined >= allowed().len(), "reports name the machine's CPUs, not the run's: {cores_confined}");
        if allowed().len() > 1 {
            assert_ne!(cpus_of_a_child(), first.to_string(), "confine(None) gives every allowed CPU back");
        }
    }
}
