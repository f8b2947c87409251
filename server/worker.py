"""The gunicorn worker: gthread whose threads only ever get requests that have fully arrived.

gunicorn's ``gthread`` worker hands a new connection to a pool thread at once; the thread waits up
to 5 s for its first bytes and then reads the request with blocking reads, so idle connections and
clients that trickle their request a byte at a time each hold a thread, and a few dozen of them
stall the worker. Here the worker's poller (its main thread, no pool thread) reads each request's
head, and its body when it has a Content-Length up to ``MAX_PREREAD`` bytes, without blocking;
only a complete request goes to the pool. A request that has not fully arrived within
``serve.REQUEST_READ_TIMEOUT`` seconds is dropped, and so is a head over ``MAX_HEAD`` bytes.
Chunked or larger bodies are read by the thread, under the same deadline. Writing the answer is not
limited (a slow reader holds a thread only while the kernel's socket buffer is full).
"""
from __future__ import annotations

import json
import re
import selectors
import socket
import time
from collections import deque
from functools import partial

from gunicorn import util as gunicorn_util
from gunicorn.workers import base as gunicorn_base
from gunicorn.workers.gthread import ThreadWorker

from server import serve

MAX_HEAD = 64 << 10
MAX_PREREAD = 2 << 20
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d{1,12})[ \t]*\r\n", re.IGNORECASE)


class _Buffered:
    """A client socket with bytes read ahead by the poller, and a deadline for blocking reads."""

    __slots__ = ("_sock", "prefix", "deadline", "started")

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self.prefix = b""
        self.deadline = float("inf")
        self.started: float | None = None

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def fileno(self) -> int:
        return self._sock.fileno()

    def complete(self) -> bool:
        """A whole request head is buffered, with its body when its length is known and small."""
        end = self.prefix.find(b"\r\n\r\n")
        if end < 0:
            return len(self.prefix) > MAX_HEAD  # too long: the parser answers it (431/400) at once
        found = CONTENT_LENGTH.search(self.prefix, 0, end + 2)
        if found is None or int(found[1]) > MAX_PREREAD:
            return True
        return len(self.prefix) >= end + 4 + int(found[1])

    def recv(self, size: int, *flags) -> bytes:
        if self.prefix:
            data, self.prefix = self.prefix[:size], self.prefix[size:]
            return data
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            return b""  # as if the client had gone: the connection is closed
        prior = self._sock.gettimeout()  # None: blocking; 0.0: non-blocking; else a caller's timeout
        limit = prior != 0.0 and (prior is None or prior > remaining)
        if limit:
            self._sock.settimeout(remaining)
        try:
            return self._sock.recv(size, *flags)
        except TimeoutError:
            if not limit:
                raise  # the caller's own timeout (gunicorn's bounded body drain)
            return b""
        finally:
            if limit:
                self._sock.settimeout(prior)

    def recv_into(self, buffer, nbytes: int = 0, *flags) -> int:
        data = self.recv(nbytes or len(buffer), *flags)
        buffer[:len(data)] = data
        return len(data)


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's answer to a request its parser refuses (414 request line over limit_request_line, 431
    headers over limit_request_field_size, 400 a malformed line), in the service's one error shape
    (server.errors) instead of gunicorn's HTML page. Same bytes otherwise: status line, close."""
    from kb.errors import HTTP_CODES
    body = json.dumps({"error": {"status": status_int, "code": HTTP_CODES.get(status_int, "http_error"),
                                 "message": f"{reason}: {mesg}"[:300], "suggestions": []}}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    gunicorn_util.write_nonblock(sock, head + body)


class BoundedThreadWorker(ThreadWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.arriving: deque = deque()  # connections whose request is still arriving, oldest first

    def handle_error(self, req, client, addr, exc):
        """gunicorn's own error answers (it writes them through ``gunicorn.util.write_error``) as JSON."""
        base_util = gunicorn_base.util
        if base_util.write_error is not write_json_error:
            base_util.write_error = write_json_error  # this worker process only answers in the JSON shape
        super().handle_error(req, client, addr, exc)

    def enqueue_req(self, conn):
        if self.cfg.is_ssl:
            return super().enqueue_req(conn)
        if not isinstance(conn.sock, _Buffered):
            conn.sock = _Buffered(conn.sock)
        sock = conn.sock
        read_ahead = conn.parser is not None and conn.parser.unreader.buf.getvalue()
        if read_ahead or sock.complete():
            sock.started = None
            sock.deadline = time.monotonic() + serve.REQUEST_READ_TIMEOUT
            conn.data_ready = True
            return super().enqueue_req(conn)
        if sock.started is None:
            sock.started = time.monotonic()
        sock.setblocking(False)
        self.arriving.append(conn)
        self.poller.register(sock, selectors.EVENT_READ, partial(self._on_bytes, conn))

    def _on_bytes(self, conn, client):
        sock = conn.sock
        try:
            data = sock._sock.recv(1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            sock.prefix += data
            if not sock.complete():
                return
        self.poller.unregister(client)
        self.arriving.remove(conn)
        if not data:  # the client went away before sending a whole request
            self.nr_conns -= 1
            conn.close()
            return
        self.enqueue_req(conn)

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        while self.arriving and now - self.arriving[0].sock.started > serve.REQUEST_READ_TIMEOUT:
            conn = self.arriving.popleft()
            try:
                self.poller.unregister(conn.sock)
            except (OSError, KeyError, ValueError):
                pass
            self.nr_conns -= 1
            conn.close()

    def finish_request(self, conn, fs):
        super().finish_request(conn, fs)
        sock = conn.sock
        if isinstance(sock, _Buffered) and sock.prefix and conn in self.keepalived_conns:
            # a pipelined request already read ahead: the poller would never see it arrive
            self.poller.unregister(sock)
            self.keepalived_conns.remove(conn)
            self.enqueue_req(conn)
