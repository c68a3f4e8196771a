//! One client connection: read a frame, answer it, account for what it carried.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::BytesMut;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::catalog::Catalog;
use super::counts::{Counts, Tally};
use super::{Sink, SinkSettings};
use crate::wire::{
    BatchError, HEADER_LEN, MetadataError, Operation, PayloadSpec, RequestHeader, command, decode_create_stream, decode_create_topic,
    decode_get_partition_route, decode_get_stream, decode_get_topic, decode_send_messages, encode_cluster_metadata,
    encode_login_reply_body, encode_partition_route, encode_reply, status,
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
    counts: Arc<Counts>,
    catalog: Arc<Mutex<Catalog>>,
    /// The sink's address, the one node of the cluster metadata it reports.
    local: SocketAddr,
    settings: SinkSettings,
    /// The expected payloads; None counts messages without checking them.
    spec: Option<PayloadSpec>,
    session: u64,
    next_seq: u64,
    body: Vec<u8>,
    reply: BytesMut,
}

impl Connection {
    pub fn new(stream: TcpStream, sink: &Sink, settings: SinkSettings, spec: Option<PayloadSpec>, session: u64) -> Self {
        Connection {
            stream,
            counts: sink.counts.clone(),
            catalog: sink.catalog.clone(),
            local: sink.addr,
            settings,
            spec,
            session,
            next_seq: 0,
            body: Vec::new(),
            reply: BytesMut::with_capacity(512),
        }
    }

    /// Serves frames until the client leaves, idles too long or breaks the framing.
    pub async fn serve(mut self) -> (Closed, u64) {
        let closed = loop {
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
                self.counts.add(&tally);
                self.reply.clear();
                encode_reply(&mut self.reply, &request, status::INVALID_FRAME_SIZE, &[]);
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
            let logout = self.answer(&request, &mut tally);
            self.counts.add(&tally);
            if let Err(e) = self.stream.write_all(&self.reply).await {
                break Closed::Io(e.to_string());
            }
            if logout {
                break Closed::ByClient;
            }
        };
        (closed, self.next_seq)
    }

    /// Builds the reply to one request in `self.reply`; returns whether the client logged out.
    fn answer(&mut self, request: &RequestHeader, tally: &mut Tally) -> bool {
        self.reply.clear();
        let mut body = BytesMut::new();
        let (status, logout) = match request.operation {
            Operation::SendMessages => (self.accept_batch(tally), false),
            Operation::Login => {
                encode_login_reply_body(&mut body, 1, self.session, concat!("mintbench-sink ", env!("CARGO_PKG_VERSION")));
                (status::OK, false)
            }
            Operation::NonReplicated(command::PING) => (status::OK, false),
            Operation::Logout => (status::OK, true),
            Operation::NonReplicated(code) => (self.answer_query(code, &mut body), false),
            Operation::CreateStream | Operation::CreateTopic => (self.answer_create(request.operation, &mut body), false),
            Operation::Other(_) => (status::INVALID_COMMAND, false),
        };
        if status != status::OK {
            body.clear();
        }
        encode_reply(&mut self.reply, request, status, &body);
        logout
    }

    /// The read-only metadata requests; a malformed body is an invalid command.
    fn answer_query(&self, code: u32, body: &mut BytesMut) -> u32 {
        self.query(code, body).unwrap_or_else(|e| self.refused(code, &e))
    }

    fn query(&self, code: u32, body: &mut BytesMut) -> Result<u32, MetadataError> {
        let catalog = self.catalog.lock().expect("no connection panics holding the catalog");
        match code {
            command::GET_CLUSTER_METADATA => {
                encode_cluster_metadata(body, "mintbench-sink", &self.local.ip().to_string(), self.local.port());
            }
            command::GET_STREAM => catalog.get_stream(body, &decode_get_stream(&self.body)?),
            command::GET_TOPIC => {
                let (stream, topic) = decode_get_topic(&self.body)?;
                catalog.get_topic(body, &stream, &topic);
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
            Operation::CreateStream => decode_create_stream(&self.body).map(|name| catalog.create_stream(body, name)),
            _ => decode_create_topic(&self.body).map(|t| catalog.create_topic(body, &t.stream, t.name, t.partitions)),
        };
        match created {
            Ok(Ok(())) => status::OK,
            Ok(Err(status)) => status,
            Err(e) => self.refused(u32::from(operation.code()), &e),
        }
    }

    fn refused(&self, code: u32, e: &MetadataError) -> u32 {
        eprintln!("sink: refused a request (code {code}): {e}");
        status::INVALID_COMMAND
    }

    fn accept_batch(&mut self, tally: &mut Tally) -> u32 {
        let batch = match decode_send_messages(&self.body) {
            Ok(batch) => batch,
            Err(e) => {
                tally.rejected_frames = 1;
                if e.is_checksum() {
                    tally.checksum_failures = 1;
                }
                eprintln!("sink: refused a batch: {e}");
                return batch_error_status(&e);
            }
        };
        tally.batches = 1;
        let Some(spec) = self.spec else {
            tally.messages = u64::from(batch.count);
            return status::OK;
        };
        let mut clean = true;
        for (_, payload) in batch.messages() {
            match spec.offset_from(self.next_seq, payload) {
                Some(0) => {
                    tally.messages += 1;
                    self.next_seq += 1;
                }
                Some(ahead) if ahead > 0 => {
                    tally.gaps += ahead as u64;
                    tally.messages += 1;
                    self.next_seq += ahead as u64 + 1;
                    clean = false;
                }
                Some(_) => {
                    tally.duplicates += 1;
                    clean = false;
                }
                None => {
                    tally.unexpected_payloads += 1;
                    clean = false;
                }
            }
        }
        if clean { status::OK } else { status::UNEXPECTED_PAYLOAD }
    }
}

fn batch_error_status(e: &BatchError) -> u32 {
    if e.is_checksum() { status::INVALID_CHECKSUM } else { status::INVALID_MESSAGES }
}
