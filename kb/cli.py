"""`kb`: build the knowledge graph and look things up. Readable output by default, --json for machines.

Every failure is a one-line message on stderr and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from . import settings, snapshot
from .api import KB, KBError, NoSnapshot
from .sources import SourceError, discover


def default_paths() -> list[Path]:
    """What `kb build` reads besides rules_src/: the shared CR data (if present) and fetched CRs."""
    return [p for p in (settings.shared_data_dir(), settings.fetch_dir()) if p.is_dir()]


def _emit(data, as_json: bool, human) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        human(data)


def _fail(message: str, code: int = 1):
    click.echo(f"kb: {message}", err=True)
    sys.exit(code)


def _kb() -> KB:
    try:
        return KB.load()
    except NoSnapshot as exc:
        _fail(str(exc))


def _cite(c: dict | None) -> str:
    if not c:
        return ""
    parts = [c.get("rule") and f"rule {c['rule']}", c.get("edition") and f"CR {c['edition']}",
             c.get("document_title") or c.get("document"), c.get("locator")]
    return "[" + " · ".join(p for p in parts if p) + "]"


@click.group(help="MTG rules knowledge graph: Comprehensive Rules, wiki pages, FAQs and articles, cited.")
def main() -> None:
    pass


# ---------------------------------------------------------------- build / fetch


def _build(paths: tuple[str, ...], only_rules_src: bool, quiet: bool) -> Path:
    started = time.perf_counter()

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"  {time.perf_counter() - started:5.1f}s  {message}", err=True)

    chosen = [Path(p) for p in paths] or ([] if only_rules_src else default_paths())
    try:
        sources = discover(chosen, settings.rules_src_dir())
        path = snapshot.build(sources, progress=progress)
    except SourceError as exc:
        _fail(f"build failed, previous snapshot kept: {exc}")
    except (OSError, ValueError) as exc:
        _fail(f"build failed, previous snapshot kept: {exc}")
    meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    click.echo(f"built {path.name} in {meta['seconds']}s: editions {', '.join(meta['editions']) or 'none'}; "
               f"{meta['rules']} rules, {meta['rulings']} rulings/quotes, {meta['mechanics']} mechanics, "
               f"{meta['cards']} cards from {len(meta['sources'])} sources")
    return path


@main.command(help="Build the graph from rules_src/ plus PATHs (CR text files or folders). "
                   "Without PATH: rules_src/ plus ../shared/data and fetched CRs when present.")
@click.argument("paths", nargs=-1)
@click.option("--only-rules-src", is_flag=True, help="Ignore the shared data and fetched CRs.")
@click.option("--quiet", "-q", is_flag=True)
def build(paths, only_rules_src, quiet) -> None:
    _build(paths, only_rules_src, quiet)


@main.command(help="Download the current official CR text (found on the rules page) and rebuild.")
@click.option("--rules-page", default="https://magic.wizards.com/en/rules", show_default=True)
@click.option("--quiet", "-q", is_flag=True)
def fetch(rules_page, quiet) -> None:
    from .fetch import FetchError, fetch_current
    try:
        path = fetch_current(rules_page, settings.fetch_dir())
    except FetchError as exc:
        _fail(str(exc))
    click.echo(f"fetched {path}")
    _build((), False, quiet)


# ---------------------------------------------------------------- lookups


def _print_rule(r: dict) -> None:
    title = f" {r['title']}" if r.get("title") else ""
    click.echo(f"{r['number']}{title}   (CR {r['edition'] or 'quoted only'})")
    for t in r["texts"]:
        click.echo(f"  [{t['lang']}] {t['text']}")
        click.echo(f"       {_cite(t['citation'])}")
    for e in r["examples"]:
        click.echo(f"  {e['text']}")
    if r.get("parent"):
        click.echo(f"  parent: {r['parent']}")
    if r.get("children"):
        click.echo(f"  children: {', '.join(r['children'])}")
    if r.get("references_out"):
        click.echo(f"  cites: {', '.join(x['number'] for x in r['references_out'])}")
    if r.get("references_in"):
        click.echo(f"  cited by: {len(r['references_in'])} (" + ", ".join(
            x.get("number") or x["id"] for x in r["references_in"][:8]) + (", …" if len(r["references_in"]) > 8 else "") + ")")
    if r.get("history"):
        click.echo("  history: " + " → ".join(f"{h['number'] or '✗'} ({h['edition']})" for h in r["history"]))
    current = r.get("current")
    if current and current.get("number") and (current["number"] != r["number"] or current["edition"] != r["edition"]):
        click.echo(f"  today: {current['number']} (CR {current['edition']}, {current['status']})")
    elif current and current.get("status") == "removed":
        click.echo(f"  today: removed by CR {current['edition']}")


@main.command(help="Look up a rule: kb rule 601.2c [--edition 2023-11-17] [--lang ja|en]")
@click.argument("number")
@click.option("--edition", help="CR edition (YYYY-MM-DD); default: the newest loaded")
@click.option("--lang", type=click.Choice(["ja", "en"]))
@click.option("--json", "as_json", is_flag=True)
def rule(number, edition, lang, as_json) -> None:
    kb = _kb()
    try:
        found = kb.rule(number, edition, lang)
    except KBError as exc:
        _fail(exc.message, 2)
    if found is None:
        suggestions = kb.suggest(number, edition)
        formerly = kb.formerly(number)
        hint = "; ".join(f"in CR {f['edition']} {f['number']} is today's "
                         f"{f['current']['number'] if f['current'] else '(removed)'}" for f in formerly)
        _fail(f"no rule {number} in CR {edition or kb.current_edition()}"
              + (f"; close: {', '.join(suggestions)}" if suggestions else "") + (f"; {hint}" if hint else ""), 3)
    _emit(found, as_json, _print_rule)


def _print_mechanic(m: dict) -> None:
    click.echo(f"{m['name']['ja'] or ''} / {m['name']['en']}   ({m['kind']}, key {m['key']})")
    aliases = m["aliases"]["en"] + m["aliases"]["ja"]
    if aliases:
        click.echo(f"  also: {', '.join(aliases)}")
    click.echo("  rules:")
    for r in m["rules"]:
        click.echo(f"    {r['number']}  {r['text_en'][:110]}  {_cite(r['citation'])}")
    if m["related"]:
        click.echo("  related: " + ", ".join(f"{x['name_ja'] or ''}/{x['name_en']}" for x in m["related"]))
    if m["cards"]:
        click.echo("  cards: " + ", ".join(f"{c['name_ja'] or '?'} / {c['name_en'] or '?'}" for c in m["cards"][:12]))
    click.echo(f"  rulings ({len(m['rulings'])}):")
    for r in m["rulings"][:20]:
        click.echo(f"    - {r['text'][:100]}")
        click.echo(f"      {_cite(r['citation'])}")
    if len(m["rulings"]) > 20:
        click.echo(f"    … {len(m['rulings']) - 20} more (--json for all)")


@main.command(help="Look up a mechanic by any JA/EN name: kb mechanic 予示")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
def mechanic(name, as_json) -> None:
    kb = _kb()
    try:
        found = kb.mechanic(name)
    except KBError as exc:
        _fail(exc.message, 2)
    if found is None:
        _fail(f"no mechanic named {name!r}", 3)
    _emit(found, as_json, _print_mechanic)


def _print_card(c: dict) -> None:
    click.echo(f"{c['name_ja'] or '?'} / {c['name_en'] or '?'}")
    for s in c["sources"]:
        click.echo(f"  name data: {s['document_title']}")
    for m in c["mentions"]:
        click.echo(f"  - {m['text'][:100]}\n    {_cite(m['citation'])}")
    if c["mechanics"]:
        click.echo("  mechanics: " + ", ".join(f"{m['name_ja'] or ''}/{m['name_en']}" for m in c["mechanics"]))


@main.command(help='Look up a card by its JA or EN name: kb card "Meddling Mage"')
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
def card(name, as_json) -> None:
    kb = _kb()
    try:
        found = kb.card(name)
    except KBError as exc:
        _fail(exc.message, 2)
    if found is None:
        _fail(f"no card named {name!r}", 3)
    _emit(found, as_json, _print_card)


@main.command(help="Export the graph: kb export --format turtle|jsonld|nt [-o FILE]")
@click.option("--format", "fmt", type=click.Choice(["turtle", "jsonld", "nt"]), default="turtle", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="file to write (default: stdout)")
@click.option("--vocab", is_flag=True, help="Export the vocabulary (kb/vocab.ttl) instead of the graph.")
def export(fmt, output, vocab) -> None:
    if vocab:
        from .vocab_ttl import vocabulary_turtle
        data = vocabulary_turtle()
    else:
        kb = _kb()
        if fmt == "nt":
            import pyoxigraph as ox
            data = kb.store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph()).decode("utf-8")
        else:
            data = kb.graph.serialize(format="json-ld" if fmt == "jsonld" else "turtle")
    if output:
        Path(output).write_text(data, encoding="utf-8")
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(data)


if __name__ == "__main__":  # pragma: no cover
    main()
