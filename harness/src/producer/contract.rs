//! The producer contract's settings (flags or the environment variables of sdks/README.md), checked
//! once into a [`Plan`]: the arms, the batch layout and the order the batches go out in.

use anyhow::bail;
use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};

use super::blocks::BlockOrder;
use super::inject::Inject;
use crate::wire::{MAX_FRAME, PayloadSpec, send_messages_len};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Send messages to a sink and count acknowledged messages per second.
    Producer,
    /// Mint IDs in a loop with no network: IDs per second.
    Mint,
}

/// SEND_PATH: whose per-message work surrounds the ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SendPath {
    /// Our producer: only the ID path is the SDK's.
    Lean,
    /// The real SDK's per-message work.
    Faithful,
}

impl SendPath {
    pub fn name(self) -> &'static str {
        match self {
            SendPath::Lean => "lean",
            SendPath::Faithful => "faithful",
        }
    }
}

/// The settings of one run of one arm, as every caller that checks a layout needs them.
#[derive(Args, Debug, Clone)]
pub struct ProduceArgs {
    /// Sink address, host:port.
    #[arg(long, env = "SERVER", default_value = "127.0.0.1:8090")]
    pub server: String,
    /// What the run measures: producer (msgs/s against the sink) or mint (IDs/s in a loop, no
    /// network).
    #[arg(long, env = "MODE", value_enum, default_value = "producer")]
    pub mode: Mode,
    /// ID strategy: uuid, threadrng, fast, xoshiro, ospool, pooled, preset (IDs minted before
    /// the timed window), counter (sequential from a random start, NOT collision-safe: a floor)
    /// or prebuilt (whole frames built before it: the sink's ceiling). With PAIRED=1 a comma
    /// list, one entry per arm.
    #[arg(long = "msg-id", env = "MSG_ID", default_value = "fast")]
    pub msg_id: String,
    #[command(flatten)]
    pub payload: PayloadArgs,
}

/// The payload and batching of a run: shared by `harness produce` and `harness calibrate`.
#[derive(Args, Debug, Clone)]
pub struct PayloadArgs {
    /// Bits per packed payload value, 1..=64.
    #[arg(long, env = "BITS", allow_negative_numbers = true, default_value_t = 42)]
    pub bits: u32,
    /// Values per message.
    #[arg(long, env = "PACK", allow_negative_numbers = true, default_value_t = 1)]
    pub pack: u32,
    /// Messages per SEND_MESSAGES request.
    #[arg(long, env = "BATCH", allow_negative_numbers = true, default_value_t = 1000)]
    pub batch: u32,
    /// Messages in the run, warm-up included (per arm in paired mode).
    #[arg(long, env = "MESSAGES", allow_negative_numbers = true, default_value_t = 1_000_000)]
    pub messages: u64,
    /// Messages before the timed window (default: 10% of MESSAGES; per arm in paired mode).
    #[arg(long, env = "WARMUP", allow_negative_numbers = true)]
    pub warmup: Option<u64>,
}

/// Every setting of the contract: a run's [`ProduceArgs`] and how its arms are dealt and slowed.
#[derive(Args, Debug, Clone)]
pub struct ProduceCommand {
    #[command(flatten)]
    pub args: ProduceArgs,
    /// 1: every arm of the MSG_ID list in one process and one connection, timed in blocks of
    /// one batch per arm in a shuffled order; 0: one arm.
    #[arg(long, env = "PAIRED", default_value = "0", action = clap::ArgAction::Set, value_parser = switch)]
    pub paired: bool,
    /// Seed of the block order in paired mode.
    #[arg(long, env = "SEED", allow_negative_numbers = true, default_value_t = 0)]
    pub seed: u64,
    /// lean or faithful [default: the producer's only path].
    #[arg(long = "send-path", env = "SEND_PATH")]
    pub send_path: Option<String>,
    /// Injected work per message of the arm at INJECT_ARM, in ns, a decimal such as 1.45 (spun
    /// per batch, to the nearest ns); 0: none.
    #[arg(long, env = "INJECT_NS", allow_negative_numbers = true, default_value = "0", value_parser = decimal_ns)]
    pub inject_ns: f64,
    /// 0-based index in the MSG_ID list of the arm that gets INJECT_NS.
    #[arg(long, env = "INJECT_ARM", allow_negative_numbers = true, default_value_t = 0)]
    pub inject_arm: usize,
}

fn switch(value: &str) -> Result<bool, String> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err("it is 0 or 1".into()),
    }
}

/// A second per message: far past calibration's needs, and a batch's spin stays within a u64.
const MAX_INJECT_NS: f64 = 1e9;

