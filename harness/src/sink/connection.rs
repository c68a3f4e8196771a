//! One client connection: read a frame, answer it, account for what it carried.

use std::sync::Arc;
use std::time::Duration;

use bytes::BytesMut;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::counts::{Counts, Tally};
use super::SinkSettings;
use crate::wire::{
    BatchError, HEADER_LEN, Operation, PayloadSpec, RequestHeader, command, decode_send_messages, encode_login_reply_body,
    encode_reply, status,
};

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
    settings: SinkSettings,
    /// The expected payloads; None counts messages without checking them.
    spec: Option<PayloadSpec>,
    session: u64,
    next_seq: u64,
    body: Vec<u8>,
    reply: BytesMut,
}

impl Connection {
    pub fn new(stream: TcpStream, counts: Arc<Counts>, settings: SinkSettings, spec: Option<PayloadSpec>, session: u64) -> Self {
        Connection { stream, counts, settings, spec, session, next_seq: 0, body: Vec::new(), reply: BytesMut::with_capacity(512) }
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
            Operation::Login => {
                encode_login_reply_body(&mut body, 1, self.session, concat!("mintbench-sink ", env!("CARGO_PKG_VERSION")));
                (status::OK, false)
            }
            Operation::NonReplicated(command::PING) => (status::OK, false),
            Operation::Logout => (status::OK, true),
            Operation::SendMessages => (self.accept_batch(tally), false),
            Operation::NonReplicated(_) | Operation::Other(_) => (status::INVALID_COMMAND, false),
        };
        encode_reply(&mut self.reply, request, status, &body);
        logout
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
