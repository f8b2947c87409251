"""``kb serve``: gunicorn on 127.0.0.1 with threaded workers; Flask's dev server only with ``--dev``.

Worker model: ``gthread`` workers with a bounded pool of threads each (``THREADS``) and a poller
that holds idle keep-alive and not-yet-sending connections without a thread, so idle or trickling
clients cannot take the service away from others (``bench/bench_slow_clients.py`` measures it).
A request whose head and body do not arrive within ``REQUEST_READ_TIMEOUT`` seconds is dropped
(``server.worker``).

Snapshots: the master loads the snapshot (``preload_app``) and forks the workers, so every worker,
including one restarted later, serves the snapshot the master chose. The master checks CURRENT
about once a second; when a build switched it, the master loads the new snapshot while the old
workers keep answering, then replaces every worker at once (gunicorn's graceful reload: new workers
forked from the new app, old ones finish their requests and stop). An answer is always computed
from one snapshot, named in its ``X-KB-Snapshot`` header. A snapshot that cannot be loaded is
logged and the workers keep the one they have.

With ``sparql_server`` (``kb serve --sparql-server``) the master also runs an Oxigraph server on the
snapshot's store (``server.oxigraph``) and the workers read RDF and answer ``/sparql`` through it; on
a switch the new snapshot's server starts before the new workers fork, and the old one stops once
the old workers have finished, so that too follows CURRENT.
"""
from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from flask import Flask

THREADS = 32  # per worker: concurrent requests; idle connections wait in the poller, not here
WORKER_CONNECTIONS = 1000  # open connections per worker (idle keep-alive ones included)
REQUEST_READ_TIMEOUT = 10.0  # seconds a request's head and body may take to arrive
WATCH_SECONDS = 1.0  # how often the master looks at CURRENT (gunicorn's loop wakes once a second)


def gunicorn_options(host: str, port: int, workers: int, **extra) -> dict:
    """The one gunicorn configuration (also used by the benches for the trivial ceiling app)."""
    options = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "server.worker.BoundedThreadWorker",
        "threads": THREADS,
        "worker_connections": WORKER_CONNECTIONS,
        "keepalive": 5,
        "preload_app": True,
        "timeout": 30,  # a worker whose main loop stops beating for this long is replaced
        "graceful_timeout": 10,
        "control_socket_disable": True,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "post_fork": _post_fork,
        "worker_exit": _worker_exit,
    }
    options.update(extra)
    return options


def _post_fork(server, worker) -> None:
    """In each new worker, before its threads start: per-process helpers (the SPARQL query process).
    A helper that cannot start now is logged and left to start on first use, as one that died later
    is: a stop sent to the whole process group while a worker boots (a terminal's Ctrl-C, systemd)
    stops its helper too, and failing that boot made the master halt with "Worker failed to boot"
    and exit 1 instead of stopping cleanly."""
    from kb.errors import KBError

    app = server.app.wsgi()
    for hook in getattr(app, "extensions", {}).get("post_fork", []):
        try:
            hook()
        except KBError as exc:
            server.log.warning("worker %s: %s (tried again on first use)", worker.pid, exc)


def _worker_exit(server, worker) -> None:
    """A worker's last step (gunicorn calls it as the worker's ``SystemExit`` unwinds): leave at once
    with that exit status, without Python's finalisation. The snapshot's store was opened by the
    master before the fork; destroying the worker's copy of it (RocksDB joining background threads
    that only exist in the master) aborted a worker now and then at shutdown or reload (SIGABRT,
    "std::system_error: Invalid argument", or SIGSEGV). Every answer is written by then, and the
    worker's SPARQL helper leaves when its socket closes (server.sparql.local)."""
    import logging

    exiting = sys.exc_info()[1]
    code = exiting.code if isinstance(exiting, SystemExit) and isinstance(exiting.code, int) else \
        (0 if exiting is None or isinstance(exiting, SystemExit) and exiting.code is None else 1)
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code & 0xFF)


def _close(app) -> None:
    for hook in getattr(app, "extensions", {}).get("close", []):
        hook()


