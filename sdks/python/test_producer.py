import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import connection
import producer
from blocks import block_orders
from fake_sink import FakeSink

PRODUCER = Path(__file__).resolve().parent / "producer.py"
GOOD = {"MSG_ID": "fast", "BITS": "13", "PACK": "3", "BATCH": "100", "MESSAGES": "2050",
        "WARMUP": "150"}


def run_producer(server, **overrides):
    env = dict(os.environ, SERVER=server, **GOOD)
    env.update(overrides)
    return subprocess.run([sys.executable, str(PRODUCER)], env=env, capture_output=True,
                          text=True, timeout=30)


def free_port():
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


@pytest.mark.parametrize("msg_id", ["uuid", "fast", "mt", "preset", "counter"])
def test_sends_every_message_once_in_order_and_prints_the_result(msg_id):
    sink = FakeSink(bits=13, pack=3)
    finished = run_producer(sink.server, MSG_ID=msg_id)
    sink.join()
    assert finished.returncode == 0, finished.stderr
    assert sink.problems == []
    assert sink.next_seq == 2050
    assert len(set(sink.message_ids)) == 2050
    # login, 21 batches (the last one of 50), logout
    assert sink.operations == [1] + [160] * 21 + [3]
    result = json.loads(finished.stdout)
    assert finished.stdout.count("\n") == 1
    assert list(result) == ["sdk", "msg_id", "send_path", "messages", "warmup", "timed_messages",
                            "elapsed_ns", "msgs_per_sec", "injected_ns", "rtt_p50_ns",
                            "rtt_p99_ns", "rtt_p999_ns"]
    assert (result["sdk"], result["msg_id"], result["send_path"]) == ("python", msg_id, "lean")
    assert (result["messages"], result["warmup"], result["timed_messages"]) == (2050, 200, 1850)
    assert result["msgs_per_sec"] == pytest.approx(1850 * 1e9 / result["elapsed_ns"])
    assert result["injected_ns"] == 0
    assert 0 < result["rtt_p50_ns"] <= result["rtt_p99_ns"] <= result["rtt_p999_ns"]


def is_uuid4(message_id):
    """A UUIDv4's version and variant bits, where uuid.int.to_bytes(16, "little") puts them."""
    return message_id[9] & 0xF0 == 0x40 and message_id[7] & 0xC0 == 0x80


