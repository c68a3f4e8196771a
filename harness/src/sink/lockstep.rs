//! Lock-step pacing: the sink decides which of a set's producers runs. Every producer keeps one
//! request in flight, so holding a SEND_MESSAGES reply stops its producer; releasing one
//! producer at a time, in blocks of one turn per producer in a seeded shuffled order, lets
//! separate processes (any build, any language, unmodified) take turns on the machine the way
//! the arms of a paired process do, and times each turn on the sink's one clock.
//!
//! A turn runs from the moment its producer's held reply is written to the moment its next
//! SEND_MESSAGES is read in full (`client_ns`: the producer's own wake-up, build, mint, encode
//! and send), then the sink checks that batch (`service_ns`) and holds its reply until the
//! producer's turn in the next block. Other requests are answered at once, inside the turn.
//!
//! With FREEZE, a producer's process group is also stopped (SIGSTOP) from the moment its turn
//! ends until its next one begins (SIGCONT, just before its reply is written), so the threads a
//! runtime runs beside the producer's own (GC, JIT compiler, timers) work in its turns only.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::oneshot;

use crate::producer::BlockOrder;

/// The longest any producer's reply is held: well under the contract's 10 s reply wait
/// (sdks/README.md), so a producer held by a stalled set is released and fails nothing of its
/// own. The watchdog fails the set as soon as one hold reaches it.
pub const HOLD_LIMIT: Duration = Duration::from_secs(8);
/// How often the watchdog looks.
pub const WATCH_EVERY: Duration = Duration::from_millis(50);

/// One producer's turn, in ns on the sink's monotonic clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    pub client_ns: u64,
    pub service_ns: u64,
}

/// What a finished set measured: per producer, its turns in block order (block k is every
/// producer's k-th turn); or why the set FAILED, naming the producer by its index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    Done(Vec<Vec<Turn>>),
    Failed { arm: usize, why: String },
}

/// The pacing of one set of `arms` producers.
pub struct Pacer {
    state: Mutex<State>,
}

struct State {
    arms: Vec<ArmState>,
    order: BlockOrder,
    /// The current block's order and the position of the producer whose turn it is.
    block: Vec<usize>,
    turn: usize,
    running: bool,
    failed: Option<(usize, String)>,
}

#[derive(Default)]
struct ArmState {
    /// The connection that sends this producer's batches (the first that sent one).
    session: Option<u64>,
    /// The held reply's release, and since when it is held.
    held: Option<(oneshot::Sender<()>, Instant)>,
    /// When its last reply was written: the start of the turn under way.
    released: Option<Instant>,
    /// The turn under way: its client time, once its batch is read.
    client_ns: Option<u64>,
    turns: Vec<Turn>,
    done: bool,
    /// FREEZE: the producer's process group, stopped while its reply is held.
    group: Option<i32>,
}

impl Pacer {
    pub fn new(arms: usize, seed: u64) -> Arc<Pacer> {
        let state = State {
            arms: (0..arms).map(|_| ArmState::default()).collect(),
            order: BlockOrder::new(seed, arms),
            block: Vec::new(),
            turn: 0,
            running: false,
            failed: None,
        };
        Arc::new(Pacer { state: Mutex::new(state) })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("no pacing step panics holding the lock")
    }

    /// Whether `session`'s SEND_MESSAGES are paced as producer `arm`'s: the first connection of
    /// the arm that sends one is; others (a client's second connection) are served at once.
    pub fn paces(&self, arm: usize, session: u64) -> bool {
        let mut s = self.state();
        *s.arms[arm].session.get_or_insert(session) == session && s.failed.is_none()
    }

    /// FREEZE: `arm`'s producer leads process group `group` (spawned into a group of its own),
    /// which is stopped whenever the sink holds its reply.
    pub fn freeze(&self, arm: usize, group: u32) {
        let mut s = self.state();
        let a = &mut s.arms[arm];
        a.group = i32::try_from(group).ok();
        if a.held.is_some() {
            signal(a.group, libc::SIGSTOP);
        }
    }

