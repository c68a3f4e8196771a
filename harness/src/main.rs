//! mintbench's harness: the sink, the Rust producer, the run orchestrator and the test vectors.

mod vectors;

use harness::{producer, runner, sink, wire};

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use sink::{Sink, SinkSettings, upstream};
use wire::PayloadSpec;

#[derive(Parser)]
#[command(version, about = "Measure what minting message IDs costs inside streaming producers")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the Iggy wire format for producers and check every delivery.
    Sink(SinkArgs),
    /// Run the Rust producer once and print one JSON result line.
    Produce(producer::ProduceCommand),
    /// Run every SDK x MSG_ID arm REPEAT times, interleaved, with an A/A control, judge the
    /// budgets, and write results/<NAME>.md, .json and .html (a suite file: -f suites/X.toml).
    Run(runner::RunArgs),
    /// Measure what this machine can detect: false alarms of A/A suites and detection rates of
    /// injected slowdowns.
    Calibrate(runner::CalibrateArgs),
    /// Run a command under `strace -f -c` and print its calls per syscall as one JSON object.
    Syscalls(runner::syscalls::SyscallsArgs),
    /// Print the shared test vectors (sdks/vectors.json).
    Vectors,
    /// Print the settings of `harness run` as a table: variable, flag, default, meaning.
    Settings(SettingsArgs),
    /// Turn a language benchmark's raw samples (sdks/README.md) into results/sdk-<lang>-mint.json and .md.
    MintReport(MintReportArgs),
    /// Write results/mint-costs.md from the JSON that scripts/mint-costs.sh measured.
    MintCosts {
        /// The JSON `mint-cost record` wrote.
        #[arg(default_value = "results/mint-costs.json")]
        json: std::path::PathBuf,
    },
    /// Rewrite every generated block of README.md, idgen/README.md, docs/ and results/README.md
    /// from the committed result files (with --check: only say which differ, and fail).
    Docs(DocsArgs),
}

#[derive(clap::Args)]
struct DocsArgs {
    /// Change nothing; fail naming every document whose blocks differ from the result files.
    #[arg(long)]
    check: bool,
}

#[derive(clap::Args)]
struct SettingsArgs {
    /// Print only the names of every variable the harness and its producers read, one a line
    /// (for clearing an environment).
    #[arg(long)]
    env_names: bool,
}

#[derive(clap::Args)]
struct MintReportArgs {
    /// The raw sample file a folder's mint-bench.sh wrote.
    raw: std::path::PathBuf,
    /// Where to write sdk-<lang>-mint.json and .md.
    #[arg(long, default_value = "results")]
    results_dir: std::path::PathBuf,
}

#[derive(clap::Args)]
struct SinkArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8090")]
    listen: SocketAddr,
    /// Allow a non-loopback listen address.
    #[arg(long)]
    public: bool,
    /// BITS of the payloads producers will send (checked per message).
    #[arg(long, env = "BITS", allow_negative_numbers = true, default_value_t = 42)]
    bits: u32,
    /// PACK of the payloads producers will send.
    #[arg(long, env = "PACK", allow_negative_numbers = true, default_value_t = 1)]
    pack: u32,
    /// Count messages without checking their payloads (for clients that send their own).
    #[arg(long)]
    no_verify: bool,
    /// Largest frame accepted, in bytes (at least one message's SEND_MESSAGES frame).
    #[arg(long, allow_negative_numbers = true, default_value_t = SinkSettings::default().max_frame)]
    max_frame: u32,
    /// Seconds a connection may stay silent before it is closed.
    #[arg(long, allow_negative_numbers = true, default_value_t = SinkSettings::default().idle_timeout.as_secs())]
    idle_timeout: u64,
    /// Connections served at once; more are closed on arrival.
    #[arg(long, allow_negative_numbers = true, default_value_t = SinkSettings::default().max_connections)]
    max_connections: usize,
    /// Forward every request to the Iggy server at this host:port and relay its replies, still
    /// verifying every batch (exactly once, in order).
    #[arg(long, value_name = "HOST:PORT")]
    upstream: Option<String>,
}

