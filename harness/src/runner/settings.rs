//! `harness run` settings: each a flag and an environment variable of the same name.

use anyhow::bail;
use clap::Args;
use serde::Serialize;

use super::sdk::{self, Sdk};
use crate::producer::{Mode, ProduceArgs};

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[arg(long, env = "MODE", value_enum, default_value = "producer")]
    pub mode: Mode,
    /// SDK rows, comma-separated (rust, node, java, go, csharp, python).
    #[arg(long, env = "SDK", default_value = "rust", value_delimiter = ',')]
    pub sdk: Vec<String>,
    /// ID strategies, comma-separated; each runs for every SDK.
    #[arg(long = "msg-id", env = "MSG_ID", default_value = "uuid,fast", value_delimiter = ',')]
    pub msg_id: Vec<String>,
    /// Timed runs per variant (after one discarded warm-up run each).
    #[arg(long, env = "REPEAT", default_value_t = 10)]
    pub repeat: u32,
    #[arg(long, env = "BITS", default_value_t = 42)]
    pub bits: u32,
    #[arg(long, env = "PACK", default_value_t = 1)]
    pub pack: u32,
    #[arg(long, env = "BATCH", default_value_t = 1000)]
    pub batch: u32,
    #[arg(long, env = "MESSAGES", default_value_t = 1_000_000)]
    pub messages: u64,
    /// Messages before each run's timed window (default: 10% of MESSAGES).
    #[arg(long, env = "WARMUP")]
    pub warmup: Option<u64>,
    /// Seconds one producer run may take before it is killed and reported FAILED.
    #[arg(long, env = "TIMEOUT", default_value_t = 300)]
    pub timeout: u64,
    /// Report name: results/<NAME>.json and .md (default from the settings).
    #[arg(long, env = "NAME")]
    pub name: Option<String>,
    /// Where reports are written.
    #[arg(long, env = "RESULTS_DIR")]
    pub results_dir: Option<std::path::PathBuf>,
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
    pub name: String,
}

impl RunArgs {
    /// Checks every setting before anything runs, naming the setting at fault.
    pub fn resolve(&self) -> anyhow::Result<(Resolved, Vec<&'static Sdk>)> {
        if self.repeat == 0 {
            bail!("REPEAT=0 is out of range: it must be at least 1");
        }
        if self.timeout == 0 {
            bail!("TIMEOUT=0 is out of range: it must be at least 1 second");
        }
        let sdks = self.sdk.iter().map(|name| sdk::find(name)).collect::<anyhow::Result<Vec<_>>>()?;
        if self.mode == Mode::Mint && sdks.iter().any(|s| s.name != "rust") {
            bail!("MODE=mint runs the Rust strategies only; each SDK's sdks/<lang>/bench.sh measures its own mint path");
        }
        for sdk in &sdks {
            for msg_id in &self.msg_id {
                sdk.check_msg_id(msg_id)?;
            }
        }
        let plan = ProduceArgs {
            server: String::new(),
            mode: self.mode,
            msg_id: self.msg_id.first().cloned().unwrap_or_default(),
            bits: self.bits,
            pack: self.pack,
            batch: self.batch,
            messages: self.messages,
            warmup: self.warmup,
        }
        .plan()?;
        let name = self.name.clone().unwrap_or_else(|| {
            let mode = match self.mode {
                Mode::Producer => "producer",
                Mode::Mint => "mint",
            };
            format!("{mode}-{}-bits{}-pack{}", self.sdk.join("-"), self.bits, self.pack)
        });
        if name.is_empty() || name.contains('/') {
            bail!("NAME={name:?} must be a plain file name");
        }
        let resolved = Resolved {
            mode: self.mode,
            sdks: self.sdk.clone(),
            msg_ids: self.msg_id.clone(),
            repeat: self.repeat,
            bits: self.bits,
            pack: self.pack,
            batch: self.batch,
            messages: self.messages,
            warmup: plan.warmup,
            timeout_s: self.timeout,
            name,
        };
        Ok((resolved, sdks))
    }
}

impl Resolved {
    /// The environment every producer run gets (sdks/README.md), less SERVER and MSG_ID.
    pub fn producer_env(&self) -> Vec<(&'static str, String)> {
        let mode = match self.mode {
            Mode::Producer => "producer",
            Mode::Mint => "mint",
        };
        vec![
            ("MODE", mode.into()),
            ("BITS", self.bits.to_string()),
            ("PACK", self.pack.to_string()),
            ("BATCH", self.batch.to_string()),
            ("MESSAGES", self.messages.to_string()),
            ("WARMUP", self.warmup.to_string()),
        ]
    }

    /// The full command that reproduces this run.
    pub fn command(&self) -> String {
        format!(
            "MODE={} SDK={} MSG_ID={} REPEAT={} BITS={} PACK={} BATCH={} MESSAGES={} WARMUP={} NAME={} scripts/bench.sh",
            self.producer_env()[0].1,
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

    fn resolve(flags: &[&str]) -> anyhow::Result<Resolved> {
        Cli::try_parse_from(["run"].iter().chain(flags)).unwrap().args.resolve().map(|(r, _)| r)
    }

    #[test]
    fn defaults_resolve_to_a_named_run() {
        let r = resolve(&[]).unwrap();
        assert_eq!(r.name, "producer-rust-bits42-pack1");
        assert_eq!((r.warmup, r.repeat), (100_000, 10));
        assert!(r.command().starts_with("MODE=producer SDK=rust MSG_ID=uuid,fast REPEAT=10 BITS=42"));
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let err = |flags: &[&str]| resolve(flags).unwrap_err().to_string();
        assert!(err(&["--repeat", "0"]).starts_with("REPEAT=0"));
        assert!(err(&["--sdk", "rust,cobol"]).starts_with("SDK=cobol is unknown"));
        assert!(err(&["--msg-id", "uuid,nope"]).starts_with("MSG_ID=nope is unknown to SDK rust"));
        assert!(err(&["--bits", "65"]).starts_with("BITS=65"));
        assert!(err(&["--pack", "0"]).starts_with("PACK=0"));
        assert!(err(&["--batch", "0"]).starts_with("BATCH=0"));
        assert!(err(&["--messages", "5"]).starts_with("MESSAGES=5 is below BATCH=1000"));
        assert!(err(&["--mode", "mint", "--sdk", "node"]).starts_with("MODE=mint runs the Rust strategies only"));
        assert!(err(&["--name", "a/b"]).contains("plain file name"));
    }
}
