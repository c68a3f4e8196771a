"""The contract's payloads (../README.md, "The bytes"): message `seq` carries PACK values, value `i`
being ((seq + i) XOR 0xA5A5A5A5A5A5A5A5) masked to BITS bits, in ceil(BITS/8) little-endian bytes.
The iggy-python row builds its payloads here too."""

PAYLOAD_PATTERN = 0xA5A5A5A5A5A5A5A5


def value_bytes(bits):
    return (bits + 7) // 8


def value_stream(bits, first_seq, count):
    """Values first_seq .. first_seq+count-1 of the contract's payload sequence, back to back.
    Message `seq`'s payload is the PACK values from `seq`, so a batch's payloads are overlapping
    windows of one stream. The mask keeps only low bits, so (seq+i) need not be wrapped first."""
    width = value_bytes(bits)
    mask = (1 << bits) - 1
    return b"".join(((seq ^ PAYLOAD_PATTERN) & mask).to_bytes(width, "little")
                    for seq in range(first_seq, first_seq + count))


def payload(bits, pack, seq):
    """The payload of message `seq`."""
    return value_stream(bits, seq, pack)
