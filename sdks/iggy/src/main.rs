//! The `iggy` SDK row: the released Iggy Rust client (crates.io `iggy` 0.11.1-edge.9) as a
//! producer of the contract in sdks/README.md. Settings come from the contract's environment
//! (SERVER, MSG_ID, BITS, PACK, BATCH, MESSAGES, WARMUP, MODE); it prints one JSON result line.
//! MSG_ID `sdk` (alias `uuid`) leaves every id 0 so the client mints its own UUIDv4; `fast`
//! sets `idgen::mint()` on each message; `preset` mints every ID before the first send.

mod ids;
mod produce;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use harness::producer::{Mode, Plan, ProduceArgs, Timing};

use ids::{IdSource, Ids};

#[derive(Parser)]
#[command(about = "Produce the contract's messages with the released Iggy Rust client")]
struct Cli {
    #[command(flatten)]
    args: ProduceArgs,
    /// Partitions of the topic it creates; batch i goes to partition i % PARTITIONS.
    #[arg(long, env = "PARTITIONS", default_value_t = 1)]
    partitions: u32,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> anyhow::Result<String> {
    let (source, name) = ids::parse(&cli.args.msg_id)?;
    if cli.partitions == 0 {
        anyhow::bail!("PARTITIONS=0 is out of range: it must be at least 1");
    }
    // The shared checks and batch layout, under a name the Rust producer knows.
    let mut plan = ProduceArgs { msg_id: "fast".into(), ..cli.args.clone() }.plan()?;
    plan.msg_id_name = name;
    let mut ids = Ids::new(source, plan.messages);
    let timing = match plan.mode {
        Mode::Producer => {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(produce::produce(&plan, &cli.args.server, cli.partitions, &mut ids))?
        }
        Mode::Mint => mint_loop(&plan, source, &mut ids),
    };
    Ok(serde_json::to_string(&plan.result("iggy", timing))?)
}

/// IDs per second with no network: `sdk` calls the client's own minting function.
fn mint_loop(plan: &Plan, source: IdSource, ids: &mut Ids) -> Timing {
    let mut next = || if source == IdSource::Sdk { iggy_common::random_id::get_uuid() } else { ids.next() };
    for _ in 0..plan.warmup {
        black_box(next());
    }
    let start = Instant::now();
    for _ in plan.warmup..plan.messages {
        black_box(next());
    }
    Timing { elapsed_ns: start.elapsed().as_nanos() as u64, rtt_ns: Vec::new() }
}
