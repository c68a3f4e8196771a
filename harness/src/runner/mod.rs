//! `harness run`: every SDK x MSG_ID variant, each run its own process, interleaved
//! (A B B A ...) after one discarded warm-up run each, with an A/A control that calibrates the
//! noise. Reports are rewritten after every run, marked incomplete until the last one.

mod execute;
mod machine;
mod report;
pub mod sdk;
mod settings;
mod stats;

use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

pub use settings::RunArgs;

use crate::producer::Mode;
use crate::sink::{Sink, SinkSettings};
use crate::wire::PayloadSpec;
use execute::{Outcome, run_once};
use machine::Machine;
use report::{Arm, Report, RunRecord};

/// The control: the Rust producer with the Iggy Rust SDK's own mint path, as two identical arms.
const CONTROL_SDK: &str = "rust";
const CONTROL_MSG_ID: &str = "threadrng";

/// Runs the whole benchmark; Ok(false) when any run FAILED.
pub fn run(args: &RunArgs) -> anyhow::Result<bool> {
    let (settings, sdks) = args.resolve()?;
    let root = sdk::repo_root();
    let results_dir = args.results_dir.clone().unwrap_or_else(|| root.join("results"));
    std::fs::create_dir_all(&results_dir).with_context(|| format!("cannot create {}", results_dir.display()))?;
    let mut used = sdks.clone();
    if settings.mode == Mode::Producer && !used.iter().any(|s| s.name == CONTROL_SDK) {
        used.push(sdk::find(CONTROL_SDK)?);
    }
    for sdk in &used {
        eprintln!("building {} ...", sdk.name);
        sdk.build(&root)?;
    }

    let mut arms = Vec::new();
    if settings.mode == Mode::Producer {
        arms.push(Arm::new(CONTROL_SDK, CONTROL_MSG_ID, Some('A')));
        arms.push(Arm::new(CONTROL_SDK, CONTROL_MSG_ID, Some('B')));
    }
    for sdk in &sdks {
        for msg_id in &settings.msg_ids {
            arms.push(Arm::new(sdk.name, msg_id, None));
        }
    }
    let order = schedule(arms.len(), settings.repeat as usize);

    let sink = match settings.mode {
        Mode::Producer => {
            let spec = PayloadSpec::new(settings.bits, settings.pack)?;
            Some(Sink::spawn("127.0.0.1:0".parse().expect("valid address"), SinkSettings::default(), Some(spec))?)
        }
        Mode::Mint => None,
    };
    let toolchains: Vec<(&str, &[&str])> = used.iter().map(|s| (s.name, s.version)).collect();
    let mut report = Report::new(settings.clone(), Machine::describe(&root, &toolchains), arms, order.len());
    let paths = report.paths(&results_dir);
    report.write(&paths)?;

    let bar = ProgressBar::new(order.len() as u64).with_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} run {pos}/{len}, ETA {eta} {msg}").expect("valid template"),
    );
    for (k, step) in order.iter().enumerate() {
        let arm = &report.arms[step.arm];
        bar.set_message(format!("{}{}", arm.label(), if step.warmup { " (warm-up)" } else { "" }));
        let sdk = sdk::find(&arm.sdk)?;
        let mut env = settings.producer_env();
        env.push(("MSG_ID", arm.msg_id.clone()));
        if let Some(sink) = &sink {
            env.push(("SERVER", sink.addr.to_string()));
        }
        let before = sink.as_ref().map(Sink::counts).unwrap_or_default();
        let outcome = run_once(sdk.command(&root)?, &env, Duration::from_secs(settings.timeout_s), &settings, &arm.msg_id);
        let delivered = sink.as_ref().map(|s| s.counts().since(&before));
        let outcome = match (outcome, delivered) {
            (Outcome::Ok(result), Some(counts)) => match counts.delivery_problem(settings.messages) {
                None => Outcome::Ok(result),
                Some(problem) => Outcome::Failed(problem),
            },
            (outcome, _) => outcome,
        };
        let line = match &outcome {
            Outcome::Ok(r) => format!("{:.0} msgs/s", r.msgs_per_sec),
            Outcome::Failed(reason) => format!("FAILED: {reason}"),
        };
        bar.println(format!("run {}/{} {}{}: {line}", k + 1, order.len(), arm.label(), if step.warmup { " (warm-up, discarded)" } else { "" }));
        report.record(step.arm, RunRecord::new(k + 1, step.warmup, outcome, delivered));
        report.write(&paths)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    report.finish();
    report.write(&paths)?;
    println!("{}", report.terminal_table());
    eprintln!("wrote {} and {}", paths.0.display(), paths.1.display());
    Ok(!report.any_failed())
}

/// One process to start: which arm, and whether it is its discarded warm-up run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    arm: usize,
    warmup: bool,
}

/// One warm-up run per arm, then `repeat` rounds alternating forward and backward
/// (A B C, C B A, A B C ...) so that drift over time hits every arm alike.
fn schedule(arms: usize, repeat: usize) -> Vec<Step> {
    let warmups = (0..arms).map(|arm| Step { arm, warmup: true });
    let rounds = (0..repeat).flat_map(move |round| {
        (0..arms).map(move |i| Step { arm: if round % 2 == 0 { i } else { arms - 1 - i }, warmup: false })
    });
    warmups.chain(rounds).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_warms_up_each_arm_then_alternates() {
        let order: Vec<(usize, bool)> = schedule(2, 4).iter().map(|s| (s.arm, s.warmup)).collect();
        assert_eq!(
            order,
            [(0, true), (1, true), (0, false), (1, false), (1, false), (0, false), (0, false), (1, false), (1, false), (0, false)]
        );
    }

    #[test]
    fn every_arm_runs_repeat_times() {
        let order = schedule(5, 3);
        for arm in 0..5 {
            assert_eq!(order.iter().filter(|s| s.arm == arm && !s.warmup).count(), 3);
            assert_eq!(order.iter().filter(|s| s.arm == arm && s.warmup).count(), 1);
        }
    }
}
