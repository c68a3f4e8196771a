//! The launcher: starts the in-process sinks and the producer processes, bounds each run in time,
//! reads its one result line, and checks with the sink that every message arrived.

use std::io::Read;
use std::net::ToSocketAddrs;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Deserialize;

use super::affinity;
use super::cpu;
use super::design::Design;
use super::records::{Arm, Measured, Outcome, Size, SyscallCounts};
use super::sdk;
use super::settings::Settings;
use super::syscalls;
use crate::producer::{BlockOrder, Mode, PairedResult, ProducerResult};
use crate::sink::{DeliverySnapshot, Pacer, SetOutcome, Sink, SinkSettings, Turn};
use crate::wire::PayloadSpec;

/// Mixed into a set's seed for the order its arms are placed in, so that order is not its first
/// block's.
const PLACES_SALT: u64 = 0x6A09_E667_F3BC_C909;

/// Result-line fields an SDK may add (sdks/README.md); absent ones are simply not shown.
#[derive(Deserialize)]
struct OptionalFields {
    alloc_bytes_per_msg: Option<f64>,
}

/// Runs producers against in-process sinks, one per payload shape and upstream server, started
/// on first use.
pub struct Launcher {
    pub root: PathBuf,
    sinks: Vec<(SinkSettings, PayloadSpec, Sink)>,
}

impl Launcher {
    pub fn new(root: PathBuf) -> Launcher {
        Launcher { root, sinks: Vec::new() }
    }

    fn sink(&mut self, settings: SinkSettings, spec: PayloadSpec) -> anyhow::Result<&Sink> {
        if let Some(i) = self.sinks.iter().position(|(s, p, _)| s.upstream == settings.upstream && *p == spec) {
            return Ok(&self.sinks[i].2);
        }
        let sink = Sink::spawn("127.0.0.1:0".parse().expect("valid address"), settings, Some(spec))?;
        self.sinks.push((settings, spec, sink));
        Ok(&self.sinks.last().expect("just pushed").2)
    }

