"""`kb build` and `kb fetch`."""
from __future__ import annotations

import json
import time
import urllib.parse
from pathlib import Path

import click

from kb import config
from kb.cli.group import fail, fail_with, main
from kb.errors import InvalidParameter, KBError
from kb.sources.files import discover
from kb.store import snapshot


def _build(paths: tuple[str, ...], only_rules_src: bool, quiet: bool, allow_fewer: bool = False,
           dense: bool = False, allow_incomplete: bool = False) -> Path:
    started = time.perf_counter()

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"  {time.perf_counter() - started:5.1f}s  {message}", err=True)

    from kb.build import pipeline  # ~0.7 s of imports only `kb build` needs, not every `kb` command

    settings = config.current()
    chosen = [Path(p) for p in paths] or ([] if only_rules_src else settings.default_sources())
    try:
        sources = discover(chosen, settings.rules_src)
        for given in map(Path, paths):  # a named folder with nothing usable is a mistake, not an empty graph
            if not any(Path(f.origin).resolve().is_relative_to(given.resolve()) for f in sources.files):
                fail(f"build failed, previous snapshot kept: {given}: no Comprehensive Rules text or card "
                     "data found there", 2)
        path = pipeline.build(sources, settings.snapshot_root, progress=progress, allow_fewer=allow_fewer, dense=dense,
                              allow_incomplete=allow_incomplete,
                              on_wait=lambda message: click.echo(f"kb: {message}", err=True))
    except KBError as exc:  # a source that cannot be used (names file and line): bad input
        fail(f"build failed, previous snapshot kept: {exc}", 2 if exc.status < 500 else 1)
    except (OSError, ValueError, snapshot.SnapshotError) as exc:
        fail(f"build failed, previous snapshot kept: {exc}")
    meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    for w in meta.get("warnings", []):  # accidents of real files, tolerated: always shown
        click.echo(f"kb: warning: {w['file']}" + (f":{w['line']}" if w["line"] else "") + f": {w['message']}", err=True)
    n = sum(1 for e in meta["editions"] if e.startswith("en/"))
    click.echo(f"built {path.name} in {meta['seconds']}s ({meta['seconds'] / max(n, 1):.2f} s per EN edition; "
               f"{meta.get('cache', {}).get('reused', 0)} parses/pairs reused): "
               f"editions {', '.join(meta['editions']) or 'none'}; "
               f"{meta['rules']} rules, {meta['rulings']} rulings/quotes, {meta['mechanics']} mechanics, "
               f"{meta['cards']} cards from {len(meta['sources'])} sources"
               + (f"; {len(meta['warnings'])} warning(s)" if meta.get("warnings") else ""))
    return path


@main.command(help="Build the graph from rules_src/ plus PATHs (CR text files or folders). "
                   "Without PATH: rules_src/ plus ../shared/data and fetched CRs when present.")
@click.argument("paths", nargs=-1)
@click.option("--only-rules-src", is_flag=True, help="Ignore the shared data and fetched CRs.")
@click.option("--allow-fewer", is_flag=True,
              help="Replace the current graph even if the new one holds fewer CR editions.")
@click.option("--allow-incomplete", is_flag=True,
              help="Build a CR file even if it lacks chapters, sections or the glossary its own contents "
                   "list names (a truncated copy is refused otherwise).")
@click.option("--dense", is_flag=True, help="Also embed today's rules for the dense retriever of questions "
                                           "(minutes the first time; later builds reuse the vectors).")
@click.option("--quiet", "-q", is_flag=True)
def build(paths, only_rules_src, allow_fewer, allow_incomplete, dense, quiet) -> None:
    _build(paths, only_rules_src, quiet, allow_fewer, dense, allow_incomplete)


@main.command(help="Download the current official CR text (found on the rules page) and rebuild; with "
                   "--cards, MTGJSON card data from MTGJSON (checked against its .sha256); with "
                   "--history, every official edition of the shipped list (kb/sources/official_editions.json) "
                   "not already held, each verified against its sha256 when known, then rebuild.")
@click.option("--rules-page", default="https://magic.wizards.com/en/rules", show_default=True)
@click.option("--history", is_flag=True, help="Fetch every official edition, 2003 to today.")
@click.option("--list", "listing", type=click.Path(exists=True, dir_okay=False),
              help="With --history: another list of editions in the same format.")
@click.option("--cards", is_flag=True, help="Download MTGJSON card data (AtomicCards by default) from MTGJSON, "
                                           "verified against its published .sha256, instead of the CR.")
@click.option("--cards-file", "cards_files", multiple=True, type=click.Choice(["AtomicCards", "AllPrintings"]),
              help="With --cards: which MTGJSON file (repeatable; default AtomicCards).")
@click.option("--cards-format", type=click.Choice(["json.gz", "json"]), default="json.gz", show_default=True)
@click.option("--mtgjson-url", default="https://mtgjson.com/api/v5/", show_default=True)
@click.option("--quiet", "-q", is_flag=True)
def fetch(rules_page, history, listing, cards, cards_files, cards_format, mtgjson_url, quiet) -> None:
    from kb.build.fetch import FetchError, fetch_current
    for name, url in (("--rules-page", rules_page), ("--mtgjson-url", mtgjson_url)):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            fail_with(InvalidParameter(f"{name} {url[:80]!r}: expected an http(s) URL"))
    if cards:
        _fetch_cards(cards_files or ("AtomicCards",), cards_format, mtgjson_url)
    elif history:
        _fetch_history(listing, quiet)
    else:
        try:
            path = fetch_current(rules_page, config.current().fetch_dir)
        except FetchError as exc:
            fail(str(exc))
        click.echo(f"fetched {path}")
    _build((), False, quiet)


def _fetch_cards(names: tuple[str, ...], fmt: str, base: str) -> None:
    from kb.build.fetch import FetchError
    from kb.build.fetch_cards import fetch_cards
    try:
        kept = fetch_cards(config.current().fetch_dir, tuple(dict.fromkeys(names)), base, "." + fmt)
    except FetchError as exc:
        fail(f"{exc}; previous card data and snapshot kept")
    for f in kept:
        click.echo(f"fetched {f.path} ({f.size} bytes, sha256 {f.sha256} as published): {f.title}")


def _fetch_history(listing: str | None, quiet: bool) -> None:
    from kb.build.fetch import fetch_history
    from kb.sources import official
    try:
        editions = official.load(Path(listing) if listing else None)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        fail(f"{listing}: not a list of editions ({exc})", 2)
    settings = config.current()

    def progress(entry) -> None:
        if entry.status == "fetched" or not quiet:
            where = entry.path or entry.message
            click.echo(f"  {entry.effective}  {entry.status:<8} {where}"
                       + (f"  ({entry.message})" if entry.path and entry.message else ""), err=entry.status == "failed")

    report = fetch_history(settings.fetch_dir, editions, [settings.data_dir] if settings.data_dir.is_dir() else [],
                           progress)
    counts = {s: sum(e.status == s for e in report) for s in ("fetched", "held", "failed", "no-url")}
    click.echo(f"editions: {counts['fetched']} fetched, {counts['held']} already held, {counts['failed']} failed, "
               f"{counts['no-url']} without a known URL")
    if counts["failed"] and not counts["fetched"] and not counts["held"]:
        fail("no official edition could be fetched", 1)
