//! What a run measured and the one JSON line a producer prints of it (sdks/README.md): the
//! one-arm line, or the paired line with every arm's batch times.

use std::time::Instant;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::contract::{Batch, Mode, Plan, SendPath};

/// The clock readings of one batch: when its building began, when its request went out (none
/// in mint mode), when its ack came back, and the injected work inside it.
#[derive(Clone, Copy, Debug)]
pub struct Lap {
    pub start: Instant,
    pub sent: Option<Instant>,
    pub acked: Instant,
    pub injected_ns: u64,
}

/// The laps of the timed batches, per arm.
#[derive(Debug)]
pub struct Recorder {
    arms: Vec<ArmLaps>,
    /// From the first timed batch's start to the last timed batch's ack.
    window: Option<(Instant, Instant)>,
}

#[derive(Debug, Default)]
struct ArmLaps {
    messages: u64,
    batch_ns: Vec<u64>,
    rtt_ns: Vec<u64>,
    injected_ns: u64,
}

impl Recorder {
    pub fn new<S>(plan: &Plan<S>) -> Recorder {
        let arm = || ArmLaps {
            batch_ns: Vec::with_capacity(plan.timed_blocks()),
            rtt_ns: Vec::with_capacity(plan.timed_blocks()),
            ..ArmLaps::default()
        };
        Recorder { arms: (0..plan.arms.len()).map(|_| arm()).collect(), window: None }
    }

    /// Keeps `lap` when `batch` is timed; warm-up batches leave no trace.
    pub fn record(&mut self, batch: &Batch, lap: Lap) {
        if !batch.timed {
            return;
        }
        let arm = &mut self.arms[batch.arm];
        arm.messages += u64::from(batch.count);
        arm.batch_ns.push(ns(lap.start, lap.acked));
        if let Some(sent) = lap.sent {
            arm.rtt_ns.push(ns(sent, lap.acked));
        }
        arm.injected_ns += lap.injected_ns;
        let first = self.window.map_or(lap.start, |(first, _)| first);
        self.window = Some((first, lap.acked));
    }
}

fn ns(from: Instant, to: Instant) -> u64 {
    to.duration_since(from).as_nanos() as u64
}

fn per_sec(messages: u64, elapsed_ns: u64) -> f64 {
    messages as f64 / (elapsed_ns.max(1) as f64 / 1e9)
}

/// The nearest-rank percentile `p` of sorted values; none of none.
fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    (!sorted.is_empty()).then(|| sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1])
}

/// The p50, p99 and p99.9 of an arm's timed round trips, as both result lines carry them.
fn round_trips(mut rtt_ns: Vec<u64>) -> [Option<u64>; 3] {
    rtt_ns.sort_unstable();
    [0.50, 0.99, 0.999].map(|p| percentile(&rtt_ns, p))
}

impl<S> Plan<S> {
    /// The result line of the run `recorder` timed.
    pub fn result(&self, recorder: Recorder) -> ResultLine {
        if self.paired {
            let arms = self.arms.iter().zip(recorder.arms).map(|(arm, laps)| {
                let elapsed_ns = laps.batch_ns.iter().sum();
                let [rtt_p50_ns, rtt_p99_ns, rtt_p999_ns] = round_trips(laps.rtt_ns);
                ArmResult {
                    msg_id: arm.msg_id.to_owned(),
                    timed_messages: laps.messages,
                    elapsed_ns,
                    msgs_per_sec: per_sec(laps.messages, elapsed_ns),
                    injected_ns: laps.injected_ns,
                    rtt_p50_ns,
                    rtt_p99_ns,
                    rtt_p999_ns,
                    batch_ns: laps.batch_ns,
                }
            });
            return ResultLine::Paired(PairedResult {
                sdk: self.sdk.to_owned(),
                paired: true,
                seed: self.seed,
                send_path: self.send_path,
                messages: self.messages,
                warmup: self.warmup,
                blocks: self.timed_blocks(),
                arms: arms.collect(),
            });
        }
        let laps = recorder.arms.into_iter().next().expect("a plan has an arm");
        let elapsed_ns = recorder.window.map_or(0, |(first, last)| ns(first, last));
        let [rtt_p50_ns, rtt_p99_ns, rtt_p999_ns] =
            if self.mode == Mode::Producer { round_trips(laps.rtt_ns) } else { [None; 3] };
        ResultLine::One(ProducerResult {
            sdk: self.sdk.to_owned(),
            msg_id: self.arms[0].msg_id.to_owned(),
            send_path: self.send_path,
            messages: self.messages,
            warmup: self.warmup,
            timed_messages: laps.messages,
            elapsed_ns,
            msgs_per_sec: per_sec(laps.messages, elapsed_ns),
            injected_ns: laps.injected_ns,
            rtt_p50_ns,
            rtt_p99_ns,
            rtt_p999_ns,
        })
    }
}

/// A producer's one JSON line: paired or one arm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResultLine {
    Paired(PairedResult),
    One(ProducerResult),
}

/// The one-arm line every producer prints (sdks/README.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProducerResult {
    pub sdk: String,
    pub msg_id: String,
    pub send_path: SendPath,
    pub messages: u64,
    pub warmup: u64,
    pub timed_messages: u64,
    pub elapsed_ns: u64,
    pub msgs_per_sec: f64,
    pub injected_ns: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p50_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p99_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p999_ns: Option<u64>,
}