/// INJECT_NS as the contract writes it (sdks/README.md): a plain decimal, digits with an optional
/// fraction (no sign, exponent, `inf` or `nan`, which `f64::from_str` would take), in 0..=1e9.
fn decimal_ns(value: &str) -> Result<f64, String> {
    let why = || format!("it is a decimal number of ns in 0..={MAX_INJECT_NS}");
    let (whole, fraction) = value.split_once('.').unwrap_or((value, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(whole) && digits(fraction)) {
        return Err(why());
    }
    value.parse().ok().filter(|ns| *ns <= MAX_INJECT_NS).ok_or_else(why)
}

impl From<ProduceArgs> for ProduceCommand {
    /// One arm, the producer's own send path, no injected work.
    fn from(args: ProduceArgs) -> ProduceCommand {
        ProduceCommand { args, paired: false, seed: 0, send_path: None, inject_ns: 0.0, inject_arm: 0 }
    }
}

/// What a producer program accepts: its SDK row's name, its one send path and its MSG_ID
/// names, each with the ID source `S` it stands for.
pub struct Accepts<S> {
    pub sdk: &'static str,
    pub send_path: SendPath,
    pub msg_ids: Vec<(&'static str, S)>,
}

/// One entry of the MSG_ID list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedArm<S> {
    pub msg_id: &'static str,
    pub source: S,
}

/// Checked settings and the batch layout they imply.
#[derive(Clone, Debug)]
pub struct Plan<S> {
    pub sdk: &'static str,
    pub mode: Mode,
    pub arms: Vec<PlannedArm<S>>,
    pub paired: bool,
    pub seed: u64,
    pub send_path: SendPath,
    pub inject: Inject,
    pub payload: PayloadSpec,
    pub batch: u32,
    /// Per arm, warm-up included.
    pub messages: u64,
    /// Messages per arm actually sent before the timed window: whole batches.
    pub warmup: u64,
}

/// One batch of a run, in send order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Its position among the connection's batches, from 0.
    pub index: usize,
    pub block: usize,
    pub arm: usize,
    /// Past the warm-up blocks.
    pub timed: bool,
    /// The connection's sequence number of its first message.
    pub first_seq: u64,
    pub count: u32,
}

impl ProduceCommand {
    pub fn plan<S: Copy>(&self, accepts: &Accepts<S>) -> anyhow::Result<Plan<S>> {
        let (args, w) = (&self.args, &self.args.payload);
        let names: Vec<&str> = if self.paired { args.msg_id.split(',').collect() } else { vec![args.msg_id.as_str()] };
        let arms = names.iter().map(|name| accepts.arm(name)).collect::<anyhow::Result<Vec<_>>>()?;
        if self.paired && arms.len() < 2 {
            bail!("PAIRED=1 needs at least two arms; MSG_ID={} lists one", args.msg_id);
        }
        if self.paired && args.mode == Mode::Mint {
            bail!("PAIRED=1 times batches sent to a sink; it needs MODE=producer");
        }
        let send_path = match self.send_path.as_deref() {
            None => accepts.send_path,
            Some(p) if p == accepts.send_path.name() => accepts.send_path,
            Some(p @ ("lean" | "faithful")) => {
                bail!("SEND_PATH={p} is not a path of SDK {}; it has {} only", accepts.sdk, accepts.send_path.name())
            }
            Some(p) => bail!("SEND_PATH={p} is unknown; expected lean or faithful"),
        };
        if self.inject_arm >= arms.len() {
            bail!(
                "INJECT_ARM={} is outside the MSG_ID list of {} arm(s); expected 0..={}",
                self.inject_arm,
                arms.len(),
                arms.len() - 1
            );
        }
        let payload = PayloadSpec::new(w.bits, w.pack)?;
        if w.batch == 0 {
            bail!("BATCH=0 is out of range: it must be at least 1");
        }
        let frame = send_messages_len(w.batch, &payload);
        if args.mode == Mode::Producer && frame > u64::from(MAX_FRAME) {
            bail!(
                "BATCH={} x PACK={} makes a request of {frame} bytes, above the sink's frame limit of {MAX_FRAME}: lower BATCH or PACK",
                w.batch,
                w.pack
            );
        }
        if w.messages < u64::from(w.batch) {
            bail!("MESSAGES={} is below BATCH={}: a run needs at least one whole batch", w.messages, w.batch);
        }
        let requested = w.warmup.unwrap_or(w.messages / 10);
        let batch = u64::from(w.batch);
        let warmup = (requested.div_ceil(batch) * batch).min(w.messages);
        if args.mode == Mode::Producer && warmup >= w.messages {
            bail!("WARMUP={requested} leaves no timed batch of MESSAGES={}", w.messages);
        }
        Ok(Plan {
            sdk: accepts.sdk,
            mode: args.mode,
            arms,
            paired: self.paired,
            seed: self.seed,
            send_path,
            inject: Inject { ns_per_message: self.inject_ns, arm: self.inject_arm },
            payload,
            batch: w.batch,
            messages: w.messages,
            warmup,
        })
    }
}