    /// `arm`'s batch was read in full at `at`: the client part of its turn ends.
    pub fn batch_read(&self, arm: usize, at: Instant) {
        let mut s = self.state();
        let a = &mut s.arms[arm];
        a.client_ns = a.released.take().map(|r| at.duration_since(r).as_nanos() as u64);
    }

    /// `arm`'s batch is checked and its reply ready after `service_ns`: its turn ends, and the
    /// reply waits for its next turn. Resolves at once when the set has failed.
    pub fn hold(&self, arm: usize, service_ns: u64) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        let mut s = self.state();
        if s.failed.is_some() {
            let _ = tx.send(());
            return rx;
        }
        let a = &mut s.arms[arm];
        if let Some(client_ns) = a.client_ns.take() {
            a.turns.push(Turn { client_ns, service_ns });
        }
        a.held = Some((tx, Instant::now()));
        signal(a.group, libc::SIGSTOP);
        if s.running {
            if s.block.get(s.turn) == Some(&arm) {
                s.next_turn();
            }
        } else {
            s.start_when_all_hold();
        }
        rx
    }

    /// `arm`'s held reply is about to be written: its turn begins.
    pub fn replied(&self, arm: usize) {
        self.state().arms[arm].released = Some(Instant::now());
    }

    /// `arm`'s connection ended: cleanly after its last batch (its turn ends without a time),
    /// or with an error, which fails the set.
    pub fn closed(&self, arm: usize, error: Option<String>) {
        let mut s = self.state();
        if let Some(why) = error {
            s.fail(arm, why);
            return;
        }
        s.arms[arm].done = true;
        s.arms[arm].released = None;
        if s.running && s.block.get(s.turn) == Some(&arm) {
            s.next_turn();
        } else if !s.running {
            s.start_when_all_hold();
        }
    }

    /// `arm`'s process has ended: one that never sent a batch fails the set now, rather than
    /// hold the others until the watchdog.
    pub fn exited(&self, arm: usize) {
        let mut s = self.state();
        if s.arms[arm].session.is_none() && !s.arms[arm].done {
            s.fail(arm, "exited without sending a batch".into());
        }
    }

    /// Fails the set when a reply has been held for HOLD_LIMIT: naming a producer that never
    /// sent its first batch, or the one whose turn did not end.
    pub fn watch(&self, now: Instant) -> bool {
        let mut s = self.state();
        if s.failed.is_some() {
            return true;
        }
        let Some(since) = s.arms.iter().filter_map(|a| a.held.as_ref().map(|(_, t)| *t)).min() else { return false };
        if now.duration_since(since) < HOLD_LIMIT {
            return false;
        }
        let limit = HOLD_LIMIT.as_secs();
        if !s.running {
            let arm = s.arms.iter().position(|a| a.held.is_none() && !a.done).unwrap_or(0);
            s.fail(arm, format!("sent no first batch within {limit} s of the others"));
        } else {
            let arm = s.block[s.turn.min(s.block.len() - 1)];
            s.fail(arm, format!("sent no next batch within {limit} s of its turn"));
        }
        true
    }

    /// Every producer is done, or the set failed.
    pub fn finished(&self) -> bool {
        let s = self.state();
        s.failed.is_some() || s.arms.iter().all(|a| a.done)
    }

    /// Whether the set has failed: cheap, for a caller that polls.
    pub fn failed(&self) -> bool {
        self.state().failed.is_some()
    }

    /// The set's turns, or why it failed.
    pub fn outcome(&self) -> SetOutcome {
        let s = self.state();
        match &s.failed {
            Some((arm, why)) => SetOutcome::Failed { arm: *arm, why: why.clone() },
            None => SetOutcome::Done(s.arms.iter().map(|a| a.turns.clone()).collect()),
        }
    }

    /// Holds nothing any more: once the set is over, every reply goes out at once.
    pub fn fail(&self, arm: usize, why: String) {
        self.state().fail(arm, why);
    }
}

