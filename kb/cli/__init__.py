"""`kb`: build the knowledge graph and look things up. Readable output by default, --json for machines.

Every failure is a one-line message on stderr and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from kb import settings, snapshot
from kb.api import KB, KBError, NoSnapshot
from kb.sources import SourceError, discover


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


def _answer(call, missing: str = "not found"):
    """Run a lookup: bad input exits 2 with its message, nothing found exits 3."""
    try:
        found = call()
    except KBError as exc:
        _fail(exc.message, 2)
    if found is None or found == []:
        _fail(missing, 3)
    return found


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
    except (OSError, ValueError, snapshot.SnapshotError) as exc:
        _fail(f"build failed, previous snapshot kept: {exc}")
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
@click.option("--quiet", "-q", is_flag=True)
def build(paths, only_rules_src, quiet) -> None:
    _build(paths, only_rules_src, quiet)


@main.command(help="Download the current official CR text (found on the rules page) and rebuild.")
@click.option("--rules-page", default="https://magic.wizards.com/en/rules", show_default=True)
@click.option("--quiet", "-q", is_flag=True)
def fetch(rules_page, quiet) -> None:
    from kb.fetch import FetchError, fetch_current
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


def _print_history(h: list[dict]) -> None:
    for step in h:
        how = f"  [{step['method']}, {step['score']}]" if step.get("method") else ""
        click.echo(f"{step['edition']}  {step['number'] or '—':<9} {step['event']}{how}")
        if step.get("text"):
            click.echo(f"            {step['text'][:140]}")


@main.command(help="A rule across every loaded edition: created, moved, text changed, removed.")
@click.argument("number")
@click.option("--edition", help="the edition NUMBER belongs to (default: the newest loaded)")
@click.option("--json", "as_json", is_flag=True)
def history(number, edition, as_json) -> None:
    kb = _kb()
    steps = _answer(lambda: kb.history(number, edition), f"no rule {number} in CR {edition or kb.current_edition()}")
    _emit(steps, as_json, _print_history)


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
    _emit(_answer(lambda: kb.mechanic(name), f"no mechanic named {name!r}"), as_json, _print_mechanic)


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
    _emit(_answer(lambda: kb.card(name), f"no card named {name!r}"), as_json, _print_card)


def _plain(text: str) -> str:
    """Wiki markup out of a ruling for the terminal: [[target|label]] -> label, [[name]] -> name."""
    import re as _re
    return _re.sub(r"\[\[([^\]]*)\]\]", lambda m: m[1].rsplit("|", 1)[-1], text)


def _value(v) -> str:
    if isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
        return ", ".join(str(x) for x in v) if v else "—"
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return "—" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def _print_ask(a: dict) -> None:
    click.echo(f"{a['mechanic']}  (CR {a['edition']})")
    click.echo("outcome:")
    width = max((len(k) for k in a["outcome"]), default=0)
    for key, v in a["outcome"].items():
        if isinstance(v, dict) and v:
            click.echo(f"  {key}:")
            inner = max(len(k) for k in v)
            for k, x in v.items():
                click.echo(f"    {k:<{inner}}  {_value(x)}")
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            click.echo(f"  {key}:")
            for x in v:
                click.echo("    - " + ", ".join(f"{k}={_value(y)}" for k, y in x.items()))
        else:
            click.echo(f"  {key:<{width}}  {_value(v)}")
    click.echo("rules applied, in order:")
    for step in a["trace"]:
        click.echo(f"  {step['rule']:<9} {step['did']}")
    labels = {"agree": "rulings that agree", "superseded": "rulings superseded by the current rules",
              "disagree": "rulings that disagree with the current rules"}
    for group, label in labels.items():
        rulings = a["rulings"].get(group, [])
        if not rulings:
            continue
        click.echo(f"{label} ({len(rulings)}):")
        for r in rulings:
            text = _plain(r["text"])
            click.echo(f"  • {text[:100]}{'…' if len(text) > 100 else ''}")
            detail = [r["locator"]] + ([r["date"]] if r.get("date") else [])
            if r.get("claims"):
                detail.append(f"claims: {r['claims']}")
            if group == "superseded":
                detail.append(f"now: {', '.join(r['superseded_by'])} (CR {r['edition']})")
            click.echo(f"    {' · '.join(detail)}")


@main.command(help="Answer a state question: kb ask MECHANIC --situation '{...}' [--json]; kb ask --list")
@click.argument("mechanic", required=False)
@click.option("--situation", default="{}", help="the situation as JSON (see kb ask --list for each schema)")
@click.option("--list", "list_", is_flag=True, help="list the mechanics and their situation schemas")
@click.option("--json", "as_json", is_flag=True)
def ask(mechanic, situation, list_, as_json) -> None:
    from kb.reasoning.engine import SituationError
    kb = _kb()
    if list_ or not mechanic:
        schemas = kb.ask_schemas()
        if as_json or list_ and as_json:
            click.echo(json.dumps(schemas, ensure_ascii=False, indent=2))
            return
        for m in schemas:
            click.echo(f"{m['key']:<20} {m['name_ja']} / {m['name_en']}  (rules {', '.join(m['entry_rules'])})")
            for name, prop in m["schema"].get("properties", {}).items():
                click.echo(f"    {name:<28} {prop.get('title_ja', '')} / {prop.get('title_en', '')}"
                           + (f"  one of: {', '.join(prop['enum'])}" if "enum" in prop else ""))
        if not list_:
            _fail("name a mechanic to ask about", 2)
        return
    try:
        answer = kb.ask(mechanic, situation)
    except SituationError as exc:
        _fail(f"bad situation: {exc.field}: {exc.message}", 2)
    except KBError as exc:
        _fail(exc.message, 2)
    _emit(answer, as_json, _print_ask)


def _print_search(result: dict) -> None:
    import html
    import re as _re
    if result.get("goto"):
        click.echo(f"rule {result['goto']} → kb rule {result['goto']}")
    for hit in result["hits"]:
        snippet = html.unescape(_re.sub(r"</?mark>", "*", hit["snippet"]))
        click.echo(f"{hit['score']:6.2f}  {hit['kind']:<8} {hit['title']}")
        click.echo(f"        {snippet}")
        click.echo(f"        {_cite(hit.get('citation'))}")


@main.command(help="Search rules, glossary, rulings, mechanics and cards, in Japanese or English.")
@click.argument("query")
@click.option("--lang", type=click.Choice(["ja", "en"]))
@click.option("--limit", default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def search(query, lang, limit, as_json) -> None:
    kb = _kb()
    _emit(_answer(lambda: kb.search(query, lang=lang, limit=limit)), as_json, _print_search)


QUOTE_CAVEATS = {  # one line per kind of comparison, printed once under the report
    "no-official-ja-text": "no loaded JA edition has these rules: the quote was read for input errors "
                           "against JA wording in the knowledge base, not compared with an official text",
    "no-official-ja-text-for-edition": "no JA text of the quoted edition is loaded: compared with the same "
                                       "rule's JA text in a later edition, so differences may be rule changes",
}


def _print_check(report: dict) -> None:
    notes: list[str] = []  # each caveat once, numbered, instead of under every quote
    for c in report["citations"]:
        current = c.get("current") or {}
        click.echo(f"{c['line']}:{c['column']}  {c['raw']}  → {c['status']}"
                   + (f" (today {current.get('number')})" if current.get("number") else "")
                   + f"  [CR {c.get('edition')}, {c.get('method')}]")
        check = c.get("quote_check") or {}
        against = check.get("against") or {}
        note = (QUOTE_CAVEATS.get(check.get("status"), check.get("note"))
                if check.get("status") != "identical" else None)
        if note and note not in notes:
            notes.append(note)
        mark = f" [{notes.index(note) + 1}]" if note else ""
        if c.get("quote_diff"):
            compared = check.get("status") != "no-official-ja-text" and against
            where = (f"differs from the {against['lang'].upper()} text of {against.get('number')} in CR "
                     f"{against.get('edition')}" if compared else "reads oddly")
            click.echo(f"    quote {where}: {c['quote_diff'].get('summary', '')}{mark}")
    for index, note in enumerate(notes, 1):
        click.echo(f"[{index}] {note}")


@main.command("check-citations", help="Find every rule citation in FILE (JA or EN) and check it against the CR editions.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--date", help="the text's date (YYYY-MM-DD), if known: citations mean the edition then in force")
@click.option("--json", "as_json", is_flag=True)
def check_citations(file, date, as_json) -> None:
    kb = _kb()
    from kb.sources import decode, looks_like_text
    try:
        text, _ = decode(Path(file).read_bytes())  # any encoding an official text comes in
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror}", 2)
    if not looks_like_text(text):
        _fail(f"{file} is not a text file", 2)
    try:
        report = kb.check_citations(text, date=date)
    except KBError as exc:
        _fail(exc.message, 2)
    _emit(report, as_json, _print_check)


@main.command(help="Serve the web UI, JSON API and SPARQL on 127.0.0.1 (gunicorn; --dev for Flask's server).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True)
@click.option("--workers", default=2, show_default=True)
@click.option("--dev", is_flag=True, help="Flask's development server (auto-reload, debugger off)")
def serve(host, port, workers, dev) -> None:
    from server.serve import serve as run
    if snapshot.current() is None:  # first run: build (with progress) before any worker starts
        click.echo("no snapshot yet: building from rules_src/ and the shared CR data", err=True)
        _build((), False, quiet=False)
    click.echo(f"serving http://{host}:{port}/ ({'Flask dev server' if dev else f'gunicorn, {workers} workers'})",
               err=True)
    run(host=host, port=port, workers=workers, dev=dev)


@main.command(help="Export the graph: kb export --format turtle|jsonld|nt [-o FILE]")
@click.option("--format", "fmt", type=click.Choice(["turtle", "jsonld", "nt"]), default="turtle", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="file to write (default: stdout)")
@click.option("--vocab", is_flag=True, help="Export the vocabulary (kb/vocab.ttl) instead of the graph.")
def export(fmt, output, vocab) -> None:
    if vocab:
        from kb.vocab_ttl import vocabulary_turtle
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