class _Gunicorn:  # built lazily so importing this module does not import gunicorn
    @staticmethod
    def make(factory: Callable[[], Flask], options: dict, watch: Path | None = None):
        from gunicorn.app.base import BaseApplication
        from gunicorn.arbiter import Arbiter

        from server.oxigraph import Retiring

        retiring = Retiring()  # SPARQL servers of snapshots the workers are leaving
        graceful = float(options.get("graceful_timeout") or 30)

        class SnapshotArbiter(Arbiter):
            def murder_workers(self):  # called by the master loop about once a second
                super().murder_workers()
                try:
                    self.app.check_snapshot(self)
                except Exception:  # noqa: BLE001 - the watch must never take the master down
                    self.log.exception("watching CURRENT failed")

        class Application(BaseApplication):
            serving: Path | None = None
            tried: Path | None = None

            def load_config(self):
                for key, value in options.items():
                    if key in self.cfg.settings and value is not None:
                        self.cfg.set(key.lower(), value)

            def load(self):
                app = factory()
                kb = app.extensions.get("kb")
                self.serving = self.tried = getattr(kb, "path", None)
                return app

            def reload(self):
                """SIGHUP: load the new snapshot here first; the arbiter then forks new workers from it
                and stops the old ones. If it cannot be loaded, the workers keep the current one."""
                super().reload()
                if self.callable is None:
                    return
                old = self.callable
                gc.unfreeze()
                try:
                    new = self.load()
                except Exception as exc:  # noqa: BLE001 - logged; serving goes on with the old snapshot
                    self._log().error("kept %s: the new snapshot could not be loaded: %s", self.serving, exc)
                    gc.freeze()
                    return
                self.callable = new
                managed = getattr(old, "extensions", {}).get("sparql_server")
                _close(old)
                if managed is not None:  # the old workers may query it until they have stopped
                    retiring.add(managed, graceful + 2)
                del old
                gc.collect()
                gc.freeze()

            def _log(self):
                import logging
                return logging.getLogger("gunicorn.error")

            def check_snapshot(self, arbiter) -> None:
                retiring.stop_due(self._log().warning)
                managed = getattr(self.callable, "extensions", {}).get("sparql_server")
                if managed is not None:  # bounded memory, restarted when gone (server.oxigraph)
                    managed.supervise(self._log().warning)
                if watch is None:
                    return
                from kb.store import snapshot
                try:
                    found = snapshot.current(watch)
                except snapshot.SnapshotError as exc:
                    if self.tried != "unreadable":
                        self._log().error("kept %s: %s", self.serving, exc)
                        self.tried = "unreadable"
                    return
                if found is None or found == self.serving or found == self.tried:
                    return
                self.tried = found
                self._log().warning("snapshot %s is current: reloading every worker", found.name)
                os.kill(arbiter.pid, signal.SIGHUP)

            def run(self):
                from kb.errors import KBError
                try:
                    SnapshotArbiter(self).run()
                except KBError as exc:  # the snapshot could not be loaded (a damaged file): one line, no traceback
                    sys.exit(f"kb serve: {exc.message}")
                except RuntimeError as exc:
                    print(f"\nError: {exc}\n", file=sys.stderr)
                    sys.exit(1)
                finally:
                    managed = getattr(self.callable, "extensions", {}).get("sparql_server")
                    if managed is not None:
                        managed.stop()
                    retiring.stop_all()

        return Application()


def configured(home: str | Path | None = None, sparql_endpoint: str | None = None):
    """The settings ``kb serve`` runs with: the environment's (kb.config), with the command line's
    ``--home`` and ``--sparql-endpoint`` over them. Nothing is written to the environment."""
    from dataclasses import replace

    from kb import config as settings

    chosen = settings.current()
    if home:
        chosen = chosen.with_home(home)
    if sparql_endpoint:
        chosen = replace(chosen, sparql_endpoint=sparql_endpoint)
    return chosen


def ensure_snapshot() -> None:
    """Build the snapshot (in the settings' home) in the master if there is none, so workers only
    ever load."""
    from kb import config as settings
    from kb.store import snapshot

    if snapshot.current(settings.snapshot_root()) is None:
        from kb.lookup.kb import KB

        KB.ensure(settings.current())


WARM_UP_GET = ("/api/rules/601.2c", "/api/search?q=manifest", "/mechanics/manifest", "/",
               "/api/path?from=601.2c&to=117.3a")
