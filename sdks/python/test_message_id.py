import pytest

from message_id import MessageIdError, serialize_message_id

MAX = (1 << 128) - 1


@pytest.mark.parametrize("value, expected", [
    (0, bytes(16)),
    (1, b"\x01" + bytes(15)),
    (0x0102, b"\x02\x01" + bytes(14)),
    (MAX, b"\xff" * 16),
    ("0", bytes(16)),
    ("258", b"\x02\x01" + bytes(14)),
    (str(MAX), b"\xff" * 16),
    (bytes(range(16)), bytes(range(16))),
    (bytearray(range(16)), bytes(range(16))),
])
def test_serializes_little_endian(value, expected):
    assert serialize_message_id(value) == expected


@pytest.mark.parametrize("value, kind", [
    (-1, "negative"),
    ("-1", "negative"),
    (-1.0, "negative"),
    (MAX + 1, "too_large"),
    (str(MAX + 1), "too_large"),
    (1e40, "too_large"),
    (1.5, "not_integer"),
    ("1.5", "invalid"),
    ("1e3", "invalid"),
    (5.0, "invalid"),
    (float("nan"), "invalid"),
    (float("inf"), "invalid"),
    (True, "invalid"),
    (False, "invalid"),
    (None, "invalid"),
    ("", "invalid"),
    (" 1", "invalid"),
    ("1_000", "invalid"),
    ("+1", "invalid"),
    ("0x10", "invalid"),
    ("\u0661", "invalid"),  # an Arabic-Indic digit one, which int() would accept
    ("abc", "invalid"),
    (bytes(15), "invalid"),
    (bytes(17), "invalid"),
])
def test_rejects_with_kind(value, kind):
    with pytest.raises(MessageIdError) as raised:
        serialize_message_id(value)
    assert raised.value.kind == kind


def test_error_names_the_input_and_the_bound():
    with pytest.raises(MessageIdError, match=r"'-7'.*0 <= id < 2\^128"):
        serialize_message_id("-7")
