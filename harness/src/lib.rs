//! The harness: everything that measures what minting message IDs costs inside a producer.
//! The modules are listed bottom-up, each using only those before it: the Iggy wire format;
//! SplitMix64, which deals the paired block order and the runner's seeds; the Rust producer that
//! speaks the wire format; the sink that serves it and checks every delivery; the statistics;
//! where a result was measured; the writers of the languages' mint reports and of idgen's mint
//! costs; the runner that starts sinks and producers, judges the results and writes the reports,
//! with `calibrate` (what this machine can detect) on top; and the documents' generated blocks,
//! rendered from the committed results. The `harness` binary is a thin command line over them;
//! the real-client member (`sdks/iggy`, crate `iggy-producer`) and the fuzz targets (`fuzz/`)
//! use the wire format, the producer and the sink.

pub mod wire;
pub mod splitmix;
pub mod producer;
pub mod sink;
pub mod stats;
pub mod machine;
pub mod mint_report;
pub mod mint_costs;
pub mod runner;
pub mod docs;
pub use runner::calibrate;

/// How every binary of the project ends: success, or one `error: ...` line on stderr (with its
/// causes) and a failing exit status.
pub fn exit_code(outcome: anyhow::Result<()>) -> std::process::ExitCode {
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
