//! Starting one producer process, bounding it in time, reading its one result line, and
//! checking with the sink that every message arrived.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::arm::Arm;
use super::sdk;
use super::settings::Resolved;
use crate::producer::{Mode, ProducerResult};
use crate::sink::{CountsSnapshot, Sink, SinkSettings};
use crate::wire::PayloadSpec;

#[derive(Debug)]
pub enum Outcome {
    Ok(Measured),
    Failed(String),
}

#[derive(Debug)]
pub struct Measured {
    pub result: ProducerResult,
    pub alloc_bytes_per_msg: Option<f64>,
}

/// Result-line fields an SDK may add (sdks/README.md); absent ones are simply not shown.
#[derive(Deserialize)]
struct OptionalFields {
    alloc_bytes_per_msg: Option<f64>,
}

/// How many messages one run sends: the workload's, or an instrumented run's own.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub messages: u64,
    pub warmup: u64,
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

    /// One producer run of `arm`; under `strace -f -c -o <path>` when `strace_to` is given.
    /// Returns what the producer reported, checked against what the sink counted.
    pub fn run(&mut self, settings: &Resolved, arm: &Arm, size: Size, strace_to: Option<&Path>) -> (Outcome, Option<CountsSnapshot>) {
        let command = match sdk::find(&arm.sdk).and_then(|s| s.command(&self.root)) {
            Ok(command) => command,
            Err(e) => return (Outcome::Failed(format!("{e:#}")), None),
        };
        let command = match strace_to {
            None => command,
            Some(path) => {
                let mut traced = Command::new("strace");
                traced.args(["-f", "-c", "-o"]).arg(path).arg("--").arg(command.get_program()).args(command.get_args());
                traced.current_dir(&self.root);
                traced
            }
        };
        let mut env = settings.producer_env(size);
        env.push(("MSG_ID", arm.msg_id.clone()));
        env.push(("INJECT_NS", arm.inject_ns.to_string()));
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
    let last = |text: &str| text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").to_owned();
    let Some(status) = status else {
        return Outcome::Failed(format!("timed out after {}s and was killed", timeout.as_secs()));
    };
    if !status.success() {
        let why = last(&stderr);
        return Outcome::Failed(format!("exited with {status}: {}", if why.is_empty() { "no error line" } else { &why }));
    }
    let line = last(&stdout);
    let (result, optional) = match (serde_json::from_str::<ProducerResult>(&line), serde_json::from_str::<OptionalFields>(&line)) {
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
