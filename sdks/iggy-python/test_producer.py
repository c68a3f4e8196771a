"""The released Python client against the real sink: every message of every arm arrives exactly
once and in order, and failures are one error line."""

import json
import os
import pathlib
import re
import signal
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
HARNESS = os.environ.get("HARNESS", str(HERE.parent.parent / "target" / "release" / "harness"))
SETTINGS = {"BITS": "42", "PACK": "3", "BATCH": "250", "MESSAGES": "5000", "WARMUP": "500"}


class Sink:
    """A verifying sink on a free loopback port; `stop()` ends it and returns its log lines."""

    def __init__(self, *flags):
        if not os.access(HARNESS, os.X_OK):
            pytest.fail(f"no sink at {HARNESS}: build it with `cargo build --release -p harness`")
        self.process = subprocess.Popen([HARNESS, "sink", "--listen", "127.0.0.1:0", "--bits", "42", "--pack", "3", *flags],
                                        stderr=subprocess.PIPE, text=True)
        first = self.process.stderr.readline()
        address = re.search(r"listening on (127\.0\.0\.1:\d+)", first)
        self.address = address and address.group(1)
        self.log = None
        assert self.address, first

    def stop(self):
        if self.log is None:
            self.process.send_signal(signal.SIGINT)
            self.log = self.process.communicate(timeout=10)[1].splitlines()
        return self.log


@pytest.fixture
def sink():
    s = Sink()
    yield s
    s.stop()


def produce(server, python=(sys.executable,), **env):
    return subprocess.run([*python, str(HERE / "producer.py")], env={**os.environ, "SERVER": server, **SETTINGS, **env},
                          capture_output=True, text=True, timeout=60)


def result_of(out):
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 1, out.stdout
    return json.loads(lines[0])


def totals(log):
    line = next(l for l in log if l.startswith("sink: totals "))
    return json.loads(line[len("sink: totals "):])


def test_every_arm_delivers_each_message_exactly_once(sink):
    for msg_id in ("sdk", "fast", "preset", "counter"):
        r = result_of(produce(sink.address, MSG_ID=msg_id))
        assert (r["sdk"], r["msg_id"], r["send_path"]) == ("iggy-python", msg_id, "faithful")
        assert (r["messages"], r["warmup"], r["timed_messages"]) == (5000, 500, 4500)
        assert r["rtt_p50_ns"] <= r["rtt_p99_ns"] <= r["rtt_p999_ns"]
    paired = result_of(produce(sink.address, PAIRED="1", SEED="7", MSG_ID="sdk,fast", INJECT_NS="2000", INJECT_ARM="1"))
    assert (paired["paired"], paired["seed"], paired["blocks"]) == (True, "7", 18)
    assert [a["msg_id"] for a in paired["arms"]] == ["sdk", "fast"]
    assert all(len(a["batch_ns"]) == 18 and a["timed_messages"] == 4500 for a in paired["arms"])
    # Each arm's round trips, beside injected_ns, lie inside its batches' times.
    assert all(list(a)[4:9] == ["injected_ns", "rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "batch_ns"]
               and 0 < a["rtt_p50_ns"] <= a["rtt_p99_ns"] <= a["rtt_p999_ns"] <= max(a["batch_ns"])
               for a in paired["arms"])
    assert paired["arms"][0]["injected_ns"] == 0 and paired["arms"][1]["injected_ns"] >= 4500 * 2000
    log = sink.stop()
    t = totals(log)
    assert (t["connections"], t["messages"], t["duplicates"], t["gaps"], t["unexpected_payloads"]) == (5, 30000, 0, 0, 0), t
    assert (t["rejected_frames"], t["checksum_failures"]) == (0, 0), t
    closed = sorted(line.split(" closed after ")[1] for line in log if " closed after " in line)
    assert closed == ["10000 messages"] + ["5000 messages"] * 4, log


def test_a_foreign_payload_is_refused_with_a_payload_error_and_one_sink_line(sink):
    out = produce(sink.address, MSG_ID="fast", PACK="1")
    assert out.returncode == 1 and out.stdout == ""
    assert re.fullmatch(r"error: SERVER=\S+ refused SEND_MESSAGES: Invalid message payload length\n", out.stderr), out.stderr
    log = sink.stop()
    explained = [line for line in log if "--no-verify" in line]
    assert len(explained) == 1 and "6 bytes is not the contract's" in explained[0] and "is 18 bytes of BITS=42 PACK=3" in explained[0], log


def test_an_unverified_sink_counts_what_the_client_delivered():
    sink = Sink("--no-verify")
    try:
        result_of(produce(sink.address, MSG_ID="sdk", PACK="1"))
    finally:
        log = sink.stop()
    assert totals(log)["messages"] == 5000
    assert any(line.endswith(" closed after 5000 messages") for line in log), log


def test_a_missing_client_names_the_setup_command(sink):
    out = produce(sink.address, python=(sys.executable, "-S"), MSG_ID="sdk")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == "error: the Python client apache-iggy is not installed; run sdks/iggy-python/setup.sh\n"


def test_a_refused_connection_is_one_error_line():
    out = produce("127.0.0.1:1", MSG_ID="fast")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("error: SERVER=127.0.0.1:1 ") and out.stderr.count("\n") == 1, out.stderr