    /// One producer process running `arms`: one arm, or (paired mode) a group of one SDK's arms
    /// timed around each other, its block order from `seed`; under strace, its summary written
    /// there, when `strace_to` is given. Returns one outcome per arm, checked against what the
    /// sink counted.
    pub fn run(
        &mut self,
        settings: &Settings,
        arms: &[&Arm],
        size: Size,
        seed: u64,
        strace_to: Option<&Path>,
    ) -> (Vec<Outcome>, Option<DeliverySnapshot>) {
        if settings.design == Design::Lockstep && arms.len() > 1 && strace_to.is_none() {
            return self.run_set(settings, arms, size, seed);
        }
        let failed = |why: String| (arms.iter().map(|_| Outcome::Failed(why.clone())).collect(), None);
        // Every thread of the runner, the sink's included, and so the producer started below
        // (which inherits it), runs on this workload's CPUs.
        if let Err(e) = affinity::confine(settings.cpus.as_deref()) {
            return failed(format!("cannot run on CPUS={}: {e}", affinity::text(settings.cpus.as_deref())));
        }
        let (command, send_path) = match self.producer(settings, arms[0]) {
            Ok(found) => found,
            Err(e) => return failed(format!("{e:#}")),
        };
        let command = match strace_to {
            None => command,
            Some(path) => syscalls::traced(&command, path),
        };
        let mut env = settings.producer_env(size);
        let msg_ids: Vec<&str> = arms.iter().map(|a| a.msg_id.as_str()).collect();
        env.push(("MSG_ID", msg_ids.join(",")));
        env.push(("PAIRED", u8::from(arms.len() > 1).to_string()));
        env.push(("SEED", seed.to_string()));
        let injected = arms.iter().position(|a| a.inject_ns > 0.0);
        // f64's Display is a plain decimal (no exponent), the form the contract reads.
        env.push(("INJECT_NS", injected.map_or(0.0, |i| arms[i].inject_ns).to_string()));
        env.push(("INJECT_ARM", injected.unwrap_or(0).to_string()));
        if let Some(path) = send_path {
            env.push(("SEND_PATH", path.to_owned()));
        }
        let sink = match settings.mode {
            Mode::Mint => None,
            Mode::Producer => match sink_settings(settings)
                .and_then(|s| self.sink(s, PayloadSpec::new(settings.bits, settings.pack)?))
            {
                Ok(sink) => Some(sink),
                Err(e) => return failed(format!("cannot start the sink: {e:#}")),
            },
        };
        if let Some(sink) = sink {
            env.push(("SERVER", sink.addr.to_string()));
        }
        let before = sink.map(Sink::delivery).unwrap_or_default();
        let ticks = cpu::MachineTicks::now_on(settings.cpus.as_deref());
        let outcomes = match run_once(command, &env, Duration::from_secs(settings.timeout_s)) {
            Err(why) => arms.iter().map(|_| Outcome::Failed(why.clone())).collect(),
            Ok((line, cpu)) => {
                // The process's CPU time over every message it sent, warm-up and every arm included.
                let cpu_ns_per_msg = cpu.map(|c| c.as_nanos() as f64 / (size.messages * arms.len() as u64) as f64);
                let steal_pct = ticks
                    .zip(cpu::MachineTicks::now_on(settings.cpus.as_deref()))
                    .and_then(|(before, after)| after.steal_pct_since(&before));
                let mut outcomes = if arms.len() == 1 {
                    vec![check_result_line(&line, size, msg_ids[0])]
                } else {
                    check_paired_line(&line, size, &msg_ids)
                };
                for o in &mut outcomes {
                    if let Outcome::Ok(m) = o {
                        m.cpu_ns_per_msg = cpu_ns_per_msg;
                        m.steal_pct = steal_pct;
                    }
                }
                outcomes
            }
        };
        let delivered = sink.map(|s| s.delivery().since(&before));
        let problem =
            delivered.as_ref().and_then(|delivery| delivery.delivery_problem(size.messages * arms.len() as u64));
        let outcomes = match problem {
            // The run is FAILED as a whole: which arm's message was lost cannot be told apart.
            Some(problem) if outcomes.iter().all(|o| matches!(o, Outcome::Ok(_))) => {
                arms.iter().map(|_| Outcome::Failed(problem.clone())).collect()
            }
            _ => outcomes,
        };
        (outcomes, delivered)
    }

    /// One lock-step set, its arms placed in an order shuffled from `seed` (a stream of its own,
    /// apart from the block order's): the order the processes start in, and which of the sink's
    /// listeners serves each, differ from set to set, so what a place costs or gives (starting
    /// first, the sink's first thread) falls on every arm alike rather than always on one, the
    /// A/A twin's included. The outcomes come back in `arms`' order.
    fn run_set(
        &mut self,
        settings: &Settings,
        arms: &[&Arm],
        size: Size,
        seed: u64,
    ) -> (Vec<Outcome>, Option<DeliverySnapshot>) {
        let places = BlockOrder::new(seed ^ PLACES_SALT, arms.len()).next().expect("block orders never end");
        let placed: Vec<&Arm> = places.iter().map(|&i| arms[i]).collect();
        let (outcomes, delivered) = self.run_placed_set(settings, &placed, size, seed);
        let mut by_arm: Vec<Option<Outcome>> = arms.iter().map(|_| None).collect();
        for (&i, outcome) in places.iter().zip(outcomes) {
            by_arm[i] = Some(outcome);
        }
        (by_arm.into_iter().map(|o| o.expect("every arm has a place")).collect(), delivered)
    }

