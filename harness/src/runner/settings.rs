//! `harness run` settings. Each is a flag and an environment variable of the same name, and a
//! field of a suite file (suites/*.toml); a flag or variable given overrides the file.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use serde::{Deserialize, Serialize};

use super::budget::Expect;
use super::execute::Size;
use super::sdk::{self, Sdk};
use crate::producer::{Mode, ProduceArgs, Workload};

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// A suite file (suites/*.toml): shared settings and [[workload]]s; flags and variables
    /// given here override it.
    #[arg(short = 'f', long = "file")]
    pub file: Option<PathBuf>,
    /// Print each workload's resolved settings and what differs between them; run nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub layer: Layer,
    /// Report name: <REPORT>/<NAME>.md, .json, .html (default: the suite's name, or one made
    /// from the settings).
    #[arg(long, env = "NAME")]
    pub name: Option<String>,
    /// Where reports are written [default: results/].
    #[arg(long = "report", visible_alias = "results-dir", env = "RESULTS_DIR", value_name = "DIR")]
    pub results_dir: Option<PathBuf>,
    /// Report formats, comma-separated: md, json, html.
    #[arg(long, env = "FORMAT", value_enum, value_delimiter = ',', default_value = "md,json,html")]
    pub format: Vec<Format>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Md,
    Json,
    Html,
}

/// One layer of settings: the command line, a workload, or a suite's top level. Unset fields
/// fall through to the layer below, and finally to the defaults.
#[derive(Args, Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    /// producer or mint [default: producer].
    #[arg(long, env = "MODE", value_enum)]
    pub mode: Option<Mode>,
    /// SDK rows, comma-separated (rust, node, java, go, csharp, python) [default: rust].
    #[arg(long, env = "SDK", value_delimiter = ',')]
    pub sdk: Option<Vec<String>>,
    /// ID strategies, comma-separated; each runs for every SDK [default: uuid,fast].
    #[arg(long = "msg-id", env = "MSG_ID", value_delimiter = ',')]
    pub msg_id: Option<Vec<String>>,
    /// Timed runs per variant, after one discarded warm-up run each [default: 10].
    #[arg(long, env = "REPEAT")]
    pub repeat: Option<u32>,
    /// Bits per packed payload value [default: 42].
    #[arg(long, env = "BITS")]
    pub bits: Option<u32>,
    /// Values per message [default: 1].
    #[arg(long, env = "PACK")]
    pub pack: Option<u32>,
    /// Messages per request [default: 1000].
    #[arg(long, env = "BATCH")]
    pub batch: Option<u32>,
    /// Messages per run, warm-up included [default: 1000000].
    #[arg(long, env = "MESSAGES")]
    pub messages: Option<u64>,
    /// Messages before each run's timed window [default: 10% of MESSAGES].
    #[arg(long, env = "WARMUP")]
    pub warmup: Option<u64>,
    /// Seconds one producer run may take before it is killed and reported FAILED [default: 300].
    #[arg(long, env = "TIMEOUT")]
    pub timeout: Option<u64>,
    /// Two extra runs per variant under strace for syscall and getrandom counts [default: true].
    #[arg(long, env = "COUNTS")]
    pub counts: Option<bool>,
    /// Budgets: suite files only.
    #[arg(skip)]
    pub expect: Option<Expect>,
}

impl Layer {
    /// This layer with its unset fields taken from `below`.
    pub fn over(&self, below: &Layer) -> Layer {
        let s = self.clone();
        let b = below.clone();
        Layer {
            mode: s.mode.or(b.mode),
            sdk: s.sdk.or(b.sdk),
            msg_id: s.msg_id.or(b.msg_id),
            repeat: s.repeat.or(b.repeat),
            bits: s.bits.or(b.bits),
            pack: s.pack.or(b.pack),
            batch: s.batch.or(b.batch),
            messages: s.messages.or(b.messages),
            warmup: s.warmup.or(b.warmup),
            timeout: s.timeout.or(b.timeout),
            counts: s.counts.or(b.counts),
            expect: match (s.expect, b.expect) {
                (Some(e), Some(below)) => Some(e.over(&below)),
                (e, below) => e.or(below),
            },
        }
    }

