//! Forwarding to an Iggy server (`--upstream`): the sink relays every request of a connection
//! to the server on a connection of its own and the server's replies back, while it still
//! verifies each batch and paces lock-step sets, so a user's own server gets exactly-once checks
//! and lock-step timing in front of it.

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use anyhow::{Context, bail};
use bytes::BytesMut;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::producer::client::Client;
use crate::wire::{HEADER_LEN, Operation, ReplyHeader, command, encode_request_header, patch_size};

/// How long the server may take to accept or to answer one request.
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(10);

/// The server `text` names (`setting` says who gave it: `--upstream ` or `UPSTREAM=`), checked before
/// anything runs: it accepts a connection and answers a PING as an Iggy server does (a reply
/// frame for that request, status OK).
pub fn resolve(setting: &str, text: &str) -> anyhow::Result<SocketAddr> {
    let addr = text
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .with_context(|| format!("{setting}{text} is not a host:port"))?;
    let answered = Client::connect(&addr.to_string()).and_then(|mut client| {
        let mut frame = BytesMut::new();
        encode_request_header(&mut frame, &client.next_header(Operation::NonReplicated(command::PING)));
        patch_size(&mut frame);
        client.request(&frame).map(|_| ())
    });
    answered.map_err(|e| anyhow::anyhow!("{setting}{text} is not an Iggy server that answers a PING: {e:#}"))?;
    Ok(addr)
}

/// One client connection's connection to the server.
pub struct Upstream {
    stream: TcpStream,
    addr: SocketAddr,
}

impl Upstream {
    pub async fn connect(addr: SocketAddr) -> anyhow::Result<Upstream> {
        let stream = tokio::time::timeout(UPSTREAM_TIMEOUT, TcpStream::connect(addr))
            .await
            .map_err(|_| anyhow::anyhow!("timed out"))??;
        stream.set_nodelay(true)?;
        Ok(Upstream { stream, addr })
    }

    /// Sends one request (its header and body) and reads the server's reply into `reply`; a
    /// reply larger than `max_frame` is refused rather than read.
    pub async fn relay(
        &mut self,
        head: &[u8],
        body: &[u8],
        reply: &mut BytesMut,
        max_frame: u32,
    ) -> anyhow::Result<()> {
        let addr = self.addr;
        let exchange = async {
            self.stream.write_all(head).await?;
            self.stream.write_all(body).await?;
            let mut reply_head = [0u8; HEADER_LEN];
            self.stream.read_exact(&mut reply_head).await?;
            let header = ReplyHeader::decode(&reply_head);
            let Some(len) = header.body_len().filter(|_| header.is_reply() && header.size <= max_frame) else {
                bail!("upstream {addr} sent a frame that is not an Iggy reply (size {})", header.size);
            };
            reply.clear();
            reply.extend_from_slice(&reply_head);
            reply.resize(HEADER_LEN + len, 0);
            self.stream.read_exact(&mut reply[HEADER_LEN..]).await?;
            Ok(())
        };
        match tokio::time::timeout(UPSTREAM_TIMEOUT, exchange).await {
            Err(_) => bail!("upstream {addr} did not answer within {} s", UPSTREAM_TIMEOUT.as_secs()),
            Ok(result) => result.with_context(|| format!("upstream {addr}")),
        }
    }
}
