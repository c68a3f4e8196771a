//! A blocking Iggy client for the producer path: one connection, one request in flight.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use anyhow::{Context, bail};
use bytes::BytesMut;

use crate::wire::{
    HEADER_LEN, Operation, ReplyHeader, RequestHeader, encode_login_body, encode_request_header, login_reply_session,
    patch_size, status,
};

/// How long connect and each reply may take before the run is abandoned.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);

pub struct Client {
    stream: TcpStream,
    server: SocketAddr,
    pub client_id: u128,
    pub session: u64,
    next_request: u64,
    reply_body: Vec<u8>,
}

impl Client {
    pub fn connect(server: &str) -> anyhow::Result<Client> {
        let addr = server
            .to_socket_addrs()
            .with_context(|| format!("SERVER={server} is not a host:port"))?
            .next()
            .with_context(|| format!("SERVER={server} resolves to no address"))?;
        let stream =
            TcpStream::connect_timeout(&addr, IO_TIMEOUT).with_context(|| format!("cannot connect to {addr}"))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(IO_TIMEOUT))?;
        stream.set_write_timeout(Some(IO_TIMEOUT))?;
        let client_id = loop {
            let id = idgen::mint().as_u128();
            if id != 0 {
                break id;
            }
        };
        Ok(Client { stream, server: addr, client_id, session: 0, next_request: 0, reply_body: Vec::new() })
    }

    /// The header of the next request; its number is taken.
    pub fn next_header(&mut self, operation: Operation) -> RequestHeader {
        let request = self.next_request;
        self.next_request += 1;
        RequestHeader {
            size: 0,
            client: self.client_id,
            request_checksum: 0,
            request,
            operation,
            session: self.session,
        }
    }

    pub fn login(&mut self, sdk_name: &str) -> anyhow::Result<()> {
        let mut frame = BytesMut::new();
        let mut header = self.next_header(Operation::Login);
        header.request_checksum = idgen::mint().as_u128() | 1;
        encode_request_header(&mut frame, &header);
        encode_login_body(&mut frame, sdk_name, env!("CARGO_PKG_VERSION"), "iggy", "iggy");
        patch_size(&mut frame);
        self.request(&frame)?;
        self.session =
            login_reply_session(&self.reply_body).filter(|&s| s != 0).context("login reply carries no session")?;
        Ok(())
    }

    pub fn logout(&mut self) -> anyhow::Result<()> {
        let mut frame = BytesMut::new();
        let header = self.next_header(Operation::Logout);
        encode_request_header(&mut frame, &header);
        patch_size(&mut frame);
        self.request(&frame).map(|_| ())
    }

    /// Sends one whole frame and waits for its reply; a non-zero status is an error. Returns
    /// the reply body.
    pub fn request(&mut self, frame: &[u8]) -> anyhow::Result<&[u8]> {
        let sent = RequestHeader::decode(frame);
        self.stream.write_all(frame).with_context(|| format!("sending to {} failed", self.server))?;
        let reply = self.read_reply()?;
        if !reply.is_reply() || reply.request != sent.request {
            bail!("{} answered request {} with a frame for request {}", self.server, sent.request, reply.request);
        }
        if reply.status != 0 {
            bail!(
                "{} refused request {} with status {} ({})",
                self.server,
                sent.request,
                reply.status,
                status::describe(reply.status)
            );
        }
        Ok(&self.reply_body)
    }

    fn read_reply(&mut self) -> anyhow::Result<ReplyHeader> {
        let mut head = [0u8; HEADER_LEN];
        self.stream.read_exact(&mut head).map_err(|e| self.io_error(e))?;
        let reply = ReplyHeader::decode(&head);
        let body_len = reply
            .body_len()
            .filter(|&n| n <= 1 << 20)
            .with_context(|| format!("{} sent a reply of size {}", self.server, reply.size))?;
        self.reply_body.resize(body_len, 0);
        self.stream.read_exact(&mut self.reply_body).map_err(|e| self.io_error(e))?;
        Ok(reply)
    }

    fn io_error(&self, e: std::io::Error) -> anyhow::Error {
        match e.kind() {
            std::io::ErrorKind::UnexpectedEof => anyhow::anyhow!("{} closed the connection mid-run", self.server),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                anyhow::anyhow!("{} did not answer within {:?}", self.server, IO_TIMEOUT)
            }
            _ => anyhow::anyhow!("reading from {} failed: {e}", self.server),
        }
    }
}
