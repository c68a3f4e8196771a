//! One client connection: read a frame, answer it, account for what it carried.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::BytesMut;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::catalog::{Catalog, MAX_PARTITIONS};
use super::delivery::{Delivery, Tally};
use super::lockstep::Pacer;
use super::upstream::Upstream;
use super::{Sink, SinkSettings};
use crate::wire::{
    HEADER_LEN, MetadataError, Operation, PayloadSpec, Protocol, RequestHeader, command, decode_create_stream,
    decode_create_topic, decode_get_partition_route, decode_get_stream, decode_get_topic, decode_send_messages,
    encode_login_reply_body, encode_partition_route, encode_reply, login_version, status,
};

/// The incarnation every partition route names; the sink never moves a partition.
const PARTITION_INCARNATION: u64 = 1;

/// Why a connection ended, for the sink's log line.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    ByClient,
    Idle(Duration),
    /// A size field below the header size or above the cap: the stream cannot be resynchronised.
    BadFrameSize(u32),
    Io(String),
}

pub struct Connection {
    stream: TcpStream,
    /// The client's address, for log lines.
    peer: SocketAddr,
    delivery: Arc<Delivery>,
    catalog: Arc<Mutex<Catalog>>,
    /// The sink's address, the one node of the cluster metadata it reports.
    local: SocketAddr,
    settings: SinkSettings,
    /// The expected payloads; None counts messages without checking them.
    spec: Option<PayloadSpec>,
    session: u64,
    /// The layout of the metadata replies: the one the login announced.
    protocol: Protocol,
    /// The next sequence number expected on each partition, by partition id.
    next_seq: Vec<u64>,
    /// Messages accepted on this connection, checked or not.
    delivered: u64,
    /// Whether the one line about this connection's payloads has been logged.
    warned: bool,
    body: Vec<u8>,
    reply: BytesMut,
    /// In a lock-step set: the set's pacing and which producer this connection belongs to.
    pacing: Option<(Arc<Pacer>, usize)>,
    /// Whether this connection's batches were paced (the producer's first sending connection).
    paced: bool,
    /// The server this connection's requests are relayed to (`--upstream`), once connected.
    upstream: Option<Upstream>,
}

impl Connection {
    pub fn new(
        stream: TcpStream,
        peer: SocketAddr,
        sink: &Sink,
        settings: SinkSettings,
        spec: Option<PayloadSpec>,
        session: u64,
        pacing: Option<(Arc<Pacer>, usize)>,
    ) -> Self {
        Connection {
            stream,
            peer,
            delivery: sink.delivery.clone(),
            catalog: sink.catalog.clone(),
            local: sink.addr,
            settings,
            spec,
            session,
            protocol: Protocol::default(),
            next_seq: Vec::new(),
            delivered: 0,
            warned: false,
            body: Vec::new(),
            reply: BytesMut::with_capacity(512),
            pacing,
            paced: false,
            upstream: None,
        }
    }

    /// Serves frames until the client leaves, idles too long or breaks the framing; returns why
    /// it ended and the messages it delivered.
    pub async fn serve(mut self) -> (Closed, u64) {
        let closed = match self.settings.upstream {
            None => self.frames().await,
            Some(addr) => match Upstream::connect(addr).await {
                Ok(up) => {
                    self.upstream = Some(up);
                    self.frames().await
                }
                Err(e) => Closed::Io(format!("cannot reach upstream {addr}: {e}")),
            },
        };
        if let Some((pacer, arm)) = self.pacing.as_ref().filter(|_| self.paced) {
            let error = match &closed {
                Closed::ByClient => None,
                Closed::Idle(after) => Some(format!("went silent for {after:?} mid-set")),
                Closed::BadFrameSize(size) => Some(format!("sent a frame of size {size}, outside the frame limits")),
                Closed::Io(e) => Some(format!("connection failed mid-set: {e}")),
            };
            pacer.closed(*arm, error);
        }
        (closed, self.delivered)
    }

