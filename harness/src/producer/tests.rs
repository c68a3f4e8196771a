//! The Rust row against the in-process sink: paired and one-arm runs deliver every message
//! exactly once, in the seed's block order, with the injected work measured where it was asked.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;
use std::time::Duration;

use super::*;
use crate::sink::{Sink, SinkSettings};

fn sink() -> Sink {
    let settings = SinkSettings { idle_timeout: Duration::from_secs(5), ..SinkSettings::default() };
    Sink::spawn("127.0.0.1:0".parse().unwrap(), settings, Some(PayloadSpec::new(42, 2).unwrap())).unwrap()
}

fn command(sink: &Sink, msg_id: &str, paired: bool) -> ProduceCommand {
    let payload = PayloadArgs { bits: 42, pack: 2, batch: 500, messages: 5500, warmup: Some(1000) };
    let args = ProduceArgs { server: sink.addr.to_string(), mode: Mode::Producer, msg_id: msg_id.into(), payload };
    ProduceCommand { paired, seed: 7, ..ProduceCommand::from(args) }
}

#[test]
fn a_paired_run_times_every_arm_and_delivers_each_message_once() {
    let sink = sink();
    let cmd = ProduceCommand { inject_ns: 300.0, inject_arm: 2, ..command(&sink, "fast,uuid,preset,fast", true) };
    let ResultLine::Paired(line) = cmd.run().unwrap() else { panic!("a paired line") };
    assert_eq!((line.sdk.as_str(), line.seed, line.send_path), ("rust", 7, SendPath::Lean));
    assert_eq!((line.messages, line.warmup, line.blocks), (5500, 1000, 9));
    let names: Vec<&str> = line.arms.iter().map(|a| a.msg_id.as_str()).collect();
    assert_eq!(names, ["fast", "uuid", "preset", "fast"]);
    for (i, arm) in line.arms.iter().enumerate() {
        assert_eq!((arm.timed_messages, arm.batch_ns.len()), (4500, 9), "arm {i}");
        assert_eq!(arm.elapsed_ns, arm.batch_ns.iter().sum::<u64>(), "arm {i}");
        if i == 2 {
            assert!(arm.injected_ns >= 4500 * 300, "{}", arm.injected_ns);
            assert!(
                arm.batch_ns.iter().all(|&ns| ns >= 500 * 300),
                "the spin is inside each batch's time: {:?}",
                arm.batch_ns
            );
        } else {
            assert_eq!(arm.injected_ns, 0, "arm {i}");
        }
    }
    let delivery = sink.delivery();
    assert_eq!(delivery.delivery_problem(4 * 5500), None, "{delivery:?}");
    assert_eq!((delivery.batches, delivery.connections), (44, 1));
}

/// A minter that logs which arm gave each batch's IDs, in the order the producer asked.
struct Logged {
    arm: usize,
    log: Rc<RefCell<Vec<usize>>>,
    inner: Box<dyn Minter>,
}

impl Minter for Logged {
    fn batch(&mut self, count: u32) -> &[MessageId] {
        self.log.borrow_mut().push(self.arm);
        self.inner.batch(count)
    }
}

#[test]
fn the_batches_go_out_in_the_block_order_of_the_seed() {
    let sink = sink();
    let plan = command(&sink, "uuid,fast,fast", true).rust_plan().unwrap();
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut minters: Vec<Box<dyn Minter>> = (0..3)
        .map(|arm| {
            Box::new(Logged { arm, log: log.clone(), inner: minter(plan.arms[arm].source, plan.messages) })
                as Box<dyn Minter>
        })
        .collect();
    produce(&plan, &sink.addr.to_string(), &mut minters).unwrap();
    let sent: Vec<Vec<usize>> = log.borrow().chunks(3).map(<[usize]>::to_vec).collect();
    assert_eq!(sent, BlockOrder::new(7, 3).take(11).collect::<Vec<_>>(), "warm-up blocks included");
    assert_eq!(sink.delivery().delivery_problem(3 * 5500), None);
}