def test_paired_run_sends_each_block_in_the_seeds_order():
    """Three arms on one connection: the sink sees every block's batches in the seed's order
    (only the `uuid` arms' IDs are UUIDv4s), numbered in send order; the line has each arm's
    figures and round trips, and the injected arm alone its measured spin."""
    seed, arms = 12345678901234567890, ["uuid", "fast", "uuid"]
    sink = FakeSink(bits=13, pack=3)
    finished = run_producer(sink.server, MSG_ID=",".join(arms), PAIRED="1", SEED=str(seed),
                            INJECT_NS="20000", INJECT_ARM="1")
    sink.join()
    assert finished.returncode == 0, finished.stderr
    assert sink.problems == [] and sink.next_seq == 3 * 2050
    result = json.loads(finished.stdout)
    assert list(result) == ["sdk", "paired", "seed", "send_path", "messages", "warmup", "blocks",
                            "arms"]
    assert [result[key] for key in list(result)[:7]] == [
        "python", True, str(seed), "lean", 2050, 200, 19]

    expected, seq = [], 0
    for block, order in zip(range(21), block_orders(seed, 3)):
        for arm in order:
            count = 50 if block == 20 else 100
            expected.append((count, seq, arms[arm] == "uuid"))
            seq += count
    assert [(count, first, all(map(is_uuid4, ids))) for count, first, ids in sink.batches] == expected

    assert [arm["msg_id"] for arm in result["arms"]] == arms
    for index, arm in enumerate(result["arms"]):
        assert list(arm) == ["msg_id", "timed_messages", "elapsed_ns", "msgs_per_sec",
                             "injected_ns", "rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "batch_ns"]
        assert arm["timed_messages"] == 1850 and len(arm["batch_ns"]) == 19
        assert arm["elapsed_ns"] == sum(arm["batch_ns"])
        # A round trip is part of its batch's time, so none exceeds the arm's longest batch.
        assert 0 < arm["rtt_p50_ns"] <= arm["rtt_p99_ns"] <= arm["rtt_p999_ns"] <= max(
            arm["batch_ns"])
        if index == 1:
            assert 1850 * 20000 <= arm["injected_ns"] <= arm["elapsed_ns"]
        else:
            assert arm["injected_ns"] == 0


def test_one_arm_injection_is_measured_inside_the_window():
    sink = FakeSink(bits=13, pack=3)
    # A decimal INJECT_NS: each batch spins its count times it, to the nearest ns.
    finished = run_producer(sink.server, INJECT_NS="10000.5")
    sink.join()
    assert finished.returncode == 0, finished.stderr
    result = json.loads(finished.stdout)
    assert 1850 * 10000.5 <= result["injected_ns"] <= result["elapsed_ns"]


def test_inject_ns_is_a_decimal_spun_to_the_nearest_ns_per_batch():
    env = dict(GOOD, SERVER="127.0.0.1:1", INJECT_NS="1.45")
    s = producer.settings_from_env(env, producer.STRATEGIES, producer.SEND_PATHS)
    assert (s.inject_ns, s.injected_ns_per_batch(1000), s.injected_ns_per_batch(1)) == (1.45, 1450, 1)
    # A half rounds away from zero, as the other rows round (not to even).
    assert producer.settings_from_env(dict(env, INJECT_NS="0.25"), producer.STRATEGIES,
                                      producer.SEND_PATHS).injected_ns_per_batch(2) == 1


def test_unknown_msg_id_lists_the_accepted_names():
    finished = run_producer("127.0.0.1:1", MSG_ID="guid")
    assert finished.stderr == "error: MSG_ID=guid is unknown; expected one of uuid, fast, mt, preset, counter\n"


@pytest.mark.parametrize("overrides, named", [
    ({"MSG_ID": "nope"}, "MSG_ID"),
    ({"BITS": "0"}, "BITS"),
    ({"BITS": "65"}, "BITS"),
    ({"BITS": "x"}, "BITS"),
    ({"PACK": "0"}, "PACK"),
    ({"BATCH": "0"}, "BATCH"),
    ({"MESSAGES": "0"}, "MESSAGES"),
    ({"MESSAGES": "99"}, "MESSAGES"),
    ({"WARMUP": "2001"}, "no timed batch"),  # 21 batches of 100 cover all 2050
    ({"WARMUP": ""}, "WARMUP"),
    ({"SERVER": "localhost"}, "SERVER"),
    ({"SEND_PATH": "faithful"}, "SEND_PATH=faithful is unknown; expected one of lean"),
    ({"PAIRED": "2"}, "PAIRED"),
    ({"PAIRED": "1"}, "PAIRED=1 needs at least two arms"),
    ({"PAIRED": "1", "MSG_ID": "fast,nope"}, "MSG_ID=nope is unknown"),
    ({"PAIRED": "1", "MSG_ID": "fast,uuid", "SEED": "18446744073709551616"}, "SEED"),
    ({"PAIRED": "1", "MSG_ID": "fast,uuid", "SEED": "-1"}, "SEED"),
    ({"PAIRED": "1", "MSG_ID": "fast,uuid", "INJECT_ARM": "2"}, "INJECT_ARM=2"),
    ({"INJECT_ARM": "1"}, "INJECT_ARM=1"),
    ({"INJECT_NS": "-1"}, "INJECT_NS=-1 is not a decimal number of ns in 0..=1000000000"),
    ({"INJECT_NS": "abc"}, "INJECT_NS=abc is not a decimal"),
    ({"INJECT_NS": "1e3"}, "INJECT_NS=1e3 is not a decimal"),
    ({"INJECT_NS": "1.2.3"}, "INJECT_NS=1.2.3 is not a decimal"),
    ({"INJECT_NS": "1000000000.5"}, "INJECT_NS=1000000000.5 is not a decimal"),
])
def test_bad_setting_is_one_error_line(overrides, named):
    finished = run_producer("127.0.0.1:1", **overrides)
    assert finished.returncode != 0
    assert finished.stdout == ""
    assert finished.stderr.startswith("error: ") and finished.stderr.count("\n") == 1
    assert named in finished.stderr


@pytest.mark.parametrize("misbehave, said", [
    (None, "cannot connect"),
    ("close_after_login", "closed the connection"),
    ("status_on_send", "replied status 3"),
])
def test_server_failure_is_one_error_line(misbehave, said):
    if misbehave is None:
        server, sink = f"127.0.0.1:{free_port()}", None
    else:
        sink = FakeSink(misbehave, bits=13, pack=3)
        server = sink.server
    finished = run_producer(server)
    if sink:
        sink.join()
    assert finished.returncode != 0
    assert finished.stdout == ""
    assert finished.stderr.startswith("error: ") and finished.stderr.count("\n") == 1
    assert said in finished.stderr and server in finished.stderr


def test_a_silent_server_is_not_waited_on_forever(monkeypatch, capsys):
    monkeypatch.setattr(connection, "TIMEOUT_SECONDS", 0.3)
    # Connections complete in the kernel's backlog, but nothing ever answers.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        server = "127.0.0.1:%d" % silent.getsockname()[1]
        monkeypatch.setattr(os, "environ", dict(SERVER=server, **GOOD))
        assert producer.main() == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no reply to request 0 within 0.3 s" in captured.err


def test_a_missing_package_is_one_error_line_naming_the_setup_command(monkeypatch, capsys):
    # Without the site packages, the wire format's xxhash is missing as the producer loads...
    env = dict(os.environ, SERVER="127.0.0.1:1", **GOOD)
    out = subprocess.run([sys.executable, "-S", str(PRODUCER)], env=env, capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == "error: the Python producer needs the package xxhash; run sdks/python/setup.sh\n"

    # ... and `fast`'s cryptography where its minter is made.
    def without_cryptography(*_):
        raise ModuleNotFoundError("No module named 'cryptography'", name="cryptography")

    monkeypatch.setattr(producer, "make_minter", without_cryptography)
    monkeypatch.setattr(os, "environ", dict(SERVER="127.0.0.1:1", **GOOD))
    assert producer.main() == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "error: the Python producer needs the package cryptography; run sdks/python/setup.sh\n"
