//! Hostile and broken clients for scripts/fault-matrix.sh. Each case talks to a sink on
//! loopback, prints one line saying what the sink did, and exits 0 only when the sink did what
//! the matrix expects of it. Every wait is bounded.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use bytes::BytesMut;
use clap::{Parser, Subcommand};
use harness::producer::client::Client;
use harness::wire::{
    HEADER_LEN, Operation, PayloadSpec, ReplyHeader, RequestHeader, SendTarget, encode_send_messages, status,
};

/// Longest any case waits on the sink: its idle limit in the matrix (2 s) plus a margin.
const WAIT: Duration = Duration::from_secs(8);

#[derive(Parser)]
struct Cli {
    /// Sink address, host:port (loopback).
    #[arg(long)]
    server: String,
    #[command(subcommand)]
    case: Case,
}

#[derive(Subcommand)]
enum Case {
    /// 64 KiB of pseudo-random bytes: an error status and a closed connection.
    Garbage,
    /// A SEND_MESSAGES frame cut 10 bytes short, then silence: closed at the idle limit.
    Truncated,
    /// A size field of 4 GiB - 1: refused with an error status before any body is read.
    Huge,
    /// Connects and sends nothing: closed at the idle limit.
    Silent,
    /// Opens CONNECTIONS at once; expects EXPECT_SERVED to log in and the rest to be closed.
    Burst {
        #[arg(long)]
        connections: usize,
        #[arg(long)]
        expect_served: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.case {
        Case::Garbage => garbage(&cli.server),
        Case::Truncated => truncated(&cli.server),
        Case::Huge => huge(&cli.server),
        Case::Silent => silent(&cli.server),
        Case::Burst { connections, expect_served } => burst(&cli.server, connections, expect_served),
    };
    harness::exit_code(outcome.map(|line| println!("{line}")))
}

fn connect(server: &str) -> anyhow::Result<TcpStream> {
    let s = TcpStream::connect(server).with_context(|| format!("cannot connect to {server}"))?;
    s.set_read_timeout(Some(WAIT))?;
    Ok(s)
}

/// Reads reply frames until the sink closes; their statuses and how long the close took.
fn until_closed(s: &mut TcpStream) -> anyhow::Result<(Vec<u32>, Duration)> {
    let started = Instant::now();
    let mut statuses = Vec::new();
    loop {
        let mut head = [0u8; HEADER_LEN];
        match s.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if matches!(e.kind(), ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset) => {
                return Ok((statuses, started.elapsed()));
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                bail!("the sink kept the connection open for {WAIT:?}")
            }
            Err(e) => return Err(e.into()),
        }
        let reply = ReplyHeader::decode(&head);
        let mut body = vec![0u8; reply.body_len().context("reply size below the header")?.min(1 << 20)];
        s.read_exact(&mut body)?;
        statuses.push(reply.status);
    }
}

fn garbage(server: &str) -> anyhow::Result<String> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let bytes: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let mut s = connect(server)?;
    // The sink may close before reading it all; a reset then is part of the outcome.
    let _ = s.write_all(&bytes);
    let (statuses, after) = until_closed(&mut s)?;
    ensure!(!statuses.is_empty() && !statuses.contains(&status::OK), "statuses {statuses:?}: expected errors only");
    Ok(format!("garbage: answered with statuses {statuses:?}, closed after {after:?}"))
}

fn truncated(server: &str) -> anyhow::Result<String> {
    let mut frame = BytesMut::new();
    let header = RequestHeader {
        size: 0,
        client: 1,
        request_checksum: 0,
        request: 1,
        operation: Operation::SendMessages,
        session: 1,
    };
    let target = SendTarget { stream: 1, topic: 1, partition: 0 };
    encode_send_messages(&mut frame, &header, &target, 1, 0, 10, &PayloadSpec::new(42, 1)?, || {
        idgen::mint().to_le_bytes()
    });
    let mut s = connect(server)?;
    s.write_all(&frame[..frame.len() - 10])?;
    let (statuses, after) = until_closed(&mut s)?;
    ensure!(statuses.is_empty(), "the sink answered a frame it never fully received: {statuses:?}");
    Ok(format!("truncated: no reply, closed after {after:?}"))
}

fn huge(server: &str) -> anyhow::Result<String> {
    let mut head = [0u8; HEADER_LEN];
    head[48..52].copy_from_slice(&u32::MAX.to_le_bytes());
    head[60] = 5;
    head[176] = 160;
    let mut s = connect(server)?;
    s.write_all(&head)?;
    let (statuses, after) = until_closed(&mut s)?;
    ensure!(
        statuses == [status::COMMAND_LENGTH_ERROR],
        "statuses {statuses:?}, expected [{}]",
        status::COMMAND_LENGTH_ERROR
    );
    ensure!(after < Duration::from_secs(1), "closing took {after:?}: the sink waited for a body it must not read");
    Ok(format!("huge: status {} and closed after {after:?}", status::COMMAND_LENGTH_ERROR))
}

fn silent(server: &str) -> anyhow::Result<String> {
    let mut s = connect(server)?;
    let (statuses, after) = until_closed(&mut s)?;
    ensure!(statuses.is_empty(), "replies to nothing: {statuses:?}");
    Ok(format!("silent: closed after {after:?}"))
}

fn burst(server: &str, connections: usize, expect_served: usize) -> anyhow::Result<String> {
    // Every connection is opened before any logs in, so they are all open at once.
    let clients: Vec<Client> = (0..connections).map(|_| Client::connect(server)).collect::<Result<_, _>>()?;
    let (mut served, mut closed) = (0, 0);
    // Served clients stay open until the end, so no slot frees up while the rest are judged.
    let mut held = Vec::new();
    for mut c in clients {
        match c.login("mintbench-fault") {
            Ok(()) => {
                served += 1;
                held.push(c);
            }
            // Closed on arrival: the login meets a reset, a broken pipe or an end of stream.
            Err(_) => closed += 1,
        }
    }
    ensure!(
        served == expect_served && served + closed == connections,
        "{served} served and {closed} closed of {connections}, expected {expect_served} served"
    );
    Ok(format!("burst: {served} of {connections} connections served, {closed} closed at the limit"))
}
