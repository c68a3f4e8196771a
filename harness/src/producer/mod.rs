//! `harness produce`: the Rust producer (SDK row `rust`, send path `lean`). It speaks the contract
//! in sdks/README.md: settings from flags or the environment, one arm or several paired in one
//! connection, one JSON result line on stdout. The plan, the block order, the injected work and
//! the result line are shared with the released-client row (sdks/iggy).

mod blocks;
pub mod client;
mod inject;
mod result_line;
mod contract;
#[cfg(test)]
mod tests;

use std::hint::black_box;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::bail;
use bytes::BytesMut;
use idgen::{Counter, MessageId, Mint, Strategy};

pub use blocks::BlockOrder;
pub use contract::{
    Accepts, Batch, Mode, PayloadArgs, Plan, PlannedArm, ProduceArgs, ProduceCommand, SendPath, timed_blocks,
};
pub use inject::Inject;
pub use result_line::{ArmResult, Lap, PairedResult, ProducerResult, Recorder, ResultLine};

use crate::wire::{Operation, PayloadSpec, RequestHeader, SendTarget, encode_send_messages};
use client::Client;

const TARGET: SendTarget = SendTarget { stream: 1, topic: 1, partition: 0 };

/// Where each message's ID comes from in the Rust row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdSource {
    Mint(Strategy),
    /// Minted with `fast` before the first send.
    Preset,
    /// `idgen::Counter`: sequential from a random start, NOT collision-safe. The floor `fast` is
    /// judged against, never a default.
    Counter,
    /// Every frame, IDs included, built before the first send: the sink's ceiling.
    Prebuilt,
}

/// What the Rust row accepts: every idgen strategy by name, `preset`, `counter` and `prebuilt`, on the lean
/// path.
pub fn rust_accepts() -> Accepts<IdSource> {
    let strategies = Strategy::ALL.iter().map(|&s| (s.name(), IdSource::Mint(s)));
    let others = [("preset", IdSource::Preset), ("counter", IdSource::Counter), ("prebuilt", IdSource::Prebuilt)];
    Accepts { sdk: "rust", send_path: SendPath::Lean, msg_ids: strategies.chain(others).collect() }
}

impl ProduceArgs {
    /// The plan of a one-arm run of the Rust row with these settings, for callers that check
    /// settings without running.
    pub fn plan(&self) -> anyhow::Result<Plan<IdSource>> {
        ProduceCommand::from(self.clone()).rust_plan()
    }
}

impl ProduceCommand {
    /// The Rust row's plan: the contract's checks, and `prebuilt` alone.
    pub fn rust_plan(&self) -> anyhow::Result<Plan<IdSource>> {
        let plan = self.plan(&rust_accepts())?;
        if plan.paired && plan.arms.iter().any(|a| a.source == IdSource::Prebuilt) {
            bail!(
                "MSG_ID=prebuilt cannot be paired: it builds every frame before the first send; run it with PAIRED=0"
            );
        }
        if plan.mode == Mode::Mint && plan.arms.iter().any(|a| a.source == IdSource::Prebuilt) {
            bail!(
                "MSG_ID=prebuilt needs MODE=producer: it stands for frames built before the first send, and MODE=mint builds none"
            );
        }
        Ok(plan)
    }

    /// Runs the Rust producer (or the mint-only loop) as the settings say.
    pub fn run(&self) -> anyhow::Result<ResultLine> {
        let plan = self.rust_plan()?;
        // preset arms mint every ID here, before the first block.
        let mut minters: Vec<Box<dyn Minter>> = plan.arms.iter().map(|a| minter(a.source, plan.messages)).collect();
        let recorder = match plan.mode {
            Mode::Producer if plan.arms[0].source == IdSource::Prebuilt => {
                replay(&plan, &self.args.server, &mut *minters[0])?
            }
            Mode::Producer => produce(&plan, &self.args.server, &mut minters)?,
            Mode::Mint => mint_loop(&plan, &mut minters),
        };
        Ok(plan.result(recorder))
    }
}

/// Runs one arm with no injected work: the one-arm line.
pub fn run(args: &ProduceArgs) -> anyhow::Result<ProducerResult> {
    match ProduceCommand::from(args.clone()).run()? {
        ResultLine::One(result) => Ok(result),
        ResultLine::Paired(_) => unreachable!("a ProduceArgs run has one arm"),
    }
}

/// One arm's IDs, a batch at a time; the send path reads them per message as it encodes. One
/// dynamic call per batch, none per ID.
trait Minter {
    /// The arm's next `count` IDs.
    fn batch(&mut self, count: u32) -> &[MessageId];
}

