"""`kb serve` (runs the server program) and `kb export`."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from kb import config
from kb.cli.build import _build as run_build
from kb.cli.group import fail, fail_with, load_kb, main
from kb.errors import InvalidParameter
from kb.store import snapshot


@main.command(help="Serve the web UI, JSON API and SPARQL on 127.0.0.1 (gunicorn; --dev for Flask's server).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True)
@click.option("--workers", default=2, show_default=True)
@click.option("--dev", is_flag=True, help="Flask's development server (auto-reload, debugger off)")
@click.option("--sparql-endpoint", metavar="URL",
              help="Read RDF and answer /sparql through this SPARQL server (e.g. oxigraph serve-read-only) "
                   "instead of the embedded store [default: MTG_KB_SPARQL_ENDPOINT]")
@click.option("--sparql-server", is_flag=True,
              help="Run an Oxigraph server (serve-read-only) on the snapshot's store and read RDF / answer "
                   "/sparql through it; after a build it moves to the new snapshot with the workers")
def serve(host, port, workers, dev, sparql_endpoint, sparql_server) -> None:
    if sparql_server and (sparql_endpoint or dev):
        raise click.UsageError("--sparql-server starts its own SPARQL server under gunicorn: "
                               "not with --sparql-endpoint or --dev")
    try:
        existing = snapshot.current()
    except snapshot.SnapshotError as exc:  # an empty or dangling CURRENT: say so, no traceback
        fail(str(exc), 1)
    kept = snapshot.complete_snapshots(config.current().snapshot_root) if existing is None else []
    if kept:  # CURRENT deleted by hand: never build over (and prune) what is there
        fail(f"{config.current().snapshot_root} has no CURRENT but holds {len(kept)} snapshot(s), the newest "
             f"{kept[-1].name}: write that name into CURRENT to serve it, or run `kb build` (they are kept)", 1)
    if existing is None:  # first run: build (with progress) before any worker starts
        click.echo("no snapshot yet: building from rules_src/ and the shared CR data", err=True)
        run_build((), False, quiet=False)
    click.echo(f"serving http://{host}:{port}/ ({'Flask dev server' if dev else f'gunicorn, {workers} workers'})"
               + (", SPARQL from an Oxigraph server on the snapshot" if sparql_server else
                  f", SPARQL from {sparql_endpoint}" if sparql_endpoint else ""), err=True)
    # The service is its own program (kb never imports the server): replace this process with it.
    args = [sys.executable, "-m", "server", "--host", host, "--port", str(port), "--workers", str(workers),
            "--home", str(config.current().home)] + (["--dev"] if dev else [])
    endpoint = sparql_endpoint or config.current().sparql_endpoint
    if sparql_server:
        args += ["--sparql-server"]
    elif endpoint:
        args += ["--sparql-endpoint", endpoint]
    os.execv(sys.executable, args)


@main.command(help="Export the graph: kb export --format turtle|jsonld|nt [-o FILE]")
@click.option("--format", "fmt", type=click.Choice(["turtle", "jsonld", "nt"]), default="turtle", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="file to write (default: stdout)")
@click.option("--vocab", is_flag=True, help="Export the vocabulary (kb/vocab/vocab.ttl) instead of the graph.")
def export(fmt, output, vocab) -> None:
    if output and not Path(output).parent.is_dir():  # checked before minutes of serialising
        fail_with(InvalidParameter(f"-o {output}: no folder {Path(output).parent}"))
    if vocab:
        from kb.vocab.ttl import vocabulary_turtle
        data = vocabulary_turtle()
    else:
        kb = load_kb()
        if fmt == "nt":
            import pyoxigraph as ox
            data = kb.store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph()).decode("utf-8")
        else:
            data = kb.graph.serialize(format="json-ld" if fmt == "jsonld" else "turtle")
    if output:
        try:
            Path(output).write_text(data, encoding="utf-8")
        except OSError as exc:
            fail_with(InvalidParameter(f"-o {output}: cannot write ({exc.strerror})"))
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(data)
