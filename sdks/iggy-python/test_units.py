"""The row's own parts against the shared vectors and the contract's error forms."""

import json
import os
import pathlib
from itertools import islice

import pytest

from ids import STRATEGIES, counter_ids, fast_ids, preset_ids, sdk_ids
from producer import SEND_PATHS, SettingsError, block_orders, payload, settings_from_env

VECTORS = json.loads((pathlib.Path(__file__).parent.parent / "vectors.json").read_text())
GOOD = {"SERVER": "127.0.0.1:1", "MSG_ID": "fast", "BITS": "42", "PACK": "1", "BATCH": "10",
        "MESSAGES": "100", "WARMUP": "10"}


def test_block_orders_match_the_vectors():
    for case in VECTORS["block_orders"]:
        assert list(islice(block_orders(int(case["seed"]), case["arms"]), len(case["blocks"]))) == case["blocks"], case


def test_payloads_match_the_vectors():
    for case in VECTORS["payloads"]:
        assert payload(case["bits"], case["pack"], int(case["seq"])).hex() == case["hex"], case


def ids_of(fill, *counts):
    return [value for count in counts for value in fill(count)]


def test_ids_are_what_the_api_takes():
    assert list(sdk_ids(3)(2)) == [None, None], "no id: the client mints its own"
    for fill in (fast_ids(100, pool_bytes=32), preset_ids(100), counter_ids(100, pool_bytes=32)):
        values = ids_of(fill, 1, 3, 2)
        assert len(values) == 6 and len(set(values)) == 6, "a new pool after two ids"
        assert all(type(v) is int and 0 <= v < 1 << 128 for v in values)
    preset = preset_ids(4)
    assert len(set(ids_of(preset, 3, 1))) == 4
    with pytest.raises(IndexError):
        preset(1)


def test_counter_ids_count_up():
    values = ids_of(counter_ids(10), 3, 2)
    assert values == list(range(values[0], values[0] + 5)) and values[0] % (1 << 64) == 0


@pytest.mark.parametrize("make", [fast_ids, preset_ids, counter_ids])
def test_a_forked_child_sends_none_of_its_parents_ids(make):
    fill = make(200)
    fill(3)  # a pool part used, a preset part handed out
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        status = 1
        try:
            with os.fdopen(write, "w") as out:
                out.write(" ".join(map(str, ids_of(fill, 50, 1))))
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as pipe:
        theirs = {int(value) for value in pipe.read().split()}
    assert os.waitpid(child, 0)[1] == 0
    ours = set(ids_of(fill, 50, 1))
    assert len(ours) == len(theirs) == 51
    assert not ours & theirs


def error(**changes):
    with pytest.raises(SettingsError) as e:
        settings_from_env({**GOOD, **changes}, STRATEGIES, SEND_PATHS)
    return str(e.value)


def test_an_unknown_msg_id_lists_every_name_in_the_contract_form():
    assert error(MSG_ID="md5") == f"MSG_ID=md5 is unknown; expected one of {', '.join(STRATEGIES)}"
    assert error(MSG_ID="md5") == "MSG_ID=md5 is unknown; expected one of sdk, uuid, fast, preset, counter"


def test_bad_settings_name_the_setting():
    assert error(SEND_PATH="lean").startswith("SEND_PATH=lean is unknown; expected one of faithful")
    assert error(MODE="mint").startswith("MODE=mint")
    assert error(BITS="65").startswith("BITS=65")
    for name in ("PACK", "BATCH", "MESSAGES"):
        assert error(**{name: "0"}).startswith(f"{name}=0"), name
    assert error(MESSAGES="5").startswith("MESSAGES=5 is below BATCH=10")
    assert error(WARMUP="100").startswith("WARMUP=100 leaves no timed batch")
    assert error(PAIRED="1").startswith("PAIRED=1 needs at least two arms")
    assert error(PAIRED="1", MSG_ID="sdk,fast", INJECT_ARM="2").startswith("INJECT_ARM=2")
    assert error(SERVER="").startswith("SERVER is not set")


def test_paired_settings_keep_every_arm_in_order():
    s = settings_from_env({**GOOD, "PAIRED": "1", "SEED": "7", "MSG_ID": "fast,sdk,fast", "INJECT_ARM": "2"},
                          STRATEGIES, SEND_PATHS)
    assert (s.msg_ids, s.seed, s.inject_arm, s.warmup_batches, s.total_batches) == (("fast", "sdk", "fast"), 7, 2, 1, 10)
