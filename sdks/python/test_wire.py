import pytest

from payload import payload, value_stream
from wire import SendMessagesEncoder


def test_payload_is_the_contract_formula():
    # BITS=42 keeps 6 bytes of (seq + i) ^ 0xA5A5..., masked to 42 bits.
    mask = (1 << 42) - 1
    expected = b"".join((((7 + i) ^ 0xA5A5A5A5A5A5A5A5) & mask).to_bytes(6, "little")
                        for i in range(3))
    assert payload(42, 3, 7) == expected


def test_payload_wraps_like_u64():
    top = (1 << 64) - 1
    assert payload(64, 2, top) == ((top ^ 0xA5A5A5A5A5A5A5A5).to_bytes(8, "little")
                                   + (0xA5A5A5A5A5A5A5A5).to_bytes(8, "little"))


def test_value_stream_windows_are_the_payloads():
    stream = value_stream(13, 40, 10)
    for seq in range(40, 48):
        at = (seq - 40) * 2
        assert stream[at:at + 6] == payload(13, 3, seq)


def test_a_shorter_batch_after_a_longer_one_carries_nothing_stale():
    ids = [bytes([n]) * 16 for n in range(1, 9)]
    reused = SendMessagesEncoder(9, 8, 42, 2, 5)
    reused.encode(1, 1000, 0, ids[:5])
    short = bytes(reused.encode(2, 2000, 5, ids[5:]))
    fresh = SendMessagesEncoder(9, 8, 42, 2, 5)
    assert short == bytes(fresh.encode(2, 2000, 5, ids[5:]))
    assert len(short) == 256 + 4 + 22 + 256 + 3 * (48 + 12)


def test_encode_refuses_more_than_its_capacity():
    with pytest.raises(ValueError):
        SendMessagesEncoder(9, 8, 42, 1, 2).encode(1, 0, 0, [bytes(16)] * 3)
