"""`kb build` and `kb fetch`."""
from __future__ import annotations

import json
import time
from pathlib import Path

import click

from kb import config
from kb.build import pipeline
from kb.cli.group import fail, main
from kb.errors import KBError
from kb.sources.files import discover
from kb.store import snapshot


def _build(paths: tuple[str, ...], only_rules_src: bool, quiet: bool, dense: bool = False) -> Path:
    started = time.perf_counter()

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"  {time.perf_counter() - started:5.1f}s  {message}", err=True)

    settings = config.current()
    chosen = [Path(p) for p in paths] or ([] if only_rules_src else settings.default_sources())
    try:
        sources = discover(chosen, settings.rules_src)
        path = pipeline.build(sources, settings.snapshot_root, progress=progress, dense=dense)
    except (KBError, OSError, ValueError, snapshot.SnapshotError) as exc:
        fail(f"build failed, previous snapshot kept: {exc}")
    meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    for w in meta.get("warnings", []):  # accidents of real files, tolerated: always shown
        click.echo(f"kb: warning: {w['file']}" + (f":{w['line']}" if w["line"] else "") + f": {w['message']}", err=True)
    click.echo(f"built {path.name} in {meta['seconds']}s: editions {', '.join(meta['editions']) or 'none'}; "
               f"{meta['rules']} rules, {meta['rulings']} rulings/quotes, {meta['mechanics']} mechanics, "
               f"{meta['cards']} cards from {len(meta['sources'])} sources"
               + (f"; {len(meta['warnings'])} warning(s)" if meta.get("warnings") else ""))
    return path


@main.command(help="Build the graph from rules_src/ plus PATHs (CR text files or folders). "
                   "Without PATH: rules_src/ plus ../shared/data and fetched CRs when present.")
@click.argument("paths", nargs=-1)
@click.option("--only-rules-src", is_flag=True, help="Ignore the shared data and fetched CRs.")
@click.option("--dense", is_flag=True, help="Also embed today's rules for the dense retriever of questions "
                                           "(minutes the first time; later builds reuse the vectors).")
@click.option("--quiet", "-q", is_flag=True)
def build(paths, only_rules_src, dense, quiet) -> None:
    _build(paths, only_rules_src, quiet, dense)


@main.command(help="Download the current official CR text (found on the rules page) and rebuild.")
@click.option("--rules-page", default="https://magic.wizards.com/en/rules", show_default=True)
@click.option("--quiet", "-q", is_flag=True)
def fetch(rules_page, quiet) -> None:
    from kb.build.fetch import FetchError, fetch_current
    try:
        path = fetch_current(rules_page, config.current().fetch_dir)
    except FetchError as exc:
        fail(str(exc))
    click.echo(f"fetched {path}")
    _build((), False, quiet)