impl<S: Copy> Accepts<S> {
    fn arm(&self, name: &str) -> anyhow::Result<PlannedArm<S>> {
        match self.msg_ids.iter().find(|(n, _)| *n == name) {
            Some(&(msg_id, source)) => Ok(PlannedArm { msg_id, source }),
            // Only a one-arm run sees the commas: paired mode split the list.
            None if name.contains(',') => bail!("MSG_ID={name} lists several arms; they need PAIRED=1"),
            None => bail!("MSG_ID={name} is unknown; expected one of {}", self.names().join(", ")),
        }
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.msg_ids.iter().map(|(n, _)| *n).collect()
    }
}

/// Blocks after the warm-up of a run of `messages` whose `warmup` is whole batches (a plan's).
pub fn timed_blocks(messages: u64, warmup: u64, batch: u32) -> u64 {
    messages.div_ceil(u64::from(batch)) - warmup / u64::from(batch)
}

impl<S> Plan<S> {
    /// Blocks in the run: one batch per arm each.
    pub fn blocks(&self) -> usize {
        self.messages.div_ceil(u64::from(self.batch)) as usize
    }

    pub fn warmup_blocks(&self) -> usize {
        (self.warmup / u64::from(self.batch)) as usize
    }

    pub fn timed_blocks(&self) -> usize {
        timed_blocks(self.messages, self.warmup, self.batch) as usize
    }

    /// Every batch of the run in send order: block after block, the arms of each block in
    /// [`BlockOrder`]'s order for the seed (with one arm, simply one batch per block).
    pub fn schedule(&self) -> impl Iterator<Item = Batch> + use<S> {
        let (batch, messages, arms, warmup_blocks) =
            (u64::from(self.batch), self.messages, self.arms.len(), self.warmup_blocks());
        BlockOrder::new(self.seed, arms).take(self.blocks()).enumerate().flat_map(move |(block, order)| {
            let count = (messages - block as u64 * batch).min(batch);
            order.into_iter().enumerate().map(move |(position, arm)| Batch {
                index: block * arms + position,
                block,
                arm,
                timed: block >= warmup_blocks,
                first_seq: (block * arms) as u64 * batch + position as u64 * count,
                count: count as u32,
            })
        })
    }

    pub fn frame_capacity(&self) -> usize {
        send_messages_len(self.batch, &self.payload) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        cmd: ProduceCommand,
    }

    fn accepts() -> Accepts<u8> {
        Accepts { sdk: "test", send_path: SendPath::Lean, msg_ids: vec![("uuid", 0), ("fast", 1), ("preset", 2)] }
    }

    fn plan(flags: &[&str]) -> anyhow::Result<Plan<u8>> {
        Cli::try_parse_from(["produce"].iter().chain(flags)).unwrap().cmd.plan(&accepts())
    }

    fn err(flags: &[&str]) -> String {
        plan(flags).unwrap_err().to_string()
    }

    #[test]
    fn warmup_rounds_up_to_whole_batches() {
        let p = plan(&["--messages", "10500", "--batch", "1000", "--warmup", "1500"]).unwrap();
        assert_eq!(p.warmup, 2000);
        assert_eq!((p.warmup_blocks(), p.timed_blocks()), (2, 9));
        let batches: Vec<_> = p.schedule().collect();
        assert_eq!(batches.len(), 11);
        assert_eq!((batches[10].first_seq, batches[10].count), (10_000, 500), "the last batch is shorter");
        assert_eq!(batches.iter().filter(|b| b.timed).count(), 9);
    }

    #[test]
    fn absent_settings_mean_one_arm_on_the_rows_path_without_injection() {
        let p = plan(&[]).unwrap();
        assert_eq!(
            (p.paired, p.seed, p.send_path, p.inject),
            (false, 0, SendPath::Lean, Inject { ns_per_message: 0.0, arm: 0 })
        );
        assert_eq!(p.arms, [PlannedArm { msg_id: "fast", source: 1 }]);
    }

