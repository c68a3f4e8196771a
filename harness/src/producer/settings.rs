//! The producer's settings (flags or the contract's environment variables), checked once, and
//! its result line.

use anyhow::bail;
use clap::{Args, ValueEnum};
use idgen::Strategy;
use serde::{Deserialize, Serialize};

use super::Timing;
use crate::wire::{BATCH_HEADER_LEN, HEADER_LEN, MESSAGE_HEADER_LEN, PayloadSpec};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Send messages to a sink and count acknowledged messages per second.
    Producer,
    /// Mint IDs in a loop with no network: IDs per second.
    Mint,
}

#[derive(Args, Debug, Clone)]
pub struct ProduceArgs {
    /// Sink address, host:port.
    #[arg(long, env = "SERVER", default_value = "127.0.0.1:8090")]
    pub server: String,
    #[arg(long, env = "MODE", value_enum, default_value = "producer")]
    pub mode: Mode,
    /// ID strategy: uuid, threadrng, fast, xoshiro, ospool, pooled, preset (IDs minted before
    /// the timed window) or prebuilt (whole frames built before it: the sink's ceiling).
    #[arg(long = "msg-id", env = "MSG_ID", default_value = "fast")]
    pub msg_id: String,
    #[command(flatten)]
    pub workload: Workload,
}

/// The payload and batching of a run: shared by `harness produce` and `harness calibrate`.
#[derive(Args, Debug, Clone)]
pub struct Workload {
    /// Bits per packed payload value, 1..=64.
    #[arg(long, env = "BITS", default_value_t = 42)]
    pub bits: u32,
    /// Values per message.
    #[arg(long, env = "PACK", default_value_t = 1)]
    pub pack: u32,
    /// Messages per SEND_MESSAGES request.
    #[arg(long, env = "BATCH", default_value_t = 1000)]
    pub batch: u32,
    /// Messages in the run, warm-up included.
    #[arg(long, env = "MESSAGES", default_value_t = 1_000_000)]
    pub messages: u64,
    /// Messages before the timed window (default: 10% of MESSAGES).
    #[arg(long, env = "WARMUP")]
    pub warmup: Option<u64>,
}

/// Where each message's ID comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdSource {
    Mint(Strategy),
    /// Minted with `fast` before the first send.
    Preset,
    /// Every frame, IDs included, built before the first send: the sink's ceiling.
    Prebuilt,
}

/// Checked settings and the batch layout they imply.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub mode: Mode,
    pub msg_id_name: &'static str,
    pub ids: IdSource,
    pub payload: PayloadSpec,
    pub batch: u32,
    pub messages: u64,
    /// Messages actually sent before the timed window: whole batches.
    pub warmup: u64,
}

impl ProduceArgs {
    pub fn plan(&self) -> anyhow::Result<Plan> {
        let ids = match self.msg_id.as_str() {
            "preset" => IdSource::Preset,
            "prebuilt" => IdSource::Prebuilt,
            name => match name.parse::<Strategy>() {
                Ok(s) => IdSource::Mint(s),
                Err(_) => bail!("MSG_ID={name} is unknown; expected one of {}", msg_id_names().join(", ")),
            },
        };
        let msg_id_name = msg_id_names().into_iter().find(|n| *n == self.msg_id).expect("checked above");
        let payload = PayloadSpec::new(self.workload.bits, self.workload.pack)?;
        if self.workload.batch == 0 {
            bail!("BATCH=0 is out of range: it must be at least 1");
        }
        if self.workload.messages < u64::from(self.workload.batch) {
            bail!("MESSAGES={} is below BATCH={}: a run needs at least one whole batch", self.workload.messages, self.workload.batch);
        }
        let requested = self.workload.warmup.unwrap_or(self.workload.messages / 10);
        let batch = u64::from(self.workload.batch);
        let warmup = (requested.div_ceil(batch) * batch).min(self.workload.messages);
        if self.mode == Mode::Producer && warmup >= self.workload.messages {
            bail!("WARMUP={requested} leaves no timed batch of MESSAGES={}", self.workload.messages);
        }
        Ok(Plan { mode: self.mode, msg_id_name, ids, payload, batch: self.workload.batch, messages: self.workload.messages, warmup })
    }
}

