"""The `iggy-python` row: the released Python client (PyPI `apache-iggy` 0.9.0) driven through its
public API as an application drives it: connect, log in, find or create the stream and the
topic, and send the contract's messages (sdks/README.md) in batches of BATCH with one request in
flight. Prints one JSON result line; any error is one `error: ...` line and exit 1."""

import asyncio
import json
import os
import sys
import time

# The contract's settings, paired mode's block order, the payloads and the run's clock work are
# the lean Python producer's modules, on the path (after this folder) once `ids` is imported.
from ids import STRATEGIES
from blocks import block_orders
from payload import payload
from settings import SettingsError, settings_from_env
from timing import percentile, spin

SDK = "iggy-python"
SEND_PATHS = ("faithful",)  # the released client's own send path
STREAM = "mintbench"
TOPIC = "ids"
PARTITION = 0
# Connect and every reply wait are bounded: nothing hangs.
WAIT_S = 10
SETUP_COMMAND = "sdks/iggy-python/setup.sh"


class RunError(Exception):
    """The server refused a request, or the connection failed; the message names which."""


class Arm:
    """One MSG_ID entry: its id source and what its timed batches took."""

    def __init__(self, msg_id, messages, injected):
        self.msg_id = msg_id
        self.fill_ids = STRATEGIES[msg_id](messages)
        self.injected = injected  # the arm at INJECT_ARM, with INJECT_NS above 0
        self.injected_ns = 0
        self.batch_ns = []
        self.rtt_ns = []
        self.timed_messages = 0


async def bounded(what, server, awaitable):
    try:
        return await asyncio.wait_for(awaitable, WAIT_S)
    except asyncio.TimeoutError:
        raise RunError(f"SERVER={server} did not answer {what} within {WAIT_S} s") from None
    except RuntimeError as e:
        raise RunError(f"SERVER={server} refused {what}: {e}") from None


async def stream_and_topic(client, server):
    """Finds the stream and the topic by name, creating each that does not exist yet."""
    if await bounded("GET_STREAM", server, client.get_stream(STREAM)) is None:
        await bounded("CREATE_STREAM", server, client.create_stream(STREAM))
    if await bounded("GET_TOPIC", server, client.get_topic(STREAM, TOPIC)) is None:
        await bounded("CREATE_TOPIC", server, client.create_topic(STREAM, TOPIC, 1))


class Sender:
    """Numbers the connection's messages 0, 1, 2, ... in send order and times each batch."""

    def __init__(self, iggy, client, settings):
        self.iggy, self.client, self.settings = iggy, client, settings
        self.seq = 0

    async def send(self, arm, count, timed):
        s, iggy = self.settings, self.iggy
        started = time.perf_counter_ns()
        injected = spin(started, s.injected_ns_per_batch(count)) if arm.injected else 0
        messages = [iggy.SendMessage(payload(s.bits, s.pack, seq), id=message_id)
                    for seq, message_id in zip(range(self.seq, self.seq + count), arm.fill_ids(count))]
        sent = time.perf_counter_ns()
        await bounded("SEND_MESSAGES", s.server, self.client.send_messages(STREAM, TOPIC, PARTITION, messages))
        acked = time.perf_counter_ns()
        self.seq += count
        if timed:
            arm.injected_ns += injected
            arm.batch_ns.append(acked - started)
            arm.rtt_ns.append(acked - sent)
            arm.timed_messages += count
        return started, acked


async def produce(iggy, settings):
    arms = [Arm(name, settings.messages, settings.inject_ns > 0 and i == settings.inject_arm)
            for i, name in enumerate(settings.msg_ids)]  # preset ids are minted here, before connecting
    config = iggy.TcpConfig(server_address=settings.server, nodelay=True,
                            reconnection=iggy.TcpReconnectionConfig(enabled=False))
    client = iggy.IggyClient(config)
    await bounded("the connection", settings.server, client.connect())
    await bounded("LOGIN", settings.server, client.login_user("iggy", "iggy"))
    await stream_and_topic(client, settings.server)
    sender = Sender(iggy, client, settings)
    sizes = [min(settings.batch, settings.messages - b * settings.batch) for b in range(settings.total_batches)]
    if settings.paired:
        orders = block_orders(settings.seed, len(arms))
        for b, (size, order) in enumerate(zip(sizes, orders)):
            for a in order:
                await sender.send(arms[a], size, timed=b >= settings.warmup_batches)
        result = paired_result(settings, arms)
    else:
        first = last = None
        for b, size in enumerate(sizes):
            started, acked = await sender.send(arms[0], size, timed=b >= settings.warmup_batches)
            if b == settings.warmup_batches:
                first = started
            last = acked
        result = single_result(settings, arms[0], last - first)
    await bounded("LOGOUT", settings.server, client.logout_user())
    return result


def round_trips(arm):
    """The median, p99 and p99.9 of the arm's timed round trips (send to ack, ns)."""
    rtt = sorted(arm.rtt_ns)
    return {"rtt_p50_ns": percentile(rtt, 0.5), "rtt_p99_ns": percentile(rtt, 0.99),
            "rtt_p999_ns": percentile(rtt, 0.999)}


def single_result(settings, arm, elapsed_ns):
    return {
        "sdk": SDK, "msg_id": arm.msg_id, "send_path": settings.send_path, "messages": settings.messages,
        "warmup": settings.warmup_messages, "timed_messages": arm.timed_messages,
        "elapsed_ns": elapsed_ns, "msgs_per_sec": arm.timed_messages / (elapsed_ns / 1e9),
        "injected_ns": arm.injected_ns, **round_trips(arm),
    }


def paired_result(settings, arms):
    return {
        "sdk": SDK, "paired": True, "seed": str(settings.seed), "send_path": settings.send_path,
        "messages": settings.messages, "warmup": settings.warmup_messages,
        "blocks": settings.total_batches - settings.warmup_batches,
        "arms": [{
            "msg_id": a.msg_id, "timed_messages": a.timed_messages, "elapsed_ns": sum(a.batch_ns),
            "msgs_per_sec": a.timed_messages / (sum(a.batch_ns) / 1e9), "injected_ns": a.injected_ns,
            **round_trips(a), "batch_ns": a.batch_ns,
        } for a in arms],
    }


def import_client():
    try:
        import apache_iggy
    except ImportError:
        raise RunError(f"the Python client apache-iggy is not installed; run {SETUP_COMMAND}") from None
    return apache_iggy


def main():
    try:
        settings = settings_from_env(os.environ, STRATEGIES, SEND_PATHS)
        result = asyncio.run(produce(import_client(), settings))
    except (SettingsError, RunError) as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        leave(1)
    print(json.dumps(result), flush=True)
    leave(0)


def leave(status):
    """Exits without the interpreter's shutdown: the client's Rust runtime can abort it (SIGABRT),
    after a failed connect and now and then after a complete run, so the status is ours."""
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    main()