    #[test]
    fn bad_settings_name_the_setting() {
        assert_eq!(err(&["--msg-id", "nope"]), "MSG_ID=nope is unknown; expected one of uuid, fast, preset");
        assert_eq!(
            err(&["--paired", "1", "--msg-id", "fast,nope"]),
            "MSG_ID=nope is unknown; expected one of uuid, fast, preset"
        );
        assert!(err(&["--msg-id", "fast,uuid"]).starts_with("MSG_ID=fast,uuid lists several arms; they need PAIRED=1"));
        assert!(err(&["--bits", "65"]).starts_with("BITS=65"));
        assert!(err(&["--bits", "0"]).starts_with("BITS=0"));
        assert!(err(&["--pack", "0"]).starts_with("PACK=0"));
        assert!(err(&["--batch", "0"]).starts_with("BATCH=0"));
        assert!(err(&["--messages", "10", "--batch", "100"]).starts_with("MESSAGES=10 is below BATCH=100"));
        assert!(
            err(&["--messages", "1000", "--batch", "100", "--warmup", "1000"])
                .starts_with("WARMUP=1000 leaves no timed batch")
        );
        // 42 bits are 6 bytes a value: 1000 x (48 + 6 x 12000) bytes, past the sink's 64 MiB.
        assert!(err(&["--pack", "12000"]).starts_with(
            "BATCH=1000 x PACK=12000 makes a request of 72048538 bytes, above the sink's frame limit of 67108864"
        ));
        assert!(plan(&["--pack", "11000"]).is_ok());
        assert!(plan(&["--pack", "12000", "--mode", "mint"]).is_ok(), "MODE=mint sends no frame");
    }

    #[test]
    fn paired_needs_two_arms_and_the_producer_mode() {
        assert!(
            err(&["--paired", "1", "--msg-id", "fast"])
                .starts_with("PAIRED=1 needs at least two arms; MSG_ID=fast lists one")
        );
        assert!(
            err(&["--paired", "1", "--msg-id", "fast,uuid", "--mode", "mint"])
                .starts_with("PAIRED=1 times batches sent to a sink")
        );
        assert!(Cli::try_parse_from(["produce", "--paired", "2"]).is_err());
    }

    #[test]
    fn inject_arm_must_name_an_arm() {
        assert!(
            err(&["--inject-arm", "1"])
                .starts_with("INJECT_ARM=1 is outside the MSG_ID list of 1 arm(s); expected 0..=0")
        );
        assert!(
            err(&["--paired", "1", "--msg-id", "fast,fast", "--inject-arm", "2"])
                .starts_with("INJECT_ARM=2 is outside the MSG_ID list of 2 arm(s)")
        );
        let p = plan(&["--paired", "1", "--msg-id", "fast,fast", "--inject-arm", "1", "--inject-ns", "50"]).unwrap();
        assert_eq!(p.inject, Inject { ns_per_message: 50.0, arm: 1 });
    }

    #[test]
    fn inject_ns_is_a_plain_decimal() {
        assert_eq!(plan(&["--inject-ns", "1.45"]).unwrap().inject.ns_per_message, 1.45);
        assert_eq!(plan(&["--inject-ns", "1000000000"]).unwrap().inject.ns_per_message, 1e9);
        for bad in ["abc", "-1", "1e3", "1.2.3", ".5", "5.", "inf", "nan", "1000000000.5"] {
            assert!(Cli::try_parse_from(["produce", "--inject-ns", bad]).is_err(), "{bad}");
        }
        assert_eq!(decimal_ns("-1").unwrap_err(), "it is a decimal number of ns in 0..=1000000000");
    }

    #[test]
    fn a_send_path_the_row_lacks_is_refused() {
        assert_eq!(plan(&["--send-path", "lean"]).unwrap().send_path, SendPath::Lean);
        assert_eq!(err(&["--send-path", "faithful"]), "SEND_PATH=faithful is not a path of SDK test; it has lean only");
        assert_eq!(err(&["--send-path", "quick"]), "SEND_PATH=quick is unknown; expected lean or faithful");
    }

    #[test]
    fn paired_blocks_deal_one_batch_per_arm_in_the_seeds_order() {
        let p = plan(&[
            "--paired",
            "1",
            "--msg-id",
            "fast,uuid,fast",
            "--seed",
            "42",
            "--messages",
            "2500",
            "--batch",
            "1000",
            "--warmup",
            "1",
        ])
        .unwrap();
        assert_eq!(
            p.arms.iter().map(|a| a.source).collect::<Vec<_>>(),
            [1, 0, 1],
            "each entry its own arm, duplicates kept"
        );
        assert_eq!((p.blocks(), p.warmup_blocks(), p.timed_blocks(), p.warmup), (3, 1, 2, 1000));
        let batches: Vec<Batch> = p.schedule().collect();
        let orders: Vec<Vec<usize>> = batches.chunks(3).map(|block| block.iter().map(|b| b.arm).collect()).collect();
        assert_eq!(orders, BlockOrder::new(42, 3).take(3).collect::<Vec<_>>());
        let mut next_seq = 0;
        for (index, b) in batches.iter().enumerate() {
            assert_eq!((b.index, b.block, b.timed, b.first_seq), (index, index / 3, index >= 3, next_seq), "{b:?}");
            assert_eq!(b.count, if b.block == 2 { 500 } else { 1000 });
            next_seq += u64::from(b.count);
        }
        assert_eq!(next_seq, 3 * 2500, "the connection numbers every arm's messages in send order");
    }
}
