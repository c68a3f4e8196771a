//! `harness produce`: the Rust producer (SDK row `rust`). It speaks the contract in
//! sdks/README.md: settings from flags or the environment, one JSON result line on stdout.

mod blocks;
mod busy_wait;
pub mod client;
mod settings;

use std::hint::black_box;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use bytes::BytesMut;
use idgen::{Mint, OsPool, Pooled, Strategy, ThreadRngUuid, UuidV4, Xoshiro};

pub use blocks::{BlockOrder, SplitMix64};
pub use settings::{IdSource, Mode, Plan, ProduceArgs, ProducerResult, Workload};

use crate::wire::{Operation, SendTarget, encode_send_messages};
use client::Client;

const TARGET: SendTarget = SendTarget { stream: 1, topic: 1, partition: 0 };

/// `harness produce`: the contract's settings, and INJECT_NS for `harness calibrate`.
#[derive(clap::Args, Debug, Clone)]
pub struct ProduceCommand {
    #[command(flatten)]
    pub args: ProduceArgs,
    /// Busy-wait added to each message's minting, in ns; 0 adds nothing.
    #[arg(long, env = "INJECT_NS", default_value_t = 0)]
    pub inject_ns: u64,
}

/// Runs the producer (or the mint-only loop) as the settings say.
pub fn run(args: &ProduceArgs) -> anyhow::Result<ProducerResult> {
    run_injected(args, 0)
}

/// The same with a busy-wait of `inject_ns` per message inside the timed window.
pub fn run_injected(args: &ProduceArgs, inject_ns: u64) -> anyhow::Result<ProducerResult> {
    let plan = args.plan()?;
    let busy_wait = busy_wait::BusyWait::calibrated(inject_ns);
    let measure = |next_id: &mut dyn FnMut() -> [u8; 16]| match plan.mode {
        Mode::Producer => produce(&plan, &args.server, next_id),
        Mode::Mint => Ok(mint_loop(&plan, next_id)),
    };
    let timing = with_ids(&plan, |next_id| match &busy_wait {
        None => measure(next_id),
        Some(wait) => measure(&mut || {
            wait.wait();
            next_id()
        }),
    })?;
    Ok(plan.result("rust", timing))
}

/// Calls `body` with the plan's ID source as a monomorphic closure, so the hot loop pays for
/// the strategy itself and not for dynamic dispatch.
fn with_ids<T>(plan: &Plan, body: impl FnOnce(&mut dyn FnMut() -> [u8; 16]) -> anyhow::Result<T>) -> anyhow::Result<T> {
    fn by<M: Mint>(mut m: M) -> impl FnMut() -> [u8; 16] {
        move || m.mint().to_le_bytes()
    }
    match plan.ids {
        IdSource::Preset | IdSource::Prebuilt => {
            // Every ID of the run minted before the first send: the zero-mint ceiling.
            let ids: Vec<[u8; 16]> = (0..plan.messages).map(|_| idgen::mint().to_le_bytes()).collect();
            let mut it = ids.into_iter();
            body(&mut move || it.next().expect("one preset id per message"))
        }
        IdSource::Mint(Strategy::Fast) => body(&mut || idgen::mint().to_le_bytes()),
        IdSource::Mint(Strategy::Pooled) => body(&mut by(Pooled::new())),
        IdSource::Mint(Strategy::Xoshiro) => body(&mut by(Xoshiro::new())),
        IdSource::Mint(Strategy::OsPool) => body(&mut by(OsPool::new())),
        IdSource::Mint(Strategy::Uuid) => body(&mut by(UuidV4::new())),
        IdSource::Mint(Strategy::ThreadRng) => body(&mut by(ThreadRngUuid::new())),
    }
}

/// What the timed window measured.
pub struct Timing {
    pub elapsed_ns: u64,
    pub rtt_ns: Vec<u64>,
}

fn produce(plan: &Plan, server: &str, next_id: &mut dyn FnMut() -> [u8; 16]) -> anyhow::Result<Timing> {
    let mut client = Client::connect(server)?;
    client.login("mintbench-rust")?;
    if plan.ids == IdSource::Prebuilt {
        return replay(plan, client, next_id);
    }
    let mut frame = BytesMut::with_capacity(plan.frame_capacity());
    let mut rtt_ns = Vec::with_capacity(plan.timed_batches());
    let mut start = Instant::now();
    for (index, (first_seq, count)) in plan.batches().enumerate() {
        if index == plan.warmup_batches() {
            start = Instant::now();
        }
        frame.clear();
        let header = client.next_header(Operation::SendMessages);
        encode_send_messages(&mut frame, &header, &TARGET, now_micros(), first_seq, count, &plan.payload, &mut *next_id);
        let sent = Instant::now();
        client.request(&frame)?;
        if index >= plan.warmup_batches() {
            rtt_ns.push(sent.elapsed().as_nanos() as u64);
        }
    }
    let elapsed_ns = start.elapsed().as_nanos() as u64;
    client.logout()?;
    Ok(Timing { elapsed_ns, rtt_ns })
}

/// The sink's ceiling: every frame is built before the first send, so the timed loop only
/// writes frames and waits for acks. The sink still checks every message.
fn replay(plan: &Plan, mut client: Client, next_id: &mut dyn FnMut() -> [u8; 16]) -> anyhow::Result<Timing> {
    let frames: Vec<BytesMut> = plan
        .batches()
        .map(|(first_seq, count)| {
            let mut frame = BytesMut::with_capacity(plan.frame_capacity());
            let header = client.next_header(Operation::SendMessages);
            encode_send_messages(&mut frame, &header, &TARGET, now_micros(), first_seq, count, &plan.payload, &mut *next_id);
            frame
        })
        .collect();
    let (warmup, timed) = frames.split_at(plan.warmup_batches());
    for frame in warmup {
        client.request(frame)?;
    }
    let mut rtt_ns = Vec::with_capacity(timed.len());
    let start = Instant::now();
    for frame in timed {
        let sent = Instant::now();
        client.request(frame)?;
        rtt_ns.push(sent.elapsed().as_nanos() as u64);
    }
    let elapsed_ns = start.elapsed().as_nanos() as u64;
    client.logout()?;
    Ok(Timing { elapsed_ns, rtt_ns })
}

fn mint_loop(plan: &Plan, next_id: &mut dyn FnMut() -> [u8; 16]) -> Timing {
    for _ in 0..plan.warmup {
        black_box(next_id());
    }
    let start = Instant::now();
    for _ in plan.warmup..plan.messages {
        black_box(next_id());
    }
    Timing { elapsed_ns: start.elapsed().as_nanos() as u64, rtt_ns: Vec::new() }
}

fn now_micros() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64)
}
