"""``kb serve``: gunicorn with sync workers on 127.0.0.1, Flask's dev server only with ``--dev``.

The master makes sure a snapshot exists (building it from rules_src first if there is none) and
then forks the workers; each worker calls ``create_app`` and so loads the snapshot once
(``preload_app`` is off: a worker owns its store handle and its indexes).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from flask import Flask


class _Gunicorn:  # built lazily so importing this module does not import gunicorn
    @staticmethod
    def make(factory: Callable[[], Flask], options: dict):
        from gunicorn.app.base import BaseApplication

        class Application(BaseApplication):
            def load_config(self):
                for key, value in options.items():
                    if key in self.cfg.settings and value is not None:
                        self.cfg.set(key.lower(), value)

            def load(self):
                return factory()

        return Application()


def gunicorn_options(host: str, port: int, workers: int, **extra) -> dict:
    """The one gunicorn configuration (also used by bench/bench_http.py for the ceiling app)."""
    options = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "sync",
        "preload_app": False,
        "timeout": 60,
        "graceful_timeout": 5,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
    }
    options.update(extra)
    return options


def ensure_snapshot(home: Path | None) -> None:
    """Build the snapshot in the master if there is none, so workers only ever load."""
    from kb import config as settings
    from kb.store import snapshot

    root = (Path(home) / "snapshots") if home else settings.snapshot_root()
    if snapshot.current(root) is None:
        from kb.lookup.kb import KB

        KB.ensure(Path(home) if home else None)


def warm_up(app: Flask) -> None:
    """One request per kind before serving, then freeze the loaded objects out of the cyclic GC
    (a full collection over the loaded KB otherwise lands in some request's latency)."""
    import gc

    client = app.test_client()
    for url in ("/api/rules/601.2c", "/api/search?q=manifest", "/mechanics/manifest", "/"):
        client.get(url)
    gc.collect()
    gc.freeze()


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, dev: bool = False,
          home: str | Path | None = None, app_factory: Callable[[], Flask] | None = None,
          **gunicorn_extra) -> None:
    from server import create_app

    if home:
        os.environ["MTG_KB_HOME"] = str(home)
    config = {"KB_HOME": str(home) if home else None}
    if dev:
        app = (app_factory or (lambda: create_app({**config, "KB_ENSURE": True})))()
        # auto-reload on code changes; the interactive debugger stays off (errors get the JSON shape)
        reload = bool(sys.argv and sys.argv[0] not in ("-c", ""))
        app.run(host=host, port=port, debug=False, use_reloader=reload, threaded=True)
        return
    if app_factory is None:
        ensure_snapshot(Path(home) if home else None)

        def app_factory():
            app = create_app({**config, "KB_ENSURE": False})
            warm_up(app)
            return app

    _Gunicorn.make(app_factory, gunicorn_options(host, port, workers, **gunicorn_extra)).run()
