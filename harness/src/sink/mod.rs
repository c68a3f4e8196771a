//! The sink: a TCP server speaking Iggy's wire format for the producer path (sdks/WIRE.md). It
//! validates every batch as Iggy's server does and checks that each message arrived exactly
//! once, in order, per connection and partition.

mod catalog;
mod connection;
mod delivery;
pub mod lockstep;
pub mod upstream;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;

pub use delivery::{Delivery, DeliverySnapshot, PartitionDelivery};
pub use lockstep::{Pacer, SetOutcome, Turn};

use crate::wire::{MAX_FRAME, MESSAGE_HEADER_LEN, PayloadSpec, send_messages_len};
use catalog::Catalog;
use connection::{Closed, Connection};

#[derive(Clone, Copy, Debug)]
pub struct SinkSettings {
    /// Frames above this many bytes are refused before their body is read.
    pub max_frame: u32,
    /// A connection silent this long is closed.
    pub idle_timeout: Duration,
    /// Connections open at once; more are closed as soon as they are accepted.
    pub max_connections: usize,
    /// Print a line per closed connection.
    pub log_connections: bool,
    /// Forward every request to this Iggy server and relay its replies (`sink::upstream`).
    pub upstream: Option<SocketAddr>,
}

impl Default for SinkSettings {
    fn default() -> Self {
        SinkSettings {
            max_frame: MAX_FRAME,
            idle_timeout: Duration::from_secs(30),
            max_connections: 128,
            log_connections: false,
            upstream: None,
        }
    }
}

impl SinkSettings {
    /// Refuses settings with which the sink could serve nothing, naming the `harness sink` flag:
    /// no connection at all, every connection closed at once, or a frame cap below the smallest
    /// SEND_MESSAGES frame (one message of the `expected` payload; of an empty one when payloads
    /// are not checked), which would close every connection at its first batch.
    pub fn check(&self, expected: Option<PayloadSpec>) -> anyhow::Result<()> {
        if self.max_connections == 0 {
            anyhow::bail!("--max-connections 0 is out of range: it must be at least 1");
        }
        if self.idle_timeout.is_zero() {
            anyhow::bail!("--idle-timeout 0 is out of range: it must be at least 1 (seconds)");
        }
        let (min, what) = min_frame(expected);
        if u64::from(self.max_frame) < min {
            anyhow::bail!(
                "--max-frame {} is out of range: it must be at least {min} (bytes), the SEND_MESSAGES frame of one message of {what}",
                self.max_frame
            );
        }
        Ok(())
    }
}

/// The smallest SEND_MESSAGES frame the sink must take to count a message, and what it carries.
fn min_frame(expected: Option<PayloadSpec>) -> (u64, String) {
    match expected {
        Some(spec) => (send_messages_len(1, &spec), format!("BITS={} PACK={}", spec.bits(), spec.pack())),
        // No message at all: the frame without its messages, which no payload spec changes.
        None => {
            let any = PayloadSpec::new(1, 1).expect("BITS=1 PACK=1 is valid");
            (send_messages_len(0, &any) + MESSAGE_HEADER_LEN as u64, "an empty payload".into())
        }
    }
}

/// A handle on a running sink, shared with the runner.
#[derive(Clone)]
pub struct Sink {
    pub addr: SocketAddr,
    delivery: Arc<Delivery>,
    catalog: Arc<Mutex<Catalog>>,
}

impl Sink {
    /// Binds `addr`; fails at once (settings it could serve nothing with, the port is in use)
    /// rather than when serving.
    pub async fn bind(
        addr: SocketAddr,
        settings: SinkSettings,
        expected: Option<PayloadSpec>,
    ) -> anyhow::Result<(Sink, impl Future<Output = ()>)> {
        settings.check(expected)?;
        let listener = TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let sink = Sink { addr: listener.local_addr()?, delivery: Arc::default(), catalog: Arc::default() };
        let serving = serve(listener, sink.clone(), settings, expected, None);
        Ok((sink, serving))
    }