    /// The settings given, as `NAME=value` (for the command that reproduces a run).
    pub fn given(&self) -> Vec<String> {
        let list = |v: &Option<Vec<String>>| v.as_ref().map(|v| v.join(","));
        [
            ("MODE", self.mode.map(mode_name).map(str::to_owned)),
            ("SDK", list(&self.sdk)),
            ("MSG_ID", list(&self.msg_id)),
            ("REPEAT", self.repeat.map(|v| v.to_string())),
            ("BITS", self.bits.map(|v| v.to_string())),
            ("PACK", self.pack.map(|v| v.to_string())),
            ("BATCH", self.batch.map(|v| v.to_string())),
            ("MESSAGES", self.messages.map(|v| v.to_string())),
            ("WARMUP", self.warmup.map(|v| v.to_string())),
            ("TIMEOUT", self.timeout.map(|v| v.to_string())),
            ("COUNTS", self.counts.map(|v| v.to_string())),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| format!("{k}={v}")))
        .collect()
    }
}

pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Producer => "producer",
        Mode::Mint => "mint",
    }
}

/// Settings recorded beside the results.
#[derive(Clone, Debug, Serialize)]
pub struct Resolved {
    pub mode: Mode,
    pub sdks: Vec<String>,
    pub msg_ids: Vec<String>,
    pub repeat: u32,
    pub bits: u32,
    pub pack: u32,
    pub batch: u32,
    pub messages: u64,
    pub warmup: u64,
    pub timeout_s: u64,
    pub counts: bool,
    pub name: String,
}

impl Layer {
    /// Applies the defaults and checks every setting before anything runs, naming the setting
    /// at fault. `name` is the workload's name, if it has one.
    pub fn resolve(&self, name: Option<&str>) -> anyhow::Result<(Resolved, Vec<&'static Sdk>)> {
        let mode = self.mode.unwrap_or(Mode::Producer);
        let sdk_names = self.sdk.clone().unwrap_or_else(|| vec!["rust".into()]);
        let msg_ids = self.msg_id.clone().unwrap_or_else(|| vec!["uuid".into(), "fast".into()]);
        let repeat = self.repeat.unwrap_or(10);
        let (bits, pack, batch) = (self.bits.unwrap_or(42), self.pack.unwrap_or(1), self.batch.unwrap_or(1000));
        let messages = self.messages.unwrap_or(1_000_000);
        let timeout = self.timeout.unwrap_or(300);
        if repeat == 0 {
            bail!("REPEAT=0 is out of range: it must be at least 1");
        }
        if timeout == 0 {
            bail!("TIMEOUT=0 is out of range: it must be at least 1 second");
        }
        if let Some(dup) = msg_ids.iter().enumerate().find_map(|(i, m)| msg_ids[..i].contains(m).then_some(m)) {
            bail!("MSG_ID={dup} is listed twice");
        }
        let sdks = sdk_names.iter().map(|name| sdk::find(name)).collect::<anyhow::Result<Vec<_>>>()?;
        if mode == Mode::Mint && sdks.iter().any(|s| s.name != "rust") {
            bail!("MODE=mint runs the Rust strategies only; each SDK's sdks/<lang>/bench.sh measures its own mint path");
        }
        for sdk in &sdks {
            for msg_id in &msg_ids {
                sdk.check_msg_id(msg_id)?;
            }
        }
        // The payload and batch settings are checked as the Rust producer checks them; MSG_ID was
        // checked per SDK above, so a name every row knows stands in for it here.
        let plan = ProduceArgs {
            server: String::new(),
            mode,
            msg_id: "fast".into(),
            workload: Workload { bits, pack, batch, messages, warmup: self.warmup },
        }
        .plan()?;
        let name = name.map_or_else(|| format!("{}-{}-bits{bits}-pack{pack}", mode_name(mode), sdk_names.join("-")), str::to_owned);
        check_file_name("NAME", &name)?;
        let resolved = Resolved {
            mode,
            sdks: sdk_names,
            msg_ids,
            repeat,
            bits,
            pack,
            batch,
            messages,
            warmup: plan.warmup,
            timeout_s: timeout,
            counts: self.counts.unwrap_or(true),
            name,
        };
        if let Some(expect) = &self.expect {
            expect.check(&resolved)?;
        }
        Ok((resolved, sdks))
    }
}

pub fn check_file_name(what: &str, name: &str) -> anyhow::Result<()> {
    if name.is_empty() || name.contains('/') {
        bail!("{what}={name:?} must be a plain file name");
    }
    Ok(())
}