impl State {
    /// Starts the first block once every producer still there holds its first batch.
    fn start_when_all_hold(&mut self) {
        let ready = self.arms.iter().all(|a| a.held.is_some() || a.done) && self.arms.iter().any(|a| a.held.is_some());
        if ready && self.failed.is_none() {
            self.running = true;
            self.block = self.order.next().expect("block orders never end");
            self.turn = 0;
            self.release_current();
        }
    }

    /// Releases the producer whose turn it now is, skipping those that are done.
    fn release_current(&mut self) {
        loop {
            let Some(&arm) = self.block.get(self.turn) else {
                if self.arms.iter().all(|a| a.done) {
                    return;
                }
                self.block = self.order.next().expect("block orders never end");
                self.turn = 0;
                continue;
            };
            let a = &mut self.arms[arm];
            if a.done {
                self.turn += 1;
                continue;
            }
            if let Some((release, _)) = a.held.take() {
                signal(a.group, libc::SIGCONT);
                let _ = release.send(());
            }
            return;
        }
    }

    fn next_turn(&mut self) {
        self.turn += 1;
        self.release_current();
    }

    fn fail(&mut self, arm: usize, why: String) {
        if self.failed.is_none() {
            self.failed = Some((arm, why));
        }
        for a in &mut self.arms {
            signal(a.group, libc::SIGCONT);
            if let Some((release, _)) = a.held.take() {
                let _ = release.send(());
            }
        }
    }
}

