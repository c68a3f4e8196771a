//! One run of the released client against a sink: connect, log in, find or create the stream
//! and topic, send every batch with one request in flight, log out.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bytes::Bytes;
use harness::producer::{Lap, Plan, Recorder};
use iggy::prelude::{
    Client, Identifier, IggyClient, IggyError, IggyMessage, MessageClient, Partitioning, StreamClient,
    StreamCreateOptions, TopicClient, TopicCreateOptions, UserClient,
};

use crate::ids::{IdSource, Ids};

/// How long connect and each reply may take, as for every producer of the contract.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
pub const STREAM: &str = "mintbench";
pub const TOPIC: &str = "ids";

/// Awaits one client call within [`IO_TIMEOUT`], naming the call and the server when it fails.
async fn bounded<T>(what: &str, server: &str, call: impl Future<Output = Result<T, IggyError>>) -> anyhow::Result<T> {
    match tokio::time::timeout(IO_TIMEOUT, call).await {
        Err(_) => bail!("{server} did not answer {what} within {IO_TIMEOUT:?}"),
        Ok(Err(e)) => bail!("{what} at {server} failed: {e}"),
        Ok(Ok(value)) => Ok(value),
    }
}

/// Sends the plan's batches in its schedule's order, batch `i` of the connection to partition
/// `i % partitions` (each partition numbered from 0, as the sink checks it), each with its arm's IDs. A batch's time runs from building its messages
/// (after any injected work) to the return of the client's `send_messages` call.
pub async fn produce(
    plan: &Plan<IdSource>,
    server: &str,
    partitions: u32,
    ids: &mut [Ids],
) -> anyhow::Result<Recorder> {
    let client = IggyClient::builder()
        .with_tcp()
        .with_server_address(server.to_owned())
        .with_no_delay()
        .with_reconnection_max_retries(Some(0))
        .build()
        .with_context(|| format!("SERVER={server} is not a usable address"))?;
    bounded("connect", server, client.connect()).await?;
    bounded("login", server, client.login_user("iggy", "iggy")).await?;
    let (stream, topic) = stream_and_topic(&client, server, partitions).await?;

    let mut recorder = Recorder::new(plan);
    // The sink numbers each partition's messages on its own, 0, 1, 2, ...
    let mut next_seq = vec![0u64; partitions as usize];
    for batch in plan.schedule() {
        let start = Instant::now();
        let injected_ns = plan.inject.spin(batch.arm, batch.count, start);
        let partition = batch.index % partitions as usize;
        let first_seq = next_seq[partition];
        next_seq[partition] += u64::from(batch.count);
        let mut messages = messages(plan, first_seq, batch.count, &mut ids[batch.arm])?;
        let partitioning = Partitioning::partition_id(partition as u32);
        let sent = Instant::now();
        bounded("SEND_MESSAGES", server, client.send_messages(&stream, &topic, &partitioning, &mut messages)).await?;
        recorder.record(&batch, Lap { start, sent: Some(sent), acked: Instant::now(), injected_ns });
    }
    bounded("logout", server, client.logout_user()).await?;
    client.shutdown().await.ok();
    Ok(recorder)
}

/// The contract's `count` messages from sequence number `first_seq`, with the arm's next batch
/// of IDs, one each.
fn messages(plan: &Plan<IdSource>, first_seq: u64, count: u32, ids: &mut Ids) -> anyhow::Result<Vec<IggyMessage>> {
    (first_seq..)
        .zip(ids.batch(count))
        .map(|(seq, id)| {
            let mut payload = vec![0u8; plan.payload.len()];
            plan.payload.write(seq, &mut payload);
            IggyMessage::builder().id(id.as_u128()).payload(Bytes::from(payload)).build().context("building a message")
        })
        .collect()
}

/// Finds the stream and topic or creates them, as a producer sets itself up.
async fn stream_and_topic(
    client: &IggyClient,
    server: &str,
    partitions: u32,
) -> anyhow::Result<(Identifier, Identifier)> {
    let stream_name = Identifier::named(STREAM)?;
    let stream = match bounded("GET_STREAM", server, client.get_stream(&stream_name)).await? {
        Some(s) => s.id,
        None => {
            bounded("CREATE_STREAM", server, client.create_stream(STREAM, &StreamCreateOptions::default())).await?.id
        }
    };
    let stream = Identifier::numeric(stream)?;
    let topic_name = Identifier::named(TOPIC)?;
    let topic = match bounded("GET_TOPIC", server, client.get_topic(&stream, &topic_name)).await? {
        Some(t) if t.partitions_count == partitions => t.id,
        Some(t) => {
            bail!("topic {TOPIC} at {server} has {} partitions, not PARTITIONS={partitions}", t.partitions_count)
        }
        None => {
            let options = TopicCreateOptions { partitions_count: Some(partitions), ..TopicCreateOptions::default() };
            bounded("CREATE_TOPIC", server, client.create_topic(&stream, TOPIC, &options)).await?.id
        }
    };
    Ok((stream, Identifier::numeric(topic)?))
}
