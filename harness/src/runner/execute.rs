//! Starting one producer process, bounding it in time, and reading its one result line.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::settings::Resolved;
use crate::producer::ProducerResult;

#[derive(Debug)]
pub enum Outcome {
    Ok(ProducerResult),
    Failed(String),
}

pub fn run_once(mut cmd: Command, env: &[(&str, String)], timeout: Duration, settings: &Resolved, msg_id: &str) -> Outcome {
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
    let result: ProducerResult = match serde_json::from_str(&line) {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(format!("result line {line:?} is not the contract's JSON: {e}")),
    };
    if result.msg_id != msg_id || result.messages != settings.messages || result.warmup != settings.warmup {
        return Outcome::Failed(format!(
            "result line reports MSG_ID={} MESSAGES={} WARMUP={}, but the run asked for {msg_id}, {}, {}",
            result.msg_id, result.messages, result.warmup, settings.messages, settings.warmup
        ));
    }
    if !(result.msgs_per_sec.is_finite() && result.msgs_per_sec > 0.0) {
        return Outcome::Failed(format!("result line reports {} msgs/s", result.msgs_per_sec));
    }
    Outcome::Ok(result)
}

fn read_all(r: &mut impl Read) -> String {
    let mut s = String::new();
    let _ = r.read_to_string(&mut s);
    s
}
