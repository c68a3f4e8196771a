//! The `iggy` SDK row: the released Iggy Rust client (crates.io `iggy` 0.11.1-edge.9) as a
//! producer of the contract in sdks/README.md, on the `faithful` send path (the client's own
//! per-message work). Settings come from the contract's environment; it prints one JSON result
//! line, one arm or paired. MSG_ID `sdk` (alias `uuid`) leaves every id 0 so the client mints its
//! own UUIDv4; `fast` fills each batch's IDs with `idgen::fill`; `preset` mints every ID before
//! the first send; `counter` is the floor, sequential and NOT collision-safe.

mod ids;
mod produce;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use harness::producer::{Accepts, Lap, Mode, Plan, ProduceCommand, Recorder, SendPath};

use ids::{IdSource, Ids};

#[derive(Parser)]
#[command(about = "Produce the contract's messages with the released Iggy Rust client")]
struct Cli {
    #[command(flatten)]
    cmd: ProduceCommand,
    /// Partitions of the topic it creates; batch i goes to partition i % PARTITIONS.
    #[arg(long, env = "PARTITIONS", default_value_t = 1)]
    partitions: u32,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    harness::exit_code(run(&cli).map(|line| println!("{line}")))
}

fn run(cli: &Cli) -> anyhow::Result<String> {
    let plan = cli.cmd.plan(&accepts())?;
    if cli.partitions == 0 {
        anyhow::bail!("PARTITIONS=0 is out of range: it must be at least 1");
    }
    // preset arms mint every ID here, before the first block.
    let mut ids: Vec<Ids> = plan.arms.iter().map(|a| Ids::new(a.source, plan.messages)).collect();
    let recorder = match plan.mode {
        Mode::Producer => {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(produce::produce(&plan, &cli.cmd.args.server, cli.partitions, &mut ids))?
        }
        Mode::Mint => mint_loop(&plan, &mut ids),
    };
    Ok(serde_json::to_string(&plan.result(recorder))?)
}

/// What the iggy row accepts: the released client's own per-message work, so `faithful` only.
fn accepts() -> Accepts<IdSource> {
    Accepts { sdk: "iggy", send_path: SendPath::Faithful, msg_ids: ids::NAMES.to_vec() }
}

/// IDs per second with no network, batch by batch: `sdk` calls the client's own minting function.
fn mint_loop(plan: &Plan<IdSource>, ids: &mut [Ids]) -> Recorder {
    let mut recorder = Recorder::new(plan);
    for batch in plan.schedule() {
        let start = Instant::now();
        let injected_ns = plan.inject.spin(batch.arm, batch.count, start);
        let arm = &mut ids[batch.arm];
        if arm.source() == IdSource::Sdk {
            for _ in 0..batch.count {
                black_box(iggy_common::random_id::get_uuid());
            }
        } else {
            black_box(arm.batch(batch.count));
        }
        recorder.record(&batch, Lap { start, sent: None, acked: Instant::now(), injected_ns });
    }
    recorder
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(flags: &[&str]) -> anyhow::Result<Plan<IdSource>> {
        let cli = Cli::try_parse_from(["iggy-producer"].iter().chain(flags)).unwrap();
        cli.cmd.plan(&accepts())
    }

    #[test]
    fn uuid_is_the_sdk_path_under_its_contract_name() {
        let p = plan(&["--paired", "1", "--msg-id", "uuid,sdk,fast,preset,counter"]).unwrap();
        let arms: Vec<(&str, IdSource)> = p.arms.iter().map(|a| (a.msg_id, a.source)).collect();
        assert_eq!(
            arms,
            [
                ("uuid", IdSource::Sdk),
                ("sdk", IdSource::Sdk),
                ("fast", IdSource::Fast),
                ("preset", IdSource::Preset),
                ("counter", IdSource::Counter)
            ]
        );
        assert_eq!(p.send_path, SendPath::Faithful);
    }
}