/// Every MSG_ID the Rust producer knows.
pub fn msg_id_names() -> Vec<&'static str> {
    Strategy::ALL.iter().map(|s| s.name()).chain(["preset", "prebuilt"]).collect()
}

impl Plan {
    /// (first sequence number, message count) of each batch, in order.
    pub fn batches(&self) -> impl Iterator<Item = (u64, u32)> + use<> {
        let (batch, messages) = (u64::from(self.batch), self.messages);
        (0..messages.div_ceil(batch)).map(move |i| (i * batch, (messages - i * batch).min(batch) as u32))
    }

    pub fn warmup_batches(&self) -> usize {
        (self.warmup / u64::from(self.batch)) as usize
    }

    pub fn timed_batches(&self) -> usize {
        self.messages.div_ceil(u64::from(self.batch)) as usize - self.warmup_batches()
    }

    pub fn frame_capacity(&self) -> usize {
        HEADER_LEN + 26 + BATCH_HEADER_LEN + self.batch as usize * (MESSAGE_HEADER_LEN + self.payload.len())
    }

    pub fn result(&self, sdk: &str, timing: Timing) -> ProducerResult {
        let timed = self.messages - self.warmup;
        let mut rtt = timing.rtt_ns;
        rtt.sort_unstable();
        let pct = |p: f64| (!rtt.is_empty()).then(|| rtt[((rtt.len() as f64 * p).ceil() as usize).clamp(1, rtt.len()) - 1]);
        ProducerResult {
            sdk: sdk.to_owned(),
            msg_id: self.msg_id_name.to_owned(),
            messages: self.messages,
            warmup: self.warmup,
            timed_messages: timed,
            elapsed_ns: timing.elapsed_ns,
            msgs_per_sec: timed as f64 / (timing.elapsed_ns.max(1) as f64 / 1e9),
            rtt_p50_ns: pct(0.50),
            rtt_p99_ns: pct(0.99),
            rtt_p999_ns: pct(0.999),
        }
    }
}

/// The one JSON line every producer prints (sdks/README.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProducerResult {
    pub sdk: String,
    pub msg_id: String,
    pub messages: u64,
    pub warmup: u64,
    pub timed_messages: u64,
    pub elapsed_ns: u64,
    pub msgs_per_sec: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p50_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p99_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p999_ns: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ProduceArgs,
    }

    fn plan(flags: &[&str]) -> anyhow::Result<Plan> {
        Cli::try_parse_from(["produce"].iter().chain(flags)).unwrap().args.plan()
    }

    #[test]
    fn warmup_rounds_up_to_whole_batches() {
        let p = plan(&["--messages", "10500", "--batch", "1000", "--warmup", "1500"]).unwrap();
        assert_eq!(p.warmup, 2000);
        assert_eq!((p.warmup_batches(), p.timed_batches()), (2, 9));
        let batches: Vec<_> = p.batches().collect();
        assert_eq!(batches.len(), 11);
        assert_eq!(batches[10], (10_000, 500), "the last batch is shorter");
    }

    #[test]
    fn bad_settings_name_the_setting() {
        let err = |flags: &[&str]| plan(flags).unwrap_err().to_string();
        assert!(err(&["--msg-id", "nope"]).starts_with("MSG_ID=nope is unknown"));
        assert!(err(&["--bits", "65"]).starts_with("BITS=65"));
        assert!(err(&["--bits", "0"]).starts_with("BITS=0"));
        assert!(err(&["--pack", "0"]).starts_with("PACK=0"));
        assert!(err(&["--batch", "0"]).starts_with("BATCH=0"));
        assert!(err(&["--messages", "10", "--batch", "100"]).starts_with("MESSAGES=10 is below BATCH=100"));
        assert!(err(&["--messages", "1000", "--batch", "100", "--warmup", "1000"]).starts_with("WARMUP=1000 leaves no timed batch"));
    }

    #[test]
    fn percentiles_pick_nearest_rank() {
        let p = plan(&["--messages", "2000", "--batch", "1000"]).unwrap();
        let r = p.result("rust", Timing { elapsed_ns: 1_000_000_000, rtt_ns: (1..=1000).rev().collect() });
        assert_eq!((r.rtt_p50_ns, r.rtt_p99_ns, r.rtt_p999_ns), (Some(500), Some(990), Some(999)));
        assert_eq!(r.timed_messages, 1000);
        assert_eq!(r.msgs_per_sec, 1000.0);
    }
}
