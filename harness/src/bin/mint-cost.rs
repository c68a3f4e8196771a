//! Mints N IDs with one strategy, for instruction and syscall counts (`scripts/mint-costs.sh`).
//! `baseline` runs the same loop with a constant, so `(Ir(strategy) - Ir(baseline)) / N` is the
//! cost of minting alone.

use std::hint::black_box;
use std::process::ExitCode;

use clap::Parser;
use idgen::{MessageId, Mint, OsPool, Pooled, Strategy, ThreadRngUuid, UuidV4, Xoshiro};

#[derive(Parser)]
#[command(about = "Mint N message IDs with one strategy (for callgrind and strace)")]
struct Args {
    /// `baseline` or a strategy: fast, pooled, xoshiro, ospool, uuid, threadrng.
    strategy: String,
    /// IDs to mint.
    #[arg(short, default_value_t = 1 << 18)]
    n: u64,
}

/// The measured loop. Every strategy is called directly (no dynamic dispatch), as a producer
/// holding the concrete type would.
#[inline(never)]
fn run(n: u64, mut next: impl FnMut() -> MessageId) -> u128 {
    let mut acc = 0u128;
    for _ in 0..n {
        acc ^= black_box(next()).as_u128();
    }
    acc
}

fn main() -> ExitCode {
    let args = Args::parse();
    let n = args.n;
    let acc = if args.strategy == "baseline" {
        run(n, || MessageId::from_u128(0))
    } else {
        let Ok(strategy) = args.strategy.parse::<Strategy>() else {
            eprintln!(
                "error: unknown strategy {:?} (baseline, or one of fast, pooled, xoshiro, ospool, uuid, threadrng)",
                args.strategy
            );
            return ExitCode::FAILURE;
        };
        match strategy {
            Strategy::Fast => run(n, idgen::mint),
            Strategy::Pooled => {
                let mut g = Pooled::new();
                run(n, || g.mint())
            }
            Strategy::Xoshiro => {
                let mut g = Xoshiro::new();
                run(n, || g.mint())
            }
            Strategy::OsPool => {
                let mut g = OsPool::new();
                run(n, || g.mint())
            }
            Strategy::Uuid => {
                let mut g = UuidV4::new();
                run(n, || g.mint())
            }
            Strategy::ThreadRng => {
                let mut g = ThreadRngUuid::new();
                run(n, || g.mint())
            }
        }
    };
    println!("{} n={n} xor={acc:032x}", args.strategy);
    ExitCode::SUCCESS
}