    /// One lock-step set: a process per arm, started at once in the order given, each against
    /// its own listener of a sink that releases one batch at a time (`sink::lockstep`), with its
    /// block order from `seed`. Each arm's record takes the sink's timed turns; a set in which
    /// any process or connection failed is FAILED as a whole, naming that arm, and its other
    /// processes end (released at once; killed if they outlive SET_GRACE).
    fn run_placed_set(
        &mut self,
        settings: &Settings,
        arms: &[&Arm],
        size: Size,
        seed: u64,
    ) -> (Vec<Outcome>, Option<DeliverySnapshot>) {
        let failed = |why: String| (arms.iter().map(|_| Outcome::Failed(why.clone())).collect(), None);
        if let Err(e) = affinity::confine(settings.cpus.as_deref()) {
            return failed(format!("cannot run on CPUS={}: {e}", affinity::text(settings.cpus.as_deref())));
        }
        let cpus = settings.cpus.as_deref().unwrap_or(affinity::allowed());
        let (sink_cpus, producer_cpus) = affinity::split_for_set(cpus);
        let place = move || {
            affinity::pin_thread(&sink_cpus).with_context(|| format!("cannot run the set's sink on CPUs {sink_cpus:?}"))
        };
        let set = match sink_settings(settings).and_then(|s| {
            Sink::spawn_set(arms.len(), seed, s, Some(PayloadSpec::new(settings.bits, settings.pack)?), place)
        }) {
            Ok(set) => set,
            Err(e) => return failed(format!("cannot start the set's sink: {e:#}")),
        };
        // The producers inherit this thread's CPUs: theirs while they start, then the run's again.
        if let Err(e) = affinity::pin_thread(&producer_cpus) {
            return failed(format!("cannot run the set's producers on CPUs {producer_cpus:?}: {e}"));
        }
        let ticks = cpu::MachineTicks::now_on(settings.cpus.as_deref());
        let mut running = Vec::with_capacity(arms.len());
        for (arm, sink) in arms.iter().zip(&set.sinks) {
            let (mut command, send_path) = match self.producer(settings, arm) {
                Ok(found) => found,
                Err(e) => return failed(format!("{}: {e:#}", arm.label())),
            };
            let mut env = settings.producer_env(size);
            env.extend([
                ("MSG_ID", arm.msg_id.clone()),
                ("PAIRED", "0".into()),
                ("SEED", seed.to_string()),
                ("SERVER", sink.addr.to_string()),
            ]);
            env.extend([("INJECT_NS", arm.inject_ns.to_string()), ("INJECT_ARM", "0".into())]);
            if let Some(path) = send_path {
                env.push(("SEND_PATH", path.to_owned()));
            }
            // Frozen as a group, so a wrapper script's children stop with it.
            if settings.freeze {
                command.process_group(0);
            }
            match Started::spawn(command, &env) {
                Ok(started) => {
                    if settings.freeze {
                        set.pacer.freeze(running.len(), started.child.id());
                    }
                    running.push(started)
                }
                Err(why) => {
                    set.pacer.fail(running.len(), why.clone());
                    let _ = running.into_iter().map(|mut r| r.child.kill()).count();
                    return failed(format!("{}: {why}", arm.label()));
                }
            }
        }
        if let Err(e) = affinity::pin_thread(cpus) {
            return failed(format!("cannot run on CPUS={}: {e}", affinity::text(settings.cpus.as_deref())));
        }
        let ended = wait_for_set(&mut running, &set.pacer, Duration::from_secs(settings.timeout_s));
        let lines: Vec<_> =
            running.into_iter().zip(ended).map(|(r, e)| r.finish(e, Duration::from_secs(settings.timeout_s))).collect();
        let steal_pct = ticks
            .zip(cpu::MachineTicks::now_on(settings.cpus.as_deref()))
            .and_then(|(before, after)| after.steal_pct_since(&before));
        let delivered = set.sinks[0].delivery();
        let mut outcomes: Vec<(Outcome, Option<Duration>)> = arms
            .iter()
            .zip(lines)
            .map(|(arm, line)| match line {
                Ok((line, cpu)) => (check_result_line(&line, size, &arm.msg_id), cpu),
                Err(why) => (Outcome::Failed(why), None),
            })
            .collect();
        // A set is FAILED as a whole: an arm that failed says why; the others name it.
        let first_failed = outcomes.iter().position(|(o, _)| matches!(o, Outcome::Failed(_)));
        let culprit = match (first_failed, set.pacer.outcome()) {
            (Some(i), _) => Some((Some(i), failure(&outcomes[i].0))),
            (None, SetOutcome::Failed { arm, why }) => Some((Some(arm), why)),
            // Which arm's message was lost cannot be told apart.
            (None, SetOutcome::Done(_)) => {
                delivered.delivery_problem(size.messages * arms.len() as u64).map(|problem| (None, problem))
            }
        };
        if let Some((culprit, why)) = culprit {
            let failed = outcomes.into_iter().enumerate().map(|(k, (o, _))| match (o, culprit) {
                (Outcome::Failed(own), _) => Outcome::Failed(own),
                (Outcome::Ok(_), Some(i)) if i != k => {
                    Outcome::Failed(format!("its set FAILED: {}: {why}", arms[i].label()))
                }
                (Outcome::Ok(_), _) => Outcome::Failed(why.clone()),
            });
            return (failed.collect(), Some(delivered));
        }
        let SetOutcome::Done(turns) = set.pacer.outcome() else { unreachable!("a failed set returned above") };
        for ((outcome, cpu), (turns, timed_messages)) in
            outcomes.iter_mut().zip(timed_turns(&turns, settings.batch, size))
        {
            if let Outcome::Ok(m) = outcome {
                let total: u64 = turns.iter().map(|t| t.client_ns + t.service_ns).sum();
                // The producer's own figure counts its waits for the others' turns: the
                // throughput its turns imply at one request in flight replaces it.
                m.result.msgs_per_sec = if total > 0 { timed_messages as f64 * 1e9 / total as f64 } else { 0.0 };
                m.paired = Some((seed, turns.iter().map(|t| t.client_ns).collect()));
                m.service_ns = Some(turns.iter().map(|t| t.service_ns).collect());
                m.cpu_ns_per_msg = cpu.map(|c| c.as_nanos() as f64 / size.messages as f64);
                m.steal_pct = steal_pct;
            }
        }
        (outcomes.into_iter().map(|(o, _)| o).collect(), Some(delivered))
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
        for size in syscalls::sizes(settings.batch, settings.messages) {
            let out = scratch.join(format!("strace-{}-{}-{}.txt", arm.sdk, arm.msg_id, size.messages));
            if let Some(Outcome::Failed(why)) = self.run(settings, &[arm], size, 0, Some(&out)).0.pop() {
                return Err(format!("instrumented run of {} failed: {why}", arm.label()));
            }
            let text = std::fs::read_to_string(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
            summaries.push(syscalls::Summary::parse(&text));
        }
        Ok(syscalls::per_message(settings.batch, settings.messages, &summaries[0], &summaries[1]))
    }
}

/// The sinks' settings: the defaults, forwarding to UPSTREAM where it is given.
fn sink_settings(settings: &Settings) -> anyhow::Result<SinkSettings> {
    let upstream = match settings.upstream.as_deref() {
        None => None,
        Some(text) => {
            Some(text.to_socket_addrs()?.next().with_context(|| format!("UPSTREAM={text} resolves to no address"))?)
        }
    };
    Ok(SinkSettings { upstream, ..SinkSettings::default() })
}

/// Starts the producer and waits for it within `timeout`: its last stdout line and its CPU
/// time, or why the run FAILED.
fn run_once(cmd: Command, env: &[(&str, String)], timeout: Duration) -> Result<(String, Option<Duration>), String> {
    let mut started = Started::spawn(cmd, env)?;
    let ended =
        cpu::wait_with_cpu(&mut started.child, timeout).map_err(|e| format!("waiting for the producer failed: {e}"));
    started.finish(ended, timeout)
}

/// A producer process under way, its output drained on threads of their own so a chatty
/// producer cannot block on a full pipe.
struct Started {
    child: std::process::Child,
    stdout: std::thread::JoinHandle<String>,
    stderr: std::thread::JoinHandle<String>,
}

impl Started {
    fn spawn(mut cmd: Command, env: &[(&str, String)]) -> Result<Started, String> {
        cmd.envs(env.iter().map(|(k, v)| (k, v))).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
        let mut stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let stdout = std::thread::spawn(move || read_all(&mut stdout));
        let stderr = std::thread::spawn(move || read_all(&mut stderr));
        Ok(Started { child, stdout, stderr })
    }

