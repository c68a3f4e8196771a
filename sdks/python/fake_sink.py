"""A one-connection stand-in for the Rust sink, for the producer's tests: it decodes every request
independently of wire.py, checks what it can, and can misbehave on purpose."""

import socket
import struct
import threading

import xxhash

X = 0xA5A5A5A5A5A5A5A5
SESSION = 0x1122334455667788


class FakeSink:
    """Serves one producer connection on 127.0.0.1. `misbehave` is None, "close_after_login" or
    "status_on_send"; `problems` lists whatever the producer got wrong."""

    def __init__(self, misbehave=None, bits=42, pack=1):
        self.misbehave = misbehave
        self.bits, self.pack = bits, pack
        self.operations, self.message_ids, self.problems = [], [], []
        self.batches = []  # (message count, sequence number of the first, its IDs) per batch
        self.next_seq = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.server = "127.0.0.1:%d" % self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def join(self):
        self._thread.join(timeout=10)
        self._listener.close()

    def _serve(self):
        connection, _ = self._listener.accept()
        with connection:
            connection.settimeout(10)
            while True:
                header = _receive(connection, 256)
                if header is None:
                    return
                size, = struct.unpack_from("<I", header, 48)
                body = _receive(connection, size - 256)
                request, = struct.unpack_from("<Q", header, 168)
                operation = header[176]
                self.operations.append(operation)
                reply_body, status = self._handle(header, body, operation)
                if self.misbehave == "close_after_login" and operation == 160:
                    return
                if self.misbehave == "status_on_send" and operation == 160:
                    status, reply_body = 3, b""
                reply = bytearray(256)
                struct.pack_into("<I", reply, 48, 256 + len(reply_body))
                reply[60] = 8
                struct.pack_into("<Q", reply, 200, request)
                reply[208] = operation
                struct.pack_into("<I", reply, 216, status)
                connection.sendall(bytes(reply) + reply_body)
                if operation == 3:
                    return

    def _handle(self, header, body, operation):
        if operation == 1:
            return struct.pack("<IIQI", 0, 1, SESSION, 0x3002) + b"\x050.1.0", 0
        if struct.unpack_from("<Q", header, 184)[0] != SESSION:
            self.problems.append("request without the login session")
        if operation == 160:
            self._check_batch(body)
        return b"", 0

    def _check_batch(self, body):
        count, = struct.unpack_from("<I", body, 22)
        batch = body[26:282]
        origin, batch_length, batch_checksum = struct.unpack_from("<QQQ", batch, 24)
        width = (self.bits + 7) // 8
        frame_length = 48 + self.pack * width
        if batch_length != 256 + count * frame_length:
            self.problems.append(f"batch_length {batch_length} for {count} messages")
        sums = []
        first_seq, first_id = self.next_seq, len(self.message_ids)
        for index in range(count):
            frame = body[282 + index * frame_length:282 + (index + 1) * frame_length]
            checksum, message_id, offset_delta = struct.unpack_from("<Q16sI", frame)
            sums.append(checksum)
            self.message_ids.append(message_id)
            if checksum != xxhash.xxh3_64_intdigest(frame[8:]):
                self.problems.append(f"bad checksum on message {self.next_seq}")
            if offset_delta != index:
                self.problems.append(f"offset_delta {offset_delta} at index {index}")
            mask = (1 << self.bits) - 1
            expected = b"".join((((self.next_seq + i) ^ X) & mask).to_bytes(width, "little")
                                for i in range(self.pack))
            if frame[48:] != expected:
                self.problems.append(f"payload of message {self.next_seq}")
            self.next_seq += 1
        self.batches.append((count, first_seq, self.message_ids[first_id:]))
        summed = struct.pack("<QQQQQI", 0, 0, 0, origin, batch_length, count)
        summed += struct.pack(f"<{count}Q", *sums)
        if batch_checksum != xxhash.xxh3_64_intdigest(summed):
            self.problems.append("bad batch checksum")


def _receive(connection, length):
    data = b""
    while len(data) < length:
        chunk = connection.recv(length - len(data))
        if not chunk:
            return None
        data += chunk
    return data