    async fn frames(&mut self) -> Closed {
        loop {
            let mut head = [0u8; HEADER_LEN];
            match tokio::time::timeout(self.settings.idle_timeout, self.stream.read_exact(&mut head)).await {
                Err(_) => break Closed::Idle(self.settings.idle_timeout),
                Ok(Err(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => break Closed::ByClient,
                Ok(Err(e)) => break Closed::Io(e.to_string()),
                Ok(Ok(_)) => {}
            }
            let request = RequestHeader::decode(&head);
            let mut tally = Tally { bytes: u64::from(request.size), ..Tally::default() };
            if (request.size as usize) < HEADER_LEN || request.size > self.settings.max_frame {
                tally.rejected_frames = 1;
                self.delivery.add(&tally);
                self.reply.clear();
                encode_reply(&mut self.reply, &request, status::COMMAND_LENGTH_ERROR, &[]);
                let _ = self.stream.write_all(&self.reply).await;
                break Closed::BadFrameSize(request.size);
            }
            // Only now, with the size bounded by the cap, is the body buffer grown to it.
            self.body.resize(request.size as usize - HEADER_LEN, 0);
            let read = tokio::time::timeout(self.settings.idle_timeout, self.stream.read_exact(&mut self.body)).await;
            match read {
                Err(_) => break Closed::Idle(self.settings.idle_timeout),
                Ok(Err(e)) => break Closed::Io(format!("frame cut short: {e}")),
                Ok(Ok(_)) => {}
            }
            let read_at = Instant::now();
            let pacer = match &self.pacing {
                Some((pacer, arm))
                    if request.operation == Operation::SendMessages && pacer.paces(*arm, self.session) =>
                {
                    self.paced = true;
                    pacer.batch_read(*arm, read_at);
                    Some((pacer.clone(), *arm))
                }
                _ => None,
            };
            let logout = if self.upstream.is_none() {
                self.answer(&request, &mut tally)
            } else {
                // The batch is verified here as ever; the server's reply is what goes back.
                if request.operation == Operation::SendMessages {
                    self.accept_batch(&mut tally);
                }
                let up = self.upstream.as_mut().expect("checked");
                if let Err(e) = up.relay(&head, &self.body, &mut self.reply, self.settings.max_frame).await {
                    break Closed::Io(format!("{e:#}"));
                }
                request.operation == Operation::Logout
            };
            self.delivery.add(&tally);
            if let Some((pacer, arm)) = &pacer {
                // Released in this producer's next turn, or at once once the set is over. The
                // turn starts before the write: the woken producer may take this CPU from the
                // sink as soon as the reply lands, and a clock read after the write would then
                // wait for the producer's whole turn.
                let _ = pacer.hold(*arm, read_at.elapsed().as_nanos() as u64).await;
                pacer.replied(*arm);
            }
            if let Err(e) = self.stream.write_all(&self.reply).await {
                break Closed::Io(e.to_string());
            }
            if logout {
                break Closed::ByClient;
            }
        }
    }

    /// Builds the reply to one request in `self.reply`; returns whether the client logged out.
    fn answer(&mut self, request: &RequestHeader, tally: &mut Tally) -> bool {
        self.reply.clear();
        let mut body = BytesMut::new();
        let (status, logout) = match request.operation {
            Operation::SendMessages => (self.accept_batch(tally), false),
            Operation::Login => (self.login(&mut body), false),
            Operation::NonReplicated(command::PING) => (status::OK, false),
            Operation::Logout => (status::OK, true),
            Operation::NonReplicated(code) => (self.answer_query(code, &mut body), false),
            Operation::CreateStream | Operation::CreateTopic => {
                (self.answer_create(request.operation, &mut body), false)
            }
            Operation::Other(_) => (status::INVALID_COMMAND, false),
        };
        if status != status::OK {
            body.clear();
        }
        encode_reply(&mut self.reply, request, status, &body);
        logout
    }

    /// Answers in the protocol the client announces; one the sink does not speak is refused.
    fn login(&mut self, body: &mut BytesMut) -> u32 {
        let Some(protocol) = login_version(&self.body).and_then(Protocol::from_version) else {
            let version = login_version(&self.body).unwrap_or(0);
            eprintln!(
                "sink: {} logged in with protocol version {version:#x}; the sink speaks {:#x} (0.11.0) and {:#x} (0.12.2)",
                self.peer,
                Protocol::V0_11.version(),
                Protocol::V0_12.version()
            );
            return status::INCOMPATIBLE_PROTOCOL_VERSION;
        };
        self.protocol = protocol;
        encode_login_reply_body(body, protocol, 1, self.session, concat!("mintbench-sink ", env!("CARGO_PKG_VERSION")));
        status::OK
    }

    /// The read-only metadata requests.
    fn answer_query(&self, code: u32, body: &mut BytesMut) -> u32 {
        self.query(code, body).unwrap_or_else(|e| self.refused(code, &e))
    }

    fn query(&self, code: u32, body: &mut BytesMut) -> Result<u32, MetadataError> {
        let catalog = self.catalog.lock().expect("no connection panics holding the catalog");
        match code {
            command::GET_CLUSTER_METADATA => {
                self.protocol.encode_cluster_metadata(
                    body,
                    "mintbench-sink",
                    &self.local.ip().to_string(),
                    self.local.port(),
                );
            }
            command::GET_STREAM => catalog.get_stream(body, self.protocol, &decode_get_stream(&self.body)?),
            command::GET_TOPIC => {
                let (stream, topic) = decode_get_topic(&self.body)?;
                catalog.get_topic(body, self.protocol, &stream, &topic);
            }
            command::GET_PARTITION_ROUTE => {
                let (stream, topic, partition) = decode_get_partition_route(&self.body)?;
                match catalog.route(&stream, &topic, partition) {
                    Ok(partitions) => encode_partition_route(body, PARTITION_INCARNATION, partitions),
                    Err(status) => return Ok(status),
                }
            }
            _ => return Ok(status::INVALID_COMMAND),
        }
        Ok(status::OK)
    }

    /// CREATE_STREAM and CREATE_TOPIC: their replies open with a result section (no
    /// rejections) before the created entity.
    fn answer_create(&self, operation: Operation, body: &mut BytesMut) -> u32 {
        body.extend_from_slice(&0u32.to_le_bytes());
        let mut catalog = self.catalog.lock().expect("no connection panics holding the catalog");
        let created = match operation {
            Operation::CreateStream => {
                decode_create_stream(&self.body).map(|name| catalog.create_stream(body, self.protocol, name))
            }
            _ => decode_create_topic(&self.body)
                .map(|t| catalog.create_topic(body, self.protocol, &t.stream, t.name, t.partitions)),
        };
        match created {
            Ok(Ok(())) => status::OK,
            Ok(Err(status)) => status,
            Err(e) => self.refused(u32::from(operation.code()), &e),
        }
    }

    fn refused(&self, code: u32, e: &MetadataError) -> u32 {
        eprintln!("sink: refused a request (code {code}) from {}: {e}", self.peer);
        e.status()
    }

    fn accept_batch(&mut self, tally: &mut Tally) -> u32 {
        let batch = match decode_send_messages(&self.body) {
            Ok(batch) => batch,
            Err(e) => {
                tally.rejected_frames = 1;
                if e.is_checksum() {
                    tally.checksum_failures = 1;
                }
                eprintln!("sink: refused a batch from {}: {e}", self.peer);
                return e.status();
            }
        };
        // Balanced and keyed batches land on partition 0, a choice a server may make.
        let partition = batch.partition.unwrap_or(0);
        if partition >= MAX_PARTITIONS {
            tally.rejected_frames = 1;
            return status::PARTITION_NOT_FOUND;
        }
        tally.batches = 1;
        tally.partition.partition = partition;
        let Some(spec) = self.spec else {
            tally.partition.messages = u64::from(batch.count);
            self.delivered += u64::from(batch.count);
            return status::OK;
        };
        if self.next_seq.len() <= partition as usize {
            self.next_seq.resize(partition as usize + 1, 0);
        }
        let (mut foreign, mut out_of_order) = (None, false);
        let index = partition as usize;
        for (_, payload) in batch.messages() {
            let expected = self.next_seq[index];
            let seen = &mut tally.partition;
            match spec.offset_from(expected, payload) {
                Some(0) => {
                    seen.messages += 1;
                    self.next_seq[index] += 1;
                }
                Some(offset) => {
                    let got = expected.wrapping_add_signed(offset);
                    if offset > 0 {
                        seen.gaps += offset as u64;
                        seen.messages += 1;
                        self.next_seq[index] += offset as u64 + 1;
                    } else {
                        seen.duplicates += 1;
                    }
                    out_of_order = true;
                    let what = if offset > 0 { "messages lost" } else { "a repeat" };
                    warn_once(&mut self.warned, self.peer, self.session, || {
                        format!("partition {partition} expected message {expected} and got {got}: {what}")
                    });
                }
                None => {
                    tally.unexpected_payloads += 1;
                    foreign = Some(if payload.len() == spec.len() {
                        status::INVALID_FORMAT
                    } else {
                        status::INVALID_MESSAGE_PAYLOAD_LENGTH
                    });
                    warn_once(&mut self.warned, self.peer, self.session, || {
                        format!(
                            "a payload of {} bytes is not the contract's (sdks/README.md): message {expected} on partition {partition} is {} bytes of BITS={} PACK={}; a client that sends its own payloads needs `harness sink --no-verify`",
                            payload.len(),
                            spec.len(),
                            spec.bits(),
                            spec.pack()
                        )
                    });
                }
            }
        }
        self.delivered += tally.partition.messages;
        foreign.unwrap_or(if out_of_order { status::PRODUCER_SEQUENCE_OUT_OF_ORDER } else { status::OK })
    }
}

/// Logs the first payload problem of a connection, and only that one.
fn warn_once(warned: &mut bool, peer: SocketAddr, session: u64, line: impl FnOnce() -> String) {
    if !*warned {
        *warned = true;
        eprintln!("sink: {peer} (connection {session}): {}", line());
    }
}
