//! The lab: starts the in-process sinks and the producer processes, bounds each run in time,
//! reads its one result line, and checks with the sink that every message arrived.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Deserialize;

use super::model::{Arm, Measured, Outcome, Size, SyscallCounts};
use super::sdk;
use super::settings::Settings;
use super::syscalls;
use crate::producer::{Mode, ProducerResult};
use crate::sink::{DeliverySnapshot, Sink, SinkSettings};
use crate::wire::PayloadSpec;

/// Result-line fields an SDK may add (sdks/README.md); absent ones are simply not shown.
#[derive(Deserialize)]
struct OptionalFields {
    alloc_bytes_per_msg: Option<f64>,
}

/// Runs producers against in-process sinks, one per payload shape, started on first use.
pub struct Lab {
    pub root: PathBuf,
    sinks: Vec<(PayloadSpec, Sink)>,
}

impl Lab {
    pub fn new(root: PathBuf) -> Lab {
        Lab { root, sinks: Vec::new() }
    }

    fn sink(&mut self, spec: PayloadSpec) -> anyhow::Result<&Sink> {
        if let Some(i) = self.sinks.iter().position(|(s, _)| *s == spec) {
            return Ok(&self.sinks[i].1);
        }
        let sink = Sink::spawn("127.0.0.1:0".parse().expect("valid address"), SinkSettings::default(), Some(spec))?;
        self.sinks.push((spec, sink));
        Ok(&self.sinks.last().expect("just pushed").1)
    }

    /// One producer run of `arm`; under strace, its summary written there, when `strace_to`
    /// is given. Returns what the producer reported, checked against what the sink counted.
    pub fn run(&mut self, settings: &Settings, arm: &Arm, size: Size, strace_to: Option<&Path>) -> (Outcome, Option<DeliverySnapshot>) {
        let (command, send_path) = match self.producer(settings, arm) {
            Ok(found) => found,
            Err(e) => return (Outcome::Failed(format!("{e:#}")), None),
        };
        let command = match strace_to {
            None => command,
            Some(path) => syscalls::traced(&command, path),
        };
        let mut env = settings.producer_env(size);
        env.push(("MSG_ID", arm.msg_id.clone()));
        env.push(("INJECT_NS", arm.inject_ns.to_string()));
        if let Some(path) = send_path {
            env.push(("SEND_PATH", path.to_owned()));
        }
        let sink = match settings.mode {
            Mode::Mint => None,
            Mode::Producer => match PayloadSpec::new(settings.bits, settings.pack).map_err(anyhow::Error::from).and_then(|spec| self.sink(spec)) {
                Ok(sink) => Some(sink),
                Err(e) => return (Outcome::Failed(format!("cannot start the sink: {e:#}")), None),
            },
        };
        if let Some(sink) = sink {
            env.push(("SERVER", sink.addr.to_string()));
        }
        let before = sink.map(Sink::counts).unwrap_or_default();
        let outcome = run_once(command, &env, Duration::from_secs(settings.timeout_s), size, &arm.msg_id);
        let delivered = sink.map(|s| s.counts().since(&before));
        let outcome = match (outcome, &delivered) {
            (Outcome::Ok(m), Some(counts)) => match counts.delivery_problem(size.messages) {
                None => Outcome::Ok(m),
                Some(problem) => Outcome::Failed(problem),
            },
            (outcome, _) => outcome,
        };
        (outcome, delivered)
    }

    /// `arm`'s producer command and the SEND_PATH its row is started with.
    /// A user's row gets no SEND_PATH (not even the runner's own): its command chooses its path.
    fn producer(&self, settings: &Settings, arm: &Arm) -> anyhow::Result<(Command, Option<&'static str>)> {
        let Some(user) = settings.producers.iter().find(|u| u.name == arm.sdk) else {
            let row = sdk::find(&arm.sdk)?;
            return Ok((row.command(&self.root)?, Some(row.send_path)));
        };
        // A relative program was found from where the runner was started; the run starts at the root.
        let program = std::path::absolute(user.program()).context("cannot locate the command")?;
        let mut command = Command::new(program);
        command.args(&user.argv[1..]).current_dir(&self.root).env_remove("SEND_PATH");
        Ok((command, None))
    }