#[test]
fn the_one_arm_line_reports_its_path_and_the_measured_injection() {
    let sink = sink();
    for msg_id in ["xoshiro", "prebuilt", "counter"] {
        let before = sink.delivery();
        let cmd = ProduceCommand { inject_ns: 200.0, ..command(&sink, msg_id, false) };
        let ResultLine::One(r) = cmd.run().unwrap() else { panic!("a one-arm line") };
        assert_eq!((r.msg_id.as_str(), r.send_path, r.timed_messages), (msg_id, SendPath::Lean, 4500));
        assert!(r.injected_ns >= 4500 * 200 && r.elapsed_ns >= r.injected_ns, "{r:?}");
        assert!(r.rtt_p50_ns.is_some());
        assert_eq!(sink.delivery().since(&before).delivery_problem(5500), None, "{msg_id}");
    }
}

#[test]
fn the_mint_loop_injects_per_batch_too() {
    let args = ProduceArgs { mode: Mode::Mint, ..command(&sink(), "pooled", false).args };
    let ResultLine::One(r) = ProduceCommand { inject_ns: 100.0, ..ProduceCommand::from(args) }.run().unwrap() else {
        panic!("one arm")
    };
    assert_eq!((r.timed_messages, r.rtt_p50_ns), (4500, None));
    assert!(r.injected_ns >= 4500 * 100, "{r:?}");
}

#[test]
fn the_rust_row_refuses_what_it_cannot_run() {
    let sink = sink();
    let err = |cmd: ProduceCommand| cmd.rust_plan().unwrap_err().to_string();
    assert_eq!(
        err(command(&sink, "nope", false)),
        "MSG_ID=nope is unknown; expected one of fast, pooled, xoshiro, ospool, uuid, threadrng, preset, counter, prebuilt"
    );
    assert!(err(command(&sink, "fast,prebuilt", true)).starts_with("MSG_ID=prebuilt cannot be paired"));
    let mut mint = command(&sink, "prebuilt", false);
    mint.args.mode = Mode::Mint;
    assert!(err(mint).starts_with("MSG_ID=prebuilt needs MODE=producer"));
    assert!(
        err(ProduceCommand { send_path: Some("faithful".into()), ..command(&sink, "fast", false) })
            .starts_with("SEND_PATH=faithful is not a path of SDK rust; it has lean only")
    );
    assert!(
        err(ProduceCommand { inject_arm: 1, ..command(&sink, "fast", false) }).starts_with("INJECT_ARM=1 is outside")
    );
    assert_eq!(sink.delivery().connections, 0, "refused before connecting");
}

/// Each arm's batches: `fast` fills from the thread's stream, `counter` delivery on across
/// batches from a random start, `preset` slices its IDs in order; no ID twice.
#[test]
fn minters_give_each_batch_its_ids() {
    let mut counter = minter(IdSource::Counter, 0);
    let first = counter.batch(3).to_vec();
    let second = counter.batch(2).to_vec();
    let start = first[0].as_u128();
    assert_ne!(start >> 64, 0, "a zero high half could reach the SDK's mint-one ID");
    let counted: Vec<u128> = first.iter().chain(&second).map(|id| id.as_u128()).collect();
    assert_eq!(counted, (0..5).map(|i| start + i).collect::<Vec<_>>());

    let mut preset = minter(IdSource::Preset, 5);
    let (a, b) = (preset.batch(2).to_vec(), preset.batch(3).to_vec());
    let mut fast = minter(IdSource::Mint(Strategy::Fast), 0);
    let (c, d) = (fast.batch(1000).to_vec(), fast.batch(7).to_vec());
    let all: Vec<MessageId> = [a, b, c, d].concat();
    assert_eq!(all.len(), 1012);
    assert!(all.iter().all(|id| !id.is_zero()));
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len());
}
