"""One TCP connection to an Iggy server: one request in flight, every wait bounded."""

import socket

from wire import COMMAND_REPLY, HEADER_BYTES, ReplyHeader

TIMEOUT_SECONDS = 10


class ServerError(Exception):
    """The server could not be reached, stopped answering, closed, or refused a request."""


class Connection:
    def __init__(self, host, port, server):
        self._server = server
        try:
            self._socket = socket.create_connection((host, port), timeout=TIMEOUT_SECONDS)
        except OSError as error:
            raise ServerError(f"cannot connect to server {server}: {_reason(error)}") from None
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._header = bytearray(HEADER_BYTES)
        self._header_view = memoryview(self._header)

    def request(self, frame, request, operation):
        """Sends `frame` and returns the body of its successful reply."""
        try:
            self._socket.sendall(frame)
            self._receive_into(self._header_view)
            reply = ReplyHeader(self._header)
            body = bytearray(max(reply.size - HEADER_BYTES, 0))
            self._receive_into(memoryview(body))
        except TimeoutError:
            raise ServerError(
                f"server {self._server} sent no reply to request {request} within "
                f"{TIMEOUT_SECONDS} s") from None
        except OSError as error:
            raise ServerError(f"connection to server {self._server} failed mid-run: "
                              f"{_reason(error)}") from None
        echoed = (reply.command, reply.request, reply.operation)
        if echoed != (COMMAND_REPLY, request, operation):
            raise ServerError(
                f"server {self._server} answered request {request} (operation {operation}) with "
                f"command {reply.command}, request {reply.request}, operation {reply.operation}")
        if reply.status != 0:
            raise ServerError(f"server {self._server} replied status {reply.status} to request "
                              f"{request} (operation {operation})")
        return body

    def close(self):
        self._socket.close()

    def _receive_into(self, view):
        receive_into = self._socket.recv_into
        while view:
            received = receive_into(view)
            if received == 0:
                raise ServerError(f"server {self._server} closed the connection mid-run")
            view = view[received:]


def _reason(error):
    return error.strerror or str(error) or type(error).__name__
