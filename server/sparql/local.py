"""The query process for the embedded store: every query is parsed, planned and run in a process of
its own, with a deadline and a memory cap, and killed when it overruns.

Oxigraph cannot be interrupted from Python, and a query may also recurse deeply or allocate without
bound, so it never runs in a web worker. Each worker starts one *helper* (``python -m
server.sparql.local``: exec'd, so it is safe to start from a threaded worker) that opens the
snapshot's store read-only and waits on a socket. For each query the worker sends the query, its
deadline and a pipe; the helper forks a child that sets its own limits (``RLIMIT_AS``: its current
size plus ``SPARQL_MEMORY``; an alarm just past the deadline, so it ends even if nobody is left to
kill it), parses and runs the query, writes the serialized answer to the pipe and exits. The worker
waits on the pipe until the deadline and then kills the child. The helper is single-threaded, so
forking it is safe, and small, so forking it is cheap. If it dies it is started again.
"""
from __future__ import annotations

import math
import os
import pickle
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from kb.errors import InvalidQuery, QueryFailed, SnapshotDamaged
from server.sparql.results import Expired, write

MAX_MESSAGE = 1 << 20
READY_SECONDS = 60  # a helper opening the store says "ready" within this


class LocalRunner:
    """Runs queries on a snapshot's store through the helper (one per process, started on first use)."""

    def __init__(self, store_path: Path, memory_bytes: int):
        self.store_path, self.memory = Path(store_path), int(memory_bytes)
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._sock: socket.socket | None = None

    def _ensure(self) -> socket.socket:
        if self._proc is not None and self._proc.poll() is None and self._sock is not None:
            return self._sock
        self.close()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "server.sparql.local", str(theirs.fileno()), str(self.store_path), str(self.memory)],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        ours.settimeout(READY_SECONDS)
        try:
            ready = ours.recv(16)
        except OSError:  # (the timeout: it never said so)
            ready = b""
        if ready != b"ready":
            ours.close()
            why = self._not_ready()
            if why.startswith("could not open the store"):  # the snapshot's store is damaged or gone: 503
                status = why.split(" (", 1)[-1].rstrip(")")  # "exit status 1; its error is in the log above"
                raise SnapshotDamaged(f"snapshot {self.store_path.parent.name}: {self.store_path.name}/ could not be "
                                      f"opened by the SPARQL query process ({status}); run `kb build` to write a new one")
            raise QueryFailed(f"the SPARQL query process {why}")
        ours.settimeout(None)
        self._sock = ours
        return ours

    def _not_ready(self) -> str:
        """Why the helper did not become ready, for the log: stopped (a stop sent to the whole process
        group reaches it too), failed on the store, or silent."""
        try:
            code = self._proc.wait(1)
        except subprocess.TimeoutExpired:
            return f"did not become ready within {READY_SECONDS} s"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"was stopped by {name} before it was ready"
        return f"could not open the store {self.store_path} (exit status {code}; its error is in the log above)"

    def start(self) -> None:
        """Start the helper now (a gunicorn worker, right after it is forked)."""
        with self._lock:
            self._ensure()

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.terminate()
                try:
                    self._proc.wait(5)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait()
            self._proc = None

    def run(self, query: str, formats: dict, limit: int, deadline: float) -> tuple[str, str, bytes, bool]:
        """(form, format, body, truncated); raises Expired at the deadline, or a 400 error."""
        read_fd, write_fd = os.pipe()
        try:
            message = pickle.dumps((query, formats, limit, deadline))
            with self._lock:
                for attempt in (1, 2):  # a helper that died is started again once
                    try:
                        if self._sock is None:  # its start (once per process) is not the query's time
                            started = time.monotonic()
                            self._ensure()
                            deadline += time.monotonic() - started
                        sock = self._ensure()
                        socket.send_fds(sock, [message], [write_fd])
                        pid = int.from_bytes(sock.recv(8), "big")
                        if pid:
                            break
                    except OSError:
                        pass
                    self.close()
                else:
                    raise QueryFailed("the SPARQL query process is not available")
        finally:
            os.close(write_fd)
        try:
            data = _read_until(read_fd, deadline)
        except Expired:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            raise
        finally:
            os.close(read_fd)
        if not data:
            raise QueryFailed(f"the query was stopped: it needed more than {self.memory >> 20} MiB of memory")
        status, value = pickle.loads(data)
        if status == "ok":
            return value
        if status == "expired":
            raise Expired()
        if status == "syntax":
            raise InvalidQuery(f"SPARQL syntax error: {value}")
        if status == "memory":
            raise QueryFailed(f"the query was stopped: it needed more than {self.memory >> 20} MiB of memory")
        raise QueryFailed(f"the query failed: {value}")


def _read_until(fd: int, deadline: float) -> bytes:
    chunks = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Expired()
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            raise Expired()
        data = os.read(fd, 1 << 16)
        if not data:
            return b"".join(chunks)
        chunks.append(data)


# ---------------------------------------------------------------- the helper program


def _vm_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child(store, out: int, query: str, formats: dict, limit: int, deadline: float, memory: int) -> None:
    code = 0
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 2)  # a query stopped by its memory cap aborts with Rust's message: not the server log's business
        signal.alarm(max(1, math.ceil(deadline - time.monotonic()) + 1))
        cap = _vm_bytes() + memory
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        try:
            results = store.query(query, use_default_graph_as_union=True)
            payload = ("ok", write(results, formats, limit, deadline))
        except SyntaxError as err:
            payload = ("syntax", str(err))
        except Expired:
            payload = ("expired", "")
        except MemoryError:
            payload = ("memory", "")
        except Exception as err:  # noqa: BLE001 - reported to the worker as a 400
            payload = ("error", f"{type(err).__name__}: {err}")
        view = memoryview(pickle.dumps(payload))
        while view:
            view = view[os.write(out, view):]
    except BaseException:  # noqa: BLE001 - no answer: the worker reports the query as stopped
        code = 1
    finally:
        os._exit(code)


def main(fd: int, store_path: str, memory: int) -> None:
    import pyoxigraph as ox

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    sock = socket.socket(fileno=fd)
    store = ox.Store.read_only(store_path)
    sock.send(b"ready")
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, MAX_MESSAGE, 1)
        except OSError:
            return
        if not message:  # the worker is gone
            return
        if not fds:
            sock.send((0).to_bytes(8, "big"))
            continue
        query, formats, limit, deadline = pickle.loads(message)
        pid = os.fork()
        if pid == 0:
            sock.close()
            _child(store, fds[0], query, formats, limit, deadline, memory)
        os.close(fds[0])
        sock.send(pid.to_bytes(8, "big"))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