/// The paired line (sdks/README.md, "Paired mode").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedResult {
    pub sdk: String,
    /// Always true: what tells this line from the one-arm line.
    pub paired: bool,
    /// A decimal string: a u64 does not fit a JSON double.
    #[serde(serialize_with = "decimal", deserialize_with = "from_decimal")]
    pub seed: u64,
    pub send_path: SendPath,
    pub messages: u64,
    pub warmup: u64,
    /// Timed blocks.
    pub blocks: usize,
    /// In MSG_ID order.
    pub arms: Vec<ArmResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArmResult {
    pub msg_id: String,
    pub timed_messages: u64,
    /// The sum of `batch_ns`.
    pub elapsed_ns: u64,
    pub msgs_per_sec: f64,
    pub injected_ns: u64,
    /// The round trips (send to ack) of this arm's timed batches: median, p99 and p99.9.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p50_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p99_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_p999_ns: Option<u64>,
    /// The time of this arm's batch in each timed block, in block order.
    pub batch_ns: Vec<u64>,
}

fn decimal<S: Serializer>(value: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

fn from_decimal<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::producer::contract::{Accepts, ProduceArgs, ProduceCommand};
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ProduceArgs,
    }

    fn plan(flags: &[&str], paired: bool) -> Plan<()> {
        let args = Cli::try_parse_from(["produce"].iter().chain(flags)).unwrap().args;
        let cmd = ProduceCommand { paired, seed: u64::MAX, ..ProduceCommand::from(args) };
        cmd.plan(&Accepts { sdk: "test", send_path: SendPath::Lean, msg_ids: vec![("a", ()), ("b", ())] }).unwrap()
    }

    /// Records every batch of `plan` with the batch and round-trip times its index gives.
    fn recorded(plan: &Plan<()>, batch_ns: impl Fn(&Batch) -> u64) -> Recorder {
        let mut recorder = Recorder::new(plan);
        let t0 = Instant::now();
        let mut at = t0;
        for batch in plan.schedule() {
            let acked = at + Duration::from_nanos(batch_ns(&batch));
            recorder.record(&batch, Lap { start: at, sent: Some(at + Duration::from_nanos(1)), acked, injected_ns: 3 });
            at = acked;
        }
        recorder
    }

    #[test]
    fn percentiles_pick_nearest_rank() {
        let p = plan(&["--msg-id", "a", "--messages", "1001000", "--batch", "1000", "--warmup", "1000"], false);
        // Timed batch k (1..=1000) takes 1 ns to send and k µs to be acknowledged, largest first.
        let ResultLine::One(r) = p.result(recorded(&p, |b| 1 + (1001 - b.index as u64) * 1000)) else {
            panic!("one arm")
        };
        assert_eq!((r.rtt_p50_ns, r.rtt_p99_ns, r.rtt_p999_ns), (Some(500_000), Some(990_000), Some(999_000)));
        assert_eq!((r.timed_messages, r.injected_ns), (1_000_000, 3_000));
        assert_eq!(
            r.elapsed_ns,
            (1..=1000).map(|k| 1 + k * 1000).sum::<u64>(),
            "the window from the first timed start to the last ack"
        );
    }

    #[test]
    fn the_paired_line_has_every_arms_timed_batches_in_block_order() {
        let p = plan(&["--msg-id", "b,a", "--messages", "2500", "--batch", "1000", "--warmup", "1"], true);
        let line = p.result(recorded(&p, |b| 1000 * (b.block as u64 + 1) + b.arm as u64));
        let ResultLine::Paired(r) = &line else { panic!("paired") };
        assert_eq!((r.blocks, r.warmup, r.arms.len()), (2, 1000, 2));
        assert_eq!((r.arms[0].msg_id.as_str(), r.arms[1].msg_id.as_str()), ("b", "a"));
        assert_eq!(r.arms[1].batch_ns, [2001, 3001]);
        assert_eq!((r.arms[1].timed_messages, r.arms[1].elapsed_ns, r.arms[1].injected_ns), (1500, 5002, 6));
        // Each batch was sent 1 ns after its start: round trips of 2000 and 3000 ns.
        assert_eq!(
            (r.arms[1].rtt_p50_ns, r.arms[1].rtt_p99_ns, r.arms[1].rtt_p999_ns),
            (Some(2000), Some(3000), Some(3000))
        );
        let json = serde_json::to_string(&line).unwrap();
        assert!(
            json.contains(
                r#""injected_ns":6,"rtt_p50_ns":2000,"rtt_p99_ns":3000,"rtt_p999_ns":3000,"batch_ns":[2001,3001]}"#
            ),
            "{json}"
        );
        assert!(json.starts_with(r#"{"sdk":"test","paired":true,"seed":"18446744073709551615","send_path":"lean","messages":2500,"warmup":1000,"blocks":2,"arms":[{"msg_id":"b","timed_messages":1500,"#), "{json}");
        assert_eq!(serde_json::from_str::<ResultLine>(&json).unwrap(), line);
    }

    #[test]
    fn the_one_arm_line_reads_back_as_one_arm() {
        let p = plan(&["--msg-id", "a", "--messages", "2000", "--batch", "1000"], false);
        let line = p.result(recorded(&p, |_| 10));
        let json = serde_json::to_string(&line).unwrap();
        assert!(json.contains(r#""msg_id":"a","send_path":"lean","#) && json.contains(r#""injected_ns":3,"#), "{json}");
        assert!(matches!(serde_json::from_str::<ResultLine>(&json).unwrap(), ResultLine::One(_)));
    }
}
