"""The Python producer of the SDK contract (../README.md): sends MESSAGES messages to the sink at
SERVER with IDs from the MSG_ID strategy and prints one JSON result line."""

import json
import math
import os
import sys
import time

from connection import Connection, ServerError
from mint import make_mint
from settings import SettingsError, settings_from_env
from wire import (OP_LOGIN, OP_LOGOUT, OP_SEND_MESSAGES, SendMessagesEncoder, encode_login,
                  encode_logout, login_session)

SDK = "python"


def random_nonzero_u128():
    while True:
        value = int.from_bytes(os.urandom(16), "little")
        if value:
            return value


def percentile(sorted_values, fraction):
    """Nearest-rank percentile: the smallest value with at least `fraction` of values at or
    below it."""
    rank = max(math.ceil(fraction * len(sorted_values)), 1)
    return sorted_values[rank - 1]


def run(settings):
    # Before connecting, so `preset` mints the whole run outside the timed window.
    mint = make_mint(settings.msg_id, settings.messages)
    connection = Connection(settings.host, settings.port, settings.server)
    try:
        return _produce(connection, settings, mint)
    finally:
        connection.close()


def _produce(connection, settings, mint):
    client = random_nonzero_u128()
    reply = connection.request(encode_login(client, random_nonzero_u128()), 0, OP_LOGIN)
    session = login_session(reply) if len(reply) >= 16 else 0
    if session == 0:
        raise ServerError(f"server {settings.server} sent a login reply without a session")
    encoder = SendMessagesEncoder(client, session, settings.bits, settings.pack, settings.batch)
    clock, wall_clock = time.perf_counter_ns, time.time_ns
    request, seq, messages, batch = 1, 0, settings.messages, settings.batch

    def send_batch():
        nonlocal request, seq
        count = min(batch, messages - seq)
        frame = encoder.encode(request, wall_clock() // 1000, seq, count, mint)
        sent = clock()
        connection.request(frame, request, OP_SEND_MESSAGES)
        acked = clock()
        request += 1
        seq += count
        return sent, acked

    for _ in range(settings.warmup_batches):
        send_batch()
    # Like the Rust reference, the window opens before the first timed batch is built.
    started = clock()
    round_trips = []
    while seq < messages:
        sent, acked = send_batch()
        round_trips.append(acked - sent)

    connection.request(encode_logout(client, request, session), request, OP_LOGOUT)
    return _result(settings, acked - started, sorted(round_trips))


def _result(settings, elapsed_ns, round_trips):
    timed = settings.messages - settings.warmup_messages
    return {
        "sdk": SDK,
        "msg_id": settings.msg_id,
        "messages": settings.messages,
        "warmup": settings.warmup_messages,
        "timed_messages": timed,
        "elapsed_ns": elapsed_ns,
        "msgs_per_sec": timed * 1e9 / elapsed_ns,
        "rtt_p50_ns": percentile(round_trips, 0.50),
        "rtt_p99_ns": percentile(round_trips, 0.99),
        "rtt_p999_ns": percentile(round_trips, 0.999),
    }


def main():
    try:
        result = run(settings_from_env(os.environ))
    except (SettingsError, ServerError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