WARM_UP_POST = (("/api/ask/day-night", {"event": "untap-step", "designation": "day", "previous_turn_spells": []}),
                ("/api/citations/check", {"text": "CR 601.2c"}))


def warm_up(app: Flask) -> None:
    """One request per kind before serving, in the master, so what a first request computes (the
    rule book behind ask, the citation index, the graph paths: 0.1-0.35 s each, seconds under load)
    is shared by every forked worker instead of landing in some user's request in each of them;
    the current edition's rules get their derived parts (JA texts, history word diffs, what cites
    them: kb's ``prepare_rules``), every search document its snippet analysis and every current rule
    its search parts, with the question retriever built (``prepare_search``), every question type
    its reachable rules and checked rulings (``prepare_questions``), and every mechanic page its main
    part (``views.mechanics.prepare``), so that a first visit to any of them costs what a repeat does;
    then freeze the loaded objects out of the cyclic GC (a full collection over the loaded KB
    otherwise lands in some request's latency)."""
    kb = app.extensions.get("kb")
    if hasattr(kb, "prepare_rules"):
        from server.views import mechanics
        kb.prepare_rules()
        kb.prepare_search()
        kb.prepare_questions()
        mechanics.prepare(app)
    client = app.test_client()
    for url in WARM_UP_GET:
        client.get(url)
    for url, body in WARM_UP_POST:
        client.post(url, json=body)
    gc.collect()
    gc.freeze()


def app_with_sparql_server(config: dict) -> Flask:
    """The app on the current snapshot, reading RDF and answering ``/sparql`` through an Oxigraph
    server started on that snapshot's store (``server.oxigraph``), kept in
    ``app.extensions["sparql_server"]``: the master stops it once no worker uses the app."""
    from server import DEFAULTS, create_app, load_kb
    from server.oxigraph import ManagedServer

    kb = load_kb(config.get("KB_HOME"), ensure=False)
    try:
        managed = ManagedServer(kb.path / "store", DEFAULTS["SPARQL_TIMEOUT"], DEFAULTS["SPARQL_MEMORY"])
    except BaseException:
        kb.close()
        raise
    try:
        app = create_app({**config, "KB": kb, "KB_ENSURE": False, "SPARQL_ENDPOINT": managed.url})
    except BaseException:
        managed.stop()
        kb.close()
        raise
    app.extensions["close"].append(kb.close)  # loaded here: the app lets it go
    app.extensions["sparql_server"] = managed
    import logging
    logging.getLogger("gunicorn.error").warning("SPARQL server of %s at %s (pid %d)", kb.path.name,
                                                managed.url, managed.pid)
    warm_up(app)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, dev: bool = False,
          home: str | Path | None = None, app_factory: Callable[[], Flask] | None = None,
          sparql_endpoint: str | None = None, sparql_server: bool = False, **gunicorn_extra) -> None:
    from kb import config as settings
    from kb.store import snapshot
    from server import create_app

    if sparql_server and (sparql_endpoint or dev):
        sys.exit("kb serve: --sparql-server starts its own SPARQL server under gunicorn: "
                 "not with --sparql-endpoint or --dev")
    settings.use(configured(home, sparql_endpoint))  # the process's settings: workers fork with them
    config = {"KB_HOME": str(home) if home else None, "SPARQL_ENDPOINT": sparql_endpoint}
    try:
        if dev:
            app = (app_factory or (lambda: create_app({**config, "KB_ENSURE": True})))()
            # auto-reload on code changes; the interactive debugger stays off (errors get the JSON shape)
            reload = bool(sys.argv and sys.argv[0] not in ("-c", ""))
            app.run(host=host, port=port, debug=False, use_reloader=reload, threaded=True)
            return
        watch = None
        if app_factory is None:
            ensure_snapshot()
            watch = settings.snapshot_root()

            def app_factory():
                if sparql_server:
                    return app_with_sparql_server(config)
                app = create_app({**config, "KB_ENSURE": False})
                warm_up(app)
                return app
    except snapshot.SnapshotError as exc:
        sys.exit(f"kb serve: {exc}")
    _Gunicorn.make(app_factory, gunicorn_options(host, port, workers, **gunicorn_extra), watch).run()