    /// Its last stdout line and CPU time once it `ended` (None: killed at `timeout`), or why the
    /// run FAILED.
    fn finish(
        self,
        ended: Result<Option<cpu::Ended>, String>,
        timeout: Duration,
    ) -> Result<(String, Option<Duration>), String> {
        let stdout = self.stdout.join().unwrap_or_default();
        let stderr = self.stderr.join().unwrap_or_default();
        let Some(ended) = ended? else {
            return Err(format!("timed out after {}s and was killed", timeout.as_secs()));
        };
        if !ended.status.success() {
            let why = last_line(&stderr);
            return Err(format!(
                "exited with {}: {}",
                ended.status,
                if why.is_empty() { "no error line" } else { why }
            ));
        }
        Ok((last_line(&stdout).to_owned(), Some(ended.cpu)))
    }
}

/// Once a set has FAILED its other processes are released and run on unpaced; one still
/// running after this is killed (the set is FAILED whatever it does).
const SET_GRACE: Duration = Duration::from_secs(2);

fn failure(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Failed(why) => why.clone(),
        Outcome::Ok(_) => String::new(),
    }
}

/// Waits for every process of a set within `timeout`. A process that ends in error fails the
/// set at once, naming it (so the others are released rather than held for it); once the set
/// has failed, processes still running after SET_GRACE are killed. Polls every 20 ms: a
/// finer poll would wake the runner between the producers' turns.
fn wait_for_set(running: &mut [Started], pacer: &Pacer, timeout: Duration) -> Vec<Result<Option<cpu::Ended>, String>> {
    let started = Instant::now();
    let mut ended: Vec<Option<Result<Option<cpu::Ended>, String>>> = running.iter().map(|_| None).collect();
    let mut failed_at: Option<Instant> = None;
    while ended.iter().any(Option::is_none) {
        for (i, (r, end)) in running.iter_mut().zip(ended.iter_mut()).enumerate().filter(|(_, (_, e))| e.is_none()) {
            *end = match cpu::try_wait(&r.child) {
                Ok(None) => None,
                Ok(Some(e)) => {
                    if e.status.success() {
                        pacer.exited(i);
                    } else {
                        pacer.fail(i, format!("exited with {}", e.status));
                    }
                    Some(Ok(Some(e)))
                }
                Err(e) => Some(Err(format!("waiting for the producer failed: {e}"))),
            };
        }
        if pacer.failed() {
            failed_at.get_or_insert_with(Instant::now);
        }
        let timed_out = started.elapsed() > timeout;
        if timed_out || failed_at.is_some_and(|t| t.elapsed() > SET_GRACE) {
            for (r, end) in running.iter_mut().zip(ended.iter_mut()).filter(|(_, e)| e.is_none()) {
                let _ = r.child.kill();
                *end = Some(match cpu::wait_with_cpu(&mut r.child, Duration::from_secs(5)) {
                    Ok(_) if timed_out => Ok(None),
                    Ok(_) => {
                        Err(format!("was still running {} s after its set FAILED, and was killed", SET_GRACE.as_secs()))
                    }
                    Err(e) => Err(format!("waiting for the producer failed: {e}")),
                });
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    ended.into_iter().map(|e| e.expect("every process ended")).collect()
}

/// Each arm's timed turns, aligned block by block (a block some arm lacks is dropped), and the
/// messages they carried. Turn k times the build of batch k + 1, so the timed window (the
/// batches after the warm-up's) starts at the turn numbered the warm-up's batches less one.
fn timed_turns(turns: &[Vec<Turn>], batch: u32, size: Size) -> Vec<(Vec<Turn>, u64)> {
    let batch = u64::from(batch);
    let skip = size.warmup.div_ceil(batch).saturating_sub(1) as usize;
    let blocks = turns.iter().map(Vec::len).min().unwrap_or(0);
    let start = skip.min(blocks);
    let carried = |k: usize| batch.min(size.messages.saturating_sub((k as u64 + 1) * batch));
    turns.iter().map(|t| (t[start..blocks].to_vec(), (start..blocks).map(carried).sum())).collect()
}

/// The last non-empty line of a producer's output.
fn last_line(text: &str) -> &str {
    text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// The result line, if it is the contract's JSON for the run that was asked for.
fn check_result_line(line: &str, size: Size, msg_id: &str) -> Outcome {
    let (result, optional) =
        match (serde_json::from_str::<ProducerResult>(line), serde_json::from_str::<OptionalFields>(line)) {
            (Ok(r), Ok(o)) => (r, o),
            (Err(e), _) | (_, Err(e)) => {
                return Outcome::Failed(format!("result line {line:?} is not the contract's JSON: {e}"));
            }
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
    Outcome::Ok(Box::new(Measured {
        result,
        alloc_bytes_per_msg: optional.alloc_bytes_per_msg,
        paired: None,
        service_ns: None,
        cpu_ns_per_msg: None,
        steal_pct: None,
    }))
}

/// A paired result line (sdks/README.md), if it answers the run asked for: one outcome per arm.
fn check_paired_line(line: &str, size: Size, msg_ids: &[&str]) -> Vec<Outcome> {
    let all = |why: String| msg_ids.iter().map(|_| Outcome::Failed(why.clone())).collect();
    let r: PairedResult = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return all(format!("result line {:?} is not the contract's paired JSON: {e}", truncated(line))),
    };
    let names: Vec<&str> = r.arms.iter().map(|a| a.msg_id.as_str()).collect();
    if names != msg_ids || r.messages != size.messages || r.warmup != size.warmup {
        return all(format!(
            "paired result line reports MSG_ID={} MESSAGES={} WARMUP={}, but the run asked for {}, {}, {}",
            names.join(","),
            r.messages,
            r.warmup,
            msg_ids.join(","),
            size.messages,
            size.warmup
        ));
    }
    if let Some(a) = r.arms.iter().find(|a| {
        a.batch_ns.len() != r.blocks || r.blocks == 0 || !(a.msgs_per_sec.is_finite() && a.msgs_per_sec > 0.0)
    }) {
        return all(format!(
            "paired result line: arm {} has {} batch times for {} timed blocks at {} msgs/s",
            a.msg_id,
            a.batch_ns.len(),
            r.blocks,
            a.msgs_per_sec
        ));
    }
    r.arms
        .into_iter()
        .map(|a| {
            let result = ProducerResult {
                sdk: r.sdk.clone(),
                msg_id: a.msg_id,
                send_path: r.send_path,
                messages: r.messages,
                warmup: r.warmup,
                timed_messages: a.timed_messages,
                elapsed_ns: a.elapsed_ns,
                msgs_per_sec: a.msgs_per_sec,
                injected_ns: a.injected_ns,
                rtt_p50_ns: a.rtt_p50_ns,
                rtt_p99_ns: a.rtt_p99_ns,
                rtt_p999_ns: a.rtt_p999_ns,
            };
            Outcome::Ok(Box::new(Measured {
                result,
                alloc_bytes_per_msg: None,
                paired: Some((r.seed, a.batch_ns)),
                service_ns: None,
                cpu_ns_per_msg: None,
                steal_pct: None,
            }))
        })
        .collect()
}

/// A long line cut for an error message.
fn truncated(line: &str) -> String {
    if line.len() > 200 { format!("{}...", &line[..line.floor_char_boundary(200)]) } else { line.to_owned() }
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
        format!(
            r#"{{"sdk":"x","msg_id":"{msg_id}","send_path":"lean","messages":{messages},"warmup":1000,"timed_messages":1000,"elapsed_ns":5,"msgs_per_sec":{msgs_per_sec},"injected_ns":0,"alloc_bytes_per_msg":2.5}}"#
        )
    }

    #[test]
    fn a_result_line_must_answer_the_run_asked_for() {
        let Outcome::Ok(m) = check_result_line(&line("fast", 2000, 1e6), SIZE, "fast") else { panic!("a good line") };
        assert_eq!(m.alloc_bytes_per_msg, Some(2.5));
        let failed = |o: Outcome| match o {
            Outcome::Failed(why) => why,
            Outcome::Ok(_) => panic!("accepted"),
        };
        assert!(
            failed(check_result_line(&line("uuid", 2000, 1e6), SIZE, "fast"))
                .contains("but the run asked for fast, 2000, 1000")
        );
        assert!(failed(check_result_line(&line("fast", 2000, 0.0), SIZE, "fast")).contains("reports 0 msgs/s"));
        assert!(failed(check_result_line("hello", SIZE, "fast")).contains("is not the contract's JSON"));
        assert_eq!(last_line("a\nb \n\n"), "b");
    }
}
