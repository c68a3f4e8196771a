"""The Python producer of the SDK contract (../README.md): sends MESSAGES messages per arm to the
sink at SERVER with IDs from the MSG_ID strategies and prints one JSON result line. One arm, or
with PAIRED=1 several arms on one connection, taking turns block by block."""

import json
import os
import sys
import time

SETUP_COMMAND = "sdks/python/setup.sh"


def missing_package(error):
    """The one error line for a package of requirements.txt that is not installed."""
    return f"error: the Python producer needs the package {error.name}; run {SETUP_COMMAND}"


try:
    from blocks import block_orders
    from connection import Connection, ServerError
    from mint import STRATEGIES, make_minter
    from settings import SettingsError, settings_from_env
    from timing import clock, percentile, spin
    from wire import (OP_LOGIN, OP_LOGOUT, OP_SEND_MESSAGES, SendMessagesEncoder, encode_login,
                      encode_logout, login_session)
except ModuleNotFoundError as missing:  # the wire format's xxhash
    sys.exit(missing_package(missing))

SDK = "python"
# Only our lean producer lives here; the real Python client is its own row (sdks/iggy-python).
SEND_PATHS = ("lean",)


def random_nonzero_u128():
    while True:
        value = int.from_bytes(os.urandom(16), "little")
        if value:
            return value


def run(settings):
    # Before connecting, so `preset` arms mint all their IDs before the first batch.
    minters = [make_minter(name, settings.messages) for name in settings.msg_ids]
    connection = Connection(settings.host, settings.port, settings.server)
    try:
        return _produce(connection, settings, minters)
    finally:
        connection.close()


class _Sender:
    """The connection's running request and sequence numbers; sends one batch at a time."""

    def __init__(self, connection, encoder, settings):
        self.connection, self.encoder, self.settings = connection, encoder, settings
        self.request, self.seq = 1, 0

    def count(self, batch):
        """Messages in batch (or block) `batch`: the last may be shorter."""
        return min(self.settings.batch, self.settings.messages - batch * self.settings.batch)

    def send(self, arm, count, minter, started=None):
        """Injects the arm's work if it has some, builds and sends one batch, its IDs from one
        fill of `minter`, that started at `started` (None: now, the clock read only when there is
        work to inject); returns the injected work's measured ns and the clock at the send."""
        settings = self.settings
        injected = spin(clock() if started is None else started, settings.injected_ns_per_batch(count)) if (
            settings.inject_ns and arm == settings.inject_arm) else 0
        frame = self.encoder.encode(self.request, time.time_ns() // 1000, self.seq,
                                    minter.fill(count))
        sent = clock()
        self.connection.request(frame, self.request, OP_SEND_MESSAGES)
        self.request += 1
        self.seq += count
        return injected, sent


def _produce(connection, settings, minters):
    client = random_nonzero_u128()
    reply = connection.request(encode_login(client, random_nonzero_u128()), 0, OP_LOGIN)
    session = login_session(reply) if len(reply) >= 16 else 0
    if session == 0:
        raise ServerError(f"server {settings.server} sent a login reply without a session")
    encoder = SendMessagesEncoder(client, session, settings.bits, settings.pack, settings.batch)
    sender = _Sender(connection, encoder, settings)
    result = _paired(sender, settings, minters) if settings.paired else _one_arm(sender, settings,
                                                                                 minters[0])
    connection.request(encode_logout(client, sender.request, session), sender.request, OP_LOGOUT)
    return result


def _one_arm(sender, settings, minter):
    for batch in range(settings.warmup_batches):
        sender.send(0, sender.count(batch), minter)
    # Like the Rust reference, the window opens before the first timed batch is built.
    started = clock()
    round_trips, injected_ns = [], 0
    for batch in range(settings.warmup_batches, settings.total_batches):
        injected, sent = sender.send(0, sender.count(batch), minter)
        round_trips.append(clock() - sent)
        injected_ns += injected
    elapsed_ns = clock() - started
    return {
        "sdk": SDK,
        "msg_id": settings.msg_ids[0],
        "send_path": settings.send_path,
        "messages": settings.messages,
        "warmup": settings.warmup_messages,
        **_figures(settings, elapsed_ns, injected_ns),
        **_round_trips(round_trips),
    }


def _paired(sender, settings, minters):
    batch_ns = [[] for _ in minters]
    round_trips = [[] for _ in minters]
    injected_ns = [0 for _ in minters]
    orders = block_orders(settings.seed, len(minters))
    for block in range(settings.total_batches):
        count = sender.count(block)
        timed = block >= settings.warmup_batches
        for arm in next(orders):
            started = clock()
            injected, sent = sender.send(arm, count, minters[arm], started)
            acked = clock()
            if timed:
                batch_ns[arm].append(acked - started)
                round_trips[arm].append(acked - sent)
                injected_ns[arm] += injected
    return {
        "sdk": SDK,
        "paired": True,
        "seed": str(settings.seed),
        "send_path": settings.send_path,
        "messages": settings.messages,
        "warmup": settings.warmup_messages,
        "blocks": settings.total_batches - settings.warmup_batches,
        "arms": [{"msg_id": name, **_figures(settings, sum(times), injected),
                  **_round_trips(trips), "batch_ns": times}
                 for name, times, injected, trips in zip(settings.msg_ids, batch_ns, injected_ns,
                                                         round_trips)],
    }


def _figures(settings, elapsed_ns, injected_ns):
    timed = settings.messages - settings.warmup_messages
    return {
        "timed_messages": timed,
        "elapsed_ns": elapsed_ns,
        "msgs_per_sec": timed * 1e9 / elapsed_ns,
        "injected_ns": injected_ns,
    }


def _round_trips(round_trips):
    """The median, p99 and p99.9 of timed round trips (send to ack, ns), one arm's or the run's."""
    ordered = sorted(round_trips)
    return {
        "rtt_p50_ns": percentile(ordered, 0.50),
        "rtt_p99_ns": percentile(ordered, 0.99),
        "rtt_p999_ns": percentile(ordered, 0.999),
    }


def main():
    try:
        result = run(settings_from_env(os.environ, STRATEGIES, SEND_PATHS))
    except (SettingsError, ServerError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as missing:  # `fast`'s cryptography, imported when it is made
        print(missing_package(missing), file=sys.stderr)
        return 1
    print(json.dumps(result, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