/// Sends `sig` to the process group, if there is one. A group that has ended is not an error:
/// its producer's exit fails or ends the set by itself.
fn signal(group: Option<i32>, sig: libc::c_int) {
    if let Some(group) = group {
        // SAFETY: kill has no memory preconditions; a negative pid names a process group.
        unsafe { libc::kill(-group, sig) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn released(rx: &mut oneshot::Receiver<()>) -> bool {
        rx.try_recv().is_ok()
    }

    #[test]
    fn producers_take_turns_one_at_a_time_in_shuffled_blocks() {
        let pacer = Pacer::new(3, 7);
        let mut first: Vec<_> = (0..3).map(|arm| (pacer.paces(arm, arm as u64 + 1), pacer.hold(arm, 5)).1).collect();
        // Once all three hold their first batch, exactly one is released.
        let mut order = Vec::new();
        for _ in 0..3 {
            let now: Vec<usize> = (0..3).filter(|&a| !order.contains(&a) && released(&mut first[a])).collect();
            assert_eq!(now.len(), 1, "one at a time");
            let arm = now[0];
            order.push(arm);
            pacer.replied(arm);
            pacer.batch_read(arm, Instant::now());
            first[arm] = pacer.hold(arm, 5);
        }
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2], "each producer once per block");
        let SetOutcome::Done(turns) = pacer.outcome() else { panic!("not failed") };
        assert!(turns.iter().all(|t| t.len() == 1 && t[0].service_ns == 5), "{turns:?}");
        assert_eq!(order, BlockOrder::new(7, 3).next().unwrap(), "the block order is the seed's");
        // Each closes after its turn: the set finishes.
        for _ in 0..3 {
            let arm = (0..3).find(|&a| released(&mut first[a])).expect("one released");
            pacer.replied(arm);
            pacer.closed(arm, None);
        }
        assert!(pacer.finished());
    }

    /// The state letter of /proc/PID/stat: `T` stopped, `S` sleeping.
    fn state(pid: u32) -> char {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        stat.rsplit(") ").next().unwrap().chars().next().unwrap()
    }

    fn wait_for_state(pid: u32, want: char) -> char {
        let start = Instant::now();
        while state(pid) != want && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
        state(pid)
    }

    #[test]
    fn freezing_stops_a_producer_while_its_reply_is_held_and_continues_it_for_its_turn() {
        use std::os::unix::process::CommandExt as _;
        // Two producers, each leading its own process group: a shell waiting on a child, and a
        // sleeper.
        let spawn =
            |script: &str| std::process::Command::new("sh").args(["-c", script]).process_group(0).spawn().unwrap();
        let (mut a, mut b) = (spawn("sleep 30 & wait"), spawn("exec sleep 30"));
        let pacer = Pacer::new(2, 3);
        pacer.freeze(0, a.id());
        pacer.freeze(1, b.id());
        let mut held = [pacer.hold(0, 1), pacer.hold(1, 1)];
        let first = (0..2).find(|&arm| released(&mut held[arm])).expect("one released");
        let other = 1 - first;
        let pid = |arm: usize| if arm == 0 { a.id() } else { b.id() };
        assert_eq!(wait_for_state(pid(other), 'T'), 'T', "the held producer is stopped");
        assert_eq!(wait_for_state(pid(first), 'S'), 'S', "the released one runs (sleeps)");
        // The first's turn ends: it stops, and the other continues for its own.
        pacer.replied(first);
        pacer.batch_read(first, Instant::now());
        held[first] = pacer.hold(first, 1);
        assert!(released(&mut held[other]));
        assert_eq!(wait_for_state(pid(first), 'T'), 'T');
        assert_eq!(wait_for_state(pid(other), 'S'), 'S');
        // A failed set leaves no producer stopped.
        pacer.fail(other, "test".into());
        assert_eq!(wait_for_state(pid(first), 'S'), 'S');
        for child in [&mut a, &mut b] {
            // SAFETY: signals our own child's group.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            child.wait().unwrap();
        }
    }

    #[test]
    fn an_error_fails_the_set_and_frees_the_others() {
        let pacer = Pacer::new(2, 1);
        let mut held = pacer.hold(0, 1);
        assert!(!pacer.failed());
        pacer.closed(1, Some("closed: bad frame".into()));
        assert!(pacer.failed());
        assert!(released(&mut held), "the other producer is freed");
        assert_eq!(pacer.outcome(), SetOutcome::Failed { arm: 1, why: "closed: bad frame".into() });
        assert!(released(&mut pacer.hold(0, 1)), "nothing is held after a failure");
        assert!(!pacer.paces(0, 1));
    }

    #[test]
    fn a_producer_that_never_sends_fails_the_set_within_the_hold_limit() {
        let pacer = Pacer::new(3, 1);
        let mut held = [pacer.hold(0, 1), pacer.hold(2, 1)];
        let start = Instant::now();
        assert!(!pacer.watch(start + HOLD_LIMIT / 2));
        assert!(pacer.watch(start + HOLD_LIMIT + Duration::from_millis(1)));
        assert!(held.iter_mut().all(released));
        let SetOutcome::Failed { arm, why } = pacer.outcome() else { panic!("failed") };
        assert_eq!(arm, 1);
        assert!(why.contains("no first batch"), "{why}");
    }

    #[test]
    fn a_producer_that_exits_without_a_batch_fails_the_set_at_once() {
        let pacer = Pacer::new(2, 1);
        let mut held = pacer.hold(0, 1);
        assert!(pacer.paces(0, 1));
        pacer.exited(0);
        assert!(!pacer.finished(), "a producer that sent batches is not failed by its exit");
        pacer.exited(1);
        assert!(released(&mut held));
        assert_eq!(pacer.outcome(), SetOutcome::Failed { arm: 1, why: "exited without sending a batch".into() });
    }

    #[test]
    fn a_second_connection_of_a_producer_is_not_paced() {
        let pacer = Pacer::new(2, 1);
        assert!(pacer.paces(0, 10));
        assert!(!pacer.paces(0, 11));
        assert!(pacer.paces(0, 10));
    }
}
