import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import connection
import producer
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


@pytest.mark.parametrize("msg_id", ["uuid", "fast", "mt", "preset"])
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
    assert result["sdk"] == "python" and result["msg_id"] == msg_id
    assert (result["messages"], result["warmup"], result["timed_messages"]) == (2050, 200, 1850)
    assert result["msgs_per_sec"] == pytest.approx(1850 * 1e9 / result["elapsed_ns"])
    assert 0 < result["rtt_p50_ns"] <= result["rtt_p99_ns"] <= result["rtt_p999_ns"]


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


def test_percentile_is_nearest_rank():
    values = list(range(1, 1001))
    assert producer.percentile(values, 0.5) == 500
    assert producer.percentile(values, 0.99) == 990
    assert producer.percentile(values, 0.999) == 999
    assert producer.percentile([7], 0.999) == 7