impl Resolved {
    /// The environment every producer run gets (sdks/README.md), less SERVER and MSG_ID.
    pub fn producer_env(&self, size: Size) -> Vec<(&'static str, String)> {
        vec![
            ("MODE", mode_name(self.mode).into()),
            ("BITS", self.bits.to_string()),
            ("PACK", self.pack.to_string()),
            ("BATCH", self.batch.to_string()),
            ("MESSAGES", size.messages.to_string()),
            ("WARMUP", size.warmup.to_string()),
        ]
    }

    pub fn size(&self) -> Size {
        Size { messages: self.messages, warmup: self.warmup }
    }

    /// Every setting that shapes the measurement, as (name, value), for showing and diffing.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("mode", mode_name(self.mode).into()),
            ("sdk", self.sdks.join(",")),
            ("msg_id", self.msg_ids.join(",")),
            ("repeat", self.repeat.to_string()),
            ("bits", self.bits.to_string()),
            ("pack", self.pack.to_string()),
            ("batch", self.batch.to_string()),
            ("messages", self.messages.to_string()),
            ("warmup", self.warmup.to_string()),
            ("timeout", self.timeout_s.to_string()),
            ("counts", self.counts.to_string()),
        ]
    }

    /// The full command that reproduces this workload on its own.
    pub fn command(&self) -> String {
        format!(
            "MODE={} SDK={} MSG_ID={} REPEAT={} BITS={} PACK={} BATCH={} MESSAGES={} WARMUP={} NAME={} scripts/bench.sh",
            mode_name(self.mode),
            self.sdks.join(","),
            self.msg_ids.join(","),
            self.repeat,
            self.bits,
            self.pack,
            self.batch,
            self.messages,
            self.warmup,
            self.name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: RunArgs,
    }

    fn layer(flags: &[&str]) -> Layer {
        Cli::try_parse_from(["run"].iter().chain(flags)).unwrap().args.layer
    }

    fn resolve(flags: &[&str]) -> anyhow::Result<Resolved> {
        let args = Cli::try_parse_from(["run"].iter().chain(flags)).unwrap().args;
        args.layer.resolve(args.name.as_deref()).map(|(r, _)| r)
    }

    #[test]
    fn defaults_resolve_to_a_named_run() {
        let r = resolve(&[]).unwrap();
        assert_eq!(r.name, "producer-rust-bits42-pack1");
        assert_eq!((r.warmup, r.repeat, r.counts), (100_000, 10, true));
        assert!(r.command().starts_with("MODE=producer SDK=rust MSG_ID=uuid,fast REPEAT=10 BITS=42"));
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let err = |flags: &[&str]| resolve(flags).unwrap_err().to_string();
        assert!(err(&["--repeat", "0"]).starts_with("REPEAT=0"));
        assert!(err(&["--sdk", "rust,cobol"]).starts_with("SDK=cobol is unknown"));
        assert!(err(&["--msg-id", "uuid,nope"]).starts_with("MSG_ID=nope is unknown to SDK rust"));
        assert!(err(&["--msg-id", "uuid,fast,uuid"]).starts_with("MSG_ID=uuid is listed twice"));
        assert!(err(&["--bits", "65"]).starts_with("BITS=65"));
        assert!(err(&["--pack", "0"]).starts_with("PACK=0"));
        assert!(err(&["--batch", "0"]).starts_with("BATCH=0"));
        assert!(err(&["--messages", "5"]).starts_with("MESSAGES=5 is below BATCH=1000"));
        assert!(err(&["--mode", "mint", "--sdk", "node"]).starts_with("MODE=mint runs the Rust strategies only"));
        assert!(err(&["--name", "a/b"]).contains("plain file name"));
    }

    #[test]
    fn upper_layers_win_field_by_field() {
        let top = Layer { repeat: Some(10), pack: Some(1), messages: Some(500), ..Layer::default() };
        let workload = Layer { pack: Some(167), ..Layer::default() };
        let merged = layer(&["--messages", "20000"]).over(&workload.over(&top));
        assert_eq!((merged.repeat, merged.pack, merged.messages, merged.bits), (Some(10), Some(167), Some(20000), None));
        assert_eq!(merged.given(), ["REPEAT=10", "PACK=167", "MESSAGES=20000"]);
    }
}
