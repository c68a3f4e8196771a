"""Turns a caller's message ID (int, decimal string or 16 bytes) into the 16 little-endian bytes
Iggy puts on the wire, refusing anything it would otherwise have to truncate or guess."""

import math
import re

ID_BYTES = 16
ID_LIMIT = 1 << 128
BOUND = "0 <= id < 2^128"

# Digits only: int() alone would also take signs, spaces, underscores and non-ASCII digits.
_DECIMAL = re.compile(r"[0-9]+", re.ASCII)
_SIGNED_DECIMAL = re.compile(r"-[0-9]+", re.ASCII)


class MessageIdError(ValueError):
    """Raised for an ID that cannot be a message ID; `kind` is negative, too_large, not_integer
    or invalid."""

    def __init__(self, kind, value, reason):
        super().__init__(f"message id {value!r} {reason}; a message id must be {BOUND}")
        self.kind = kind


def serialize_message_id(value):
    """Returns the 16 little-endian bytes of `value`, or raises MessageIdError."""
    # bool is an int subclass, but True as an ID is a caller's mistake, not the number 1.
    if isinstance(value, bool):
        raise MessageIdError("invalid", value, "is a bool")
    if isinstance(value, int):
        return _checked_int_bytes(value, value)
    if isinstance(value, float):
        _reject_float(value)
    if isinstance(value, str):
        return _decimal_bytes(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        if len(raw) != ID_BYTES:
            raise MessageIdError("invalid", value, f"has {len(raw)} bytes, not {ID_BYTES}")
        return raw
    raise MessageIdError("invalid", value, f"is a {type(value).__name__}")


def _reject_float(number):
    # Always raises: a float cannot carry 128 exact bits, so even 5.0 would hide a rounding.
    if not math.isfinite(number):
        raise MessageIdError("invalid", number, "is not a finite number")
    if number < 0:
        raise MessageIdError("negative", number, "is negative")
    if not number.is_integer():
        raise MessageIdError("not_integer", number, "is not an integer")
    if number >= ID_LIMIT:
        raise MessageIdError("too_large", number, "is too large")
    raise MessageIdError("invalid", number, "is a float, which cannot carry 128 exact bits")


def _decimal_bytes(text):
    if _DECIMAL.fullmatch(text):
        return _checked_int_bytes(int(text), text)
    if _SIGNED_DECIMAL.fullmatch(text):
        raise MessageIdError("negative", text, "is negative")
    raise MessageIdError("invalid", text, "is not a decimal integer")


def _checked_int_bytes(number, shown):
    if number < 0:
        raise MessageIdError("negative", shown, "is negative")
    if number >= ID_LIMIT:
        raise MessageIdError("too_large", shown, "is too large")
    return number.to_bytes(ID_BYTES, "little")