    /// Starts the sink of one lock-step set of `arms` producers on its own thread: one listener
    /// per producer, so each is known by the address it was given whatever its language, each
    /// with its own catalog (the producers start at once, and each may create the stream); all
    /// counting into one delivery. It stops when the returned handle is dropped.
    /// `place` runs first on the sink's thread (to put it on its CPUs); its error is the sink's.
    pub fn spawn_set(
        arms: usize,
        seed: u64,
        settings: SinkSettings,
        expected: Option<PayloadSpec>,
        place: impl FnOnce() -> anyhow::Result<()> + Send + 'static,
    ) -> anyhow::Result<SetSink> {
        settings.check(expected)?;
        let pacer = Pacer::new(arms, seed);
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let pacing = pacer.clone();
        std::thread::Builder::new().name("set-sink".into()).spawn(move || {
            if let Err(e) = place() {
                return tx.send(Err(e)).unwrap_or(());
            }
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(rt) => rt,
                Err(e) => return tx.send(Err(e.into())).unwrap_or(()),
            };
            runtime.block_on(async move {
                let delivery = Arc::<Delivery>::default();
                let mut sinks = Vec::with_capacity(arms);
                let mut serving = tokio::task::JoinSet::new();
                for arm in 0..arms {
                    let listener = match TcpListener::bind("127.0.0.1:0").await.context("cannot listen on 127.0.0.1") {
                        Ok(l) => l,
                        Err(e) => return tx.send(Err(e)).unwrap_or(()),
                    };
                    let Ok(addr) = listener.local_addr() else {
                        return tx.send(Err(anyhow::anyhow!("a listener has no address"))).unwrap_or(());
                    };
                    let sink = Sink { addr, delivery: delivery.clone(), catalog: Arc::default() };
                    sinks.push(sink.clone());
                    serving.spawn(serve(listener, sink, settings, expected, Some((pacing.clone(), arm))));
                }
                let _ = tx.send(Ok(sinks));
                let watchdog = async {
                    loop {
                        tokio::time::sleep(lockstep::WATCH_EVERY).await;
                        pacing.watch(std::time::Instant::now());
                    }
                };
                tokio::select! {
                    _ = stopped => {}
                    _ = watchdog => {}
                }
            });
        })?;
        let sinks = rx.recv().map_err(|_| anyhow::anyhow!("the set's sink thread ended before listening"))??;
        Ok(SetSink { sinks, pacer, _stop: stop })
    }

    /// Starts a sink on its own thread (one core's worth of work, like a separate server
    /// process) and returns once it listens.
    pub fn spawn(addr: SocketAddr, settings: SinkSettings, expected: Option<PayloadSpec>) -> anyhow::Result<Sink> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new().name("sink".into()).spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(rt) => rt,
                Err(e) => return tx.send(Err(e.into())).unwrap_or(()),
            };
            runtime.block_on(async {
                match Sink::bind(addr, settings, expected).await {
                    Ok((sink, serving)) => {
                        let _ = tx.send(Ok(sink));
                        serving.await;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                    }
                }
            });
        })?;
        rx.recv().map_err(|_| anyhow::anyhow!("the sink thread ended before listening"))?
    }

    /// What the sink has delivered since it started; `.since(&before)` is one run's share.
    pub fn delivery(&self) -> DeliverySnapshot {
        self.delivery.snapshot()
    }
}

/// One lock-step set's sink (`Sink::spawn_set`): its producers' addresses and its pacing.
pub struct SetSink {
    /// One per producer, in the set's order; they share one delivery count.
    pub sinks: Vec<Sink>,
    pub pacer: Arc<Pacer>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

/// Accepts connections for ever; each checks its payloads against `expected` (None: counts
/// messages without checking them, for clients that send their own). In a lock-step set,
/// `pacing` names the set's pacer and the producer this listener serves.
async fn serve(
    listener: TcpListener,
    sink: Sink,
    settings: SinkSettings,
    expected: Option<PayloadSpec>,
    pacing: Option<(Arc<Pacer>, usize)>,
) {
    static SESSIONS: AtomicU64 = AtomicU64::new(1);
    let open = Arc::new(AtomicUsize::new(0));
    let mut turned_away = 0u64;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                eprintln!("sink: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if open.load(Relaxed) >= settings.max_connections {
            // One line when the limit is first hit and one when it is left, not one per client.
            if turned_away == 0 {
                eprintln!(
                    "sink: {} connections open (limit); closing new ones until one ends",
                    settings.max_connections
                );
            }
            turned_away += 1;
            drop(stream);
            continue;
        }
        if turned_away > 0 {
            eprintln!("sink: closed {turned_away} connections at the limit of {}", settings.max_connections);
            turned_away = 0;
        }
        let _ = stream.set_nodelay(true);
        sink.delivery.connection_opened();
        let slot = OpenSlot::take(&open);
        let connection =
            Connection::new(stream, peer, &sink, settings, expected, SESSIONS.fetch_add(1, Relaxed), pacing.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let (closed, messages) = connection.serve().await;
            match closed {
                Closed::ByClient if !settings.log_connections => {}
                Closed::ByClient => eprintln!("sink: {peer} closed after {messages} messages"),
                Closed::Idle(after) => eprintln!("sink: {peer} closed: idle for {after:?} (limit)"),
                Closed::BadFrameSize(size) => eprintln!(
                    "sink: {peer} closed: frame size {size} is outside {}..={} bytes (limit)",
                    crate::wire::HEADER_LEN,
                    settings.max_frame
                ),
                Closed::Io(e) => eprintln!("sink: {peer} closed after {messages} messages: {e}"),
            }
        });
    }
}

/// One open connection, counted until it is dropped (however its task ends).
struct OpenSlot(Arc<AtomicUsize>);

impl OpenSlot {
    fn take(open: &Arc<AtomicUsize>) -> Self {
        open.fetch_add(1, Relaxed);
        OpenSlot(open.clone())
    }
}

impl Drop for OpenSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests;