/// A generator filling each batch in one call: `fast` is `idgen::fill`, the keystream straight
/// into the batch; the others mint one ID at a time inside their own `fill`.
struct Filled {
    generator: Box<dyn Mint>,
    ids: Vec<MessageId>,
}

impl Minter for Filled {
    fn batch(&mut self, count: u32) -> &[MessageId] {
        self.ids.resize(count as usize, MessageId::default());
        self.generator.fill(&mut self.ids);
        &self.ids
    }
}

/// Every ID of the arm minted before the first send: the zero-mint ceiling.
struct Preset {
    ids: Vec<MessageId>,
    next: usize,
}

impl Minter for Preset {
    fn batch(&mut self, count: u32) -> &[MessageId] {
        let batch = &self.ids[self.next..self.next + count as usize];
        self.next += count as usize;
        batch
    }
}

fn minter(source: IdSource, messages: u64) -> Box<dyn Minter> {
    let filled = |generator: Box<dyn Mint>| -> Box<dyn Minter> { Box::new(Filled { generator, ids: Vec::new() }) };
    match source {
        IdSource::Preset | IdSource::Prebuilt => {
            let mut ids = vec![MessageId::default(); messages as usize];
            idgen::fill(&mut ids);
            Box::new(Preset { ids, next: 0 })
        }
        IdSource::Mint(strategy) => filled(strategy.build()),
        IdSource::Counter => filled(Box::new(Counter::new())),
    }
}

/// One SEND_MESSAGES frame of `batch` with these IDs, one per message.
fn encode(frame: &mut BytesMut, header: &RequestHeader, batch: &Batch, payload: &PayloadSpec, ids: &[MessageId]) {
    let mut ids = ids.iter();
    let next_id = || ids.next().expect("one ID per message").to_le_bytes();
    encode_send_messages(frame, header, &TARGET, now_micros(), batch.first_seq, batch.count, payload, next_id);
}

/// Sends every batch of the schedule, each built by its arm's minter, one request in flight.
fn produce(plan: &Plan<IdSource>, server: &str, minters: &mut [Box<dyn Minter>]) -> anyhow::Result<Recorder> {
    let mut client = Client::connect(server)?;
    client.login("mintbench-rust")?;
    let mut frame = BytesMut::with_capacity(plan.frame_capacity());
    let mut recorder = Recorder::new(plan);
    for batch in plan.schedule() {
        let start = Instant::now();
        let injected_ns = plan.inject.spin(batch.arm, batch.count, start);
        frame.clear();
        let header = client.next_header(Operation::SendMessages);
        encode(&mut frame, &header, &batch, &plan.payload, minters[batch.arm].batch(batch.count));
        let sent = Instant::now();
        client.request(&frame)?;
        recorder.record(&batch, Lap { start, sent: Some(sent), acked: Instant::now(), injected_ns });
    }
    client.logout()?;
    Ok(recorder)
}

/// The sink's ceiling: every frame is built before the first send, so the timed loop only
/// writes frames and waits for acks. The sink still checks every message.
fn replay(plan: &Plan<IdSource>, server: &str, minter: &mut dyn Minter) -> anyhow::Result<Recorder> {
    let mut client = Client::connect(server)?;
    client.login("mintbench-rust")?;
    let frames: Vec<(Batch, BytesMut)> = plan
        .schedule()
        .map(|batch| {
            let mut frame = BytesMut::with_capacity(plan.frame_capacity());
            let header = client.next_header(Operation::SendMessages);
            encode(&mut frame, &header, &batch, &plan.payload, minter.batch(batch.count));
            (batch, frame)
        })
        .collect();
    let mut recorder = Recorder::new(plan);
    for (batch, frame) in &frames {
        let start = Instant::now();
        let injected_ns = plan.inject.spin(batch.arm, batch.count, start);
        let sent = Instant::now();
        client.request(frame)?;
        recorder.record(batch, Lap { start, sent: Some(sent), acked: Instant::now(), injected_ns });
    }
    client.logout()?;
    Ok(recorder)
}

/// IDs per second with no network, minted batch by batch as the producer would.
fn mint_loop(plan: &Plan<IdSource>, minters: &mut [Box<dyn Minter>]) -> Recorder {
    let mut recorder = Recorder::new(plan);
    for batch in plan.schedule() {
        let start = Instant::now();
        let injected_ns = plan.inject.spin(batch.arm, batch.count, start);
        black_box(minters[batch.arm].batch(batch.count));
        recorder.record(&batch, Lap { start, sent: None, acked: Instant::now(), injected_ns });
    }
    recorder
}

fn now_micros() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64)
}