    /// `arm`'s syscall counts from its two instrumented runs; an error names the run that failed.
    pub fn syscall_counts(&mut self, settings: &Settings, arm: &Arm, scratch: &Path) -> Result<SyscallCounts, String> {
        let mut summaries = Vec::with_capacity(2);
        for size in syscalls::sizes(settings.batch) {
            let out = scratch.join(format!("strace-{}-{}-{}.txt", arm.sdk, arm.msg_id, size.messages));
            if let (Outcome::Failed(why), _) = self.run(settings, arm, size, Some(&out)) {
                return Err(format!("instrumented run of {} failed: {why}", arm.label()));
            }
            let text = std::fs::read_to_string(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
            summaries.push(syscalls::Summary::parse(&text));
        }
        Ok(syscalls::per_message(settings.batch, &summaries[0], &summaries[1]))
    }
}

fn run_once(mut cmd: Command, env: &[(&str, String)], timeout: Duration, size: Size, msg_id: &str) -> Outcome {
    cmd.envs(env.iter().map(|(k, v)| (k, v))).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => return Outcome::Failed(format!("cannot start {:?}: {e}", cmd.get_program())),
    };
    // Drained on their own threads so a chatty producer cannot block on a full pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || read_all(&mut stdout));
    let err = std::thread::spawn(move || read_all(&mut stderr));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Outcome::Failed(format!("waiting for the producer failed: {e}")),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let Some(status) = status else {
        return Outcome::Failed(format!("timed out after {}s and was killed", timeout.as_secs()));
    };
    if !status.success() {
        let why = last_line(&stderr);
        return Outcome::Failed(format!("exited with {status}: {}", if why.is_empty() { "no error line" } else { why }));
    }
    check_result_line(last_line(&stdout), size, msg_id)
}

/// The last non-empty line of a producer's output.
fn last_line(text: &str) -> &str {
    text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// The result line, if it is the contract's JSON for the run that was asked for.
fn check_result_line(line: &str, size: Size, msg_id: &str) -> Outcome {
    let (result, optional) = match (serde_json::from_str::<ProducerResult>(line), serde_json::from_str::<OptionalFields>(line)) {
        (Ok(r), Ok(o)) => (r, o),
        (Err(e), _) | (_, Err(e)) => return Outcome::Failed(format!("result line {line:?} is not the contract's JSON: {e}")),
    };
    if result.msg_id != msg_id || result.messages != size.messages || result.warmup != size.warmup {
        return Outcome::Failed(format!(
            "result line reports MSG_ID={} MESSAGES={} WARMUP={}, but the run asked for {msg_id}, {}, {}",
            result.msg_id, result.messages, result.warmup, size.messages, size.warmup
        ));
    }
    if !(result.msgs_per_sec.is_finite() && result.msgs_per_sec > 0.0) {
        return Outcome::Failed(format!("result line reports {} msgs/s", result.msgs_per_sec));
    }
    Outcome::Ok(Measured { result, alloc_bytes_per_msg: optional.alloc_bytes_per_msg })
}

fn read_all(r: &mut impl Read) -> String {
    let mut s = String::new();
    let _ = r.read_to_string(&mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: Size = Size { messages: 2000, warmup: 1000 };

    fn line(msg_id: &str, messages: u64, msgs_per_sec: f64) -> String {
        format!(r#"{{"sdk":"x","msg_id":"{msg_id}","send_path":"lean","messages":{messages},"warmup":1000,"timed_messages":1000,"elapsed_ns":5,"msgs_per_sec":{msgs_per_sec},"injected_ns":0,"alloc_bytes_per_msg":2.5}}"#)
    }

    #[test]
    fn a_result_line_must_answer_the_run_asked_for() {
        let Outcome::Ok(m) = check_result_line(&line("fast", 2000, 1e6), SIZE, "fast") else { panic!("a good line") };
        assert_eq!(m.alloc_bytes_per_msg, Some(2.5));
        let failed = |o: Outcome| match o {
            Outcome::Failed(why) => why,
            Outcome::Ok(_) => panic!("accepted"),
        };
        assert!(failed(check_result_line(&line("uuid", 2000, 1e6), SIZE, "fast")).contains("but the run asked for fast, 2000, 1000"));
        assert!(failed(check_result_line(&line("fast", 2000, 0.0), SIZE, "fast")).contains("reports 0 msgs/s"));
        assert!(failed(check_result_line("hello", SIZE, "fast")).contains("is not the contract's JSON"));
        assert_eq!(last_line("a\nb \n\n"), "b");
    }
}