fn docs(check: bool) -> anyhow::Result<()> {
    let found = harness::docs::update(&runner::sdk::repo_root(), check)?;
    let names = found.stale.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    match (check, found.stale.is_empty()) {
        (_, true) => println!("every generated block matches the result files"),
        (true, false) => anyhow::bail!("generated blocks differ from the result files in {names}: run `harness docs`"),
        (false, false) => println!("rewrote {names}"),
    }
    if !found.hand_typed.is_empty() {
        anyhow::bail!(
            "figures typed by hand outside generated blocks (put each in a block or link to its result file): {}",
            found.hand_typed.join(", ")
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => match unreadable_value(&e) {
            Some(line) => return harness::exit_code(Err(anyhow::anyhow!(line))),
            None => e.exit(),
        },
    };
    let outcome = match cli.command {
        Command::Sink(args) => run_sink(args),
        Command::Produce(cmd) => cmd.run().map(|line| {
            println!("{}", serde_json::to_string(&line).expect("serializable"));
        }),
        Command::Run(args) => runner::run(&args),
        Command::Calibrate(args) => runner::calibrate(&args),
        Command::Syscalls(args) => runner::syscalls::count(&args),
        Command::MintReport(args) => harness::mint_report::write(&args.raw, &args.results_dir).map(|written| {
            println!("wrote {}", written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "));
        }),
        Command::MintCosts { json } => harness::mint_costs::write(&json).map(|md| println!("wrote {}", md.display())),
        Command::Docs(args) => docs(args.check),
        Command::Vectors => {
            println!("{}", serde_json::to_string_pretty(&vectors::generate()).expect("serializable"));
            Ok(())
        }
        Command::Settings(args) => {
            print!(
                "{}",
                if args.env_names {
                    runner::settings::env_names().join("\n") + "\n"
                } else {
                    runner::settings::table()
                }
            );
            Ok(())
        }
    };
    harness::exit_code(outcome)
}

/// A flag or value clap could not read, said as the runner says it: one line naming the setting
/// as the user gave it (`--bits abc` or `BITS=abc`), or the unknown flag, not clap's usage block.
fn unreadable_value(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let argv: Vec<String> = std::env::args().collect();
    let cli = <Cli as clap::CommandFactory>::command();
    let sub = cli.find_subcommand(argv.get(1)?)?;
    if e.kind() == ErrorKind::UnknownArgument {
        let name = sub.get_name();
        return Some(format!(
            "{} is not an option of harness {name}; harness {name} --help lists them",
            text(ContextKind::InvalidArg)?
        ));
    }
    if !matches!(e.kind(), ErrorKind::InvalidValue | ErrorKind::ValueValidation) {
        return None;
    }
    let (arg, value) = (text(ContextKind::InvalidArg)?, text(ContextKind::InvalidValue)?);
    let long = arg.strip_prefix("--")?.split(' ').next()?.to_owned();
    let env = sub
        .get_arguments()
        .find(|a| a.get_long() == Some(long.as_str()))?
        .get_env()
        .map(|e| e.to_string_lossy().into_owned());
    let by_flag = argv.iter().any(|a| *a == format!("--{long}") || a.starts_with(&format!("--{long}=")));
    let given = match &env {
        Some(env) if !by_flag => format!("{env}={value}"),
        _ => format!("--{long} {value}"),
    };
    if value.is_empty() {
        return Some(match env {
            Some(env) if !by_flag => format!("{env} is set but empty: give it a value or unset it"),
            _ => format!("--{long} needs a value"),
        });
    }
    let why = match e.get(ContextKind::ValidValue) {
        Some(ContextValue::Strings(valid)) if !valid.is_empty() => {
            format!("is unknown; expected {}", valid.join(" or "))
        }
        _ => match std::error::Error::source(e) {
            Some(source) => format!("is not valid: {source}"),
            None => "is not valid".into(),
        },
    };
    Some(format!("{given} {why}"))
}

fn run_sink(args: SinkArgs) -> anyhow::Result<()> {
    if !args.listen.ip().is_loopback() && !args.public {
        anyhow::bail!("--listen {} is not a loopback address; add --public to serve other machines", args.listen);
    }
    let spec = if args.no_verify { None } else { Some(PayloadSpec::new(args.bits, args.pack)?) };
    let upstream = args.upstream.as_deref().map(|u| upstream::resolve("--upstream ", u)).transpose()?;
    let settings = SinkSettings {
        max_frame: args.max_frame,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        max_connections: args.max_connections,
        log_connections: true,
        upstream,
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let (sink, serving) = Sink::bind(args.listen, settings, spec).await?;
        eprintln!(
            "sink: listening on {} ({})",
            sink.addr,
            spec.map_or("payloads not checked".into(), |s| format!("BITS={} PACK={}", s.bits(), s.pack()))
        );
        tokio::select! {
            () = serving => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        eprintln!("sink: totals {}", serde_json::to_string(&sink.delivery())?);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn every_flag_says_what_it_does() {
        let cli = Cli::command();
        for sub in cli.get_subcommands() {
            for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
                let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
                assert!(help.len() > 10, "harness {} --{} has no help text", sub.get_name(), arg.get_id());
            }
        }
    }
}
