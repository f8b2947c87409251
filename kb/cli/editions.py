"""`kb editions`, `kb history`, `kb diff`, `kb changes`: the loaded editions and what changed
between them."""
from __future__ import annotations

import textwrap

import click

from kb import rulenumbers
from kb.cli.group import answer, checked, emit, fail_with, load_kb, main
from kb.errors import KBError, RuleNotFound
from kb.lookup import changes as vocab
from kb.lookup.changes import Change
from kb.lookup.diffs import KINDS
from kb.text import render

WIDTH = 110


def _print_editions(editions: list[dict]) -> None:
    for e in editions:
        alias = f" (file {e['file_date']})" if e.get("file_date") and e["file_date"] != e["edition"] else ""
        click.echo(f"{e['lang']} {e['edition']}{alias}  rules {e['rules']:>5}  examples {e.get('examples', 0):>4}  "
                   f"glossary {e['glossary']:>4}  {e.get('encoding', '?'):<10} {e['path']}"
                   + (f"  {len(e['warnings'])} warning(s)" if e.get("warnings") else ""))
        for w in e.get("warnings", []):
            click.echo(f"      line {w['line']}: {w['message']}")
        if a := e.get("alignment"):
            click.echo(f"      {a['label']}: aligned with EN {a['en_edition']} on {a.get('aligned', 0)} numbers; "
                       f"only JA: {', '.join(x['number'] for x in a.get('only_ja', [])) or '-'}; "
                       f"only EN: {', '.join(x['number'] for x in a.get('only_en', [])) or '-'}; "
                       f"contents list omits: {', '.join(a['contents']['missing']) or '-'}; "
                       f"{a['references']['fixed']} cross-reference(s) resolved by 〔title〕, "
                       f"{a['references']['unresolved']} unresolved")


@main.command(help="Every loaded edition: effective and file date, language, encoding, counts, sha256, warnings.")
@click.option("--json", "as_json", is_flag=True)
def editions(as_json) -> None:
    kb = load_kb()
    emit(kb.editions(), as_json, _print_editions)


def _wrapped(label: str, text: str) -> None:
    lines = textwrap.wrap(text, WIDTH - 14) or [""]
    click.echo(f"            {label}{lines[0]}")
    for line in lines[1:]:
        click.echo(f"            {' ' * len(label)}{line}")


def _print_spans(h: dict) -> None:
    click.echo(f"{h['number']}  (CR {h['edition']}): " + "; ".join(h["summary"]))
    for span in h["spans"]:
        when = span["from"] if span["from"] == span["to"] else f"{span['from']} → {span['to']}"
        change = span["change"]
        how = vocab.label(change["kind"])
        if change["kind"].startswith("moved"):
            how = f"{how} ({change['from']} → {change['to']})"
        if change.get("method"):
            how += f"  [{vocab.label(change['method'])}, {change['score']}]"
        gap = change.get("not_loaded_before") or change.get("not_loaded_between")
        if gap:
            how += f"  (official editions not loaded before it: {', '.join(gap)})"
        same = f", same text in {span['editions']} loaded editions" if span["editions"] > 1 else ""
        click.echo(f"{when:<24} {span['number']:<9} {how}{same}")
        if change.get("diff"):
            _wrapped("diff: ", render(change["diff"]))
        elif change["kind"] in (Change.CREATED, Change.FIRST_SEEN):
            _wrapped("", span["text"])
    if removed := h.get("removed"):
        gap = f"  (official editions not loaded before it: {', '.join(removed['not_loaded_between'])})" \
            if removed.get("not_loaded_between") else ""
        click.echo(f"{removed['edition']:<24} {'—':<9} {vocab.label(removed['kind'])}{gap}")


@main.command(help="A rule across every loaded edition, as spans of the same text joined by changes "
                   "(moved, text changed, with word diffs): kb history 702.30 --edition 2014-09-25")
@click.argument("number")
@click.option("--edition", help="the edition NUMBER belongs to (default: the newest loaded)")
@click.option("--json", "as_json", is_flag=True)
def history(number, edition, as_json) -> None:
    checked(lambda: rulenumbers.canonical(number))
    kb = load_kb()
    missing = RuleNotFound(f"no rule {number} in CR {edition or kb.current_edition()}")
    spans = answer(lambda: kb.history_spans(number, edition), missing, as_json)
    spans["steps"] = kb.history(number, edition)
    emit(spans, as_json, _print_spans)


def _print_diff(d: dict) -> None:
    counts = d["counts"]
    click.echo(f"CR {d['from']} → CR {d['to']}: " + ", ".join(f"{counts[k]} {vocab.label(k)}" for k in KINDS)
               + f" ({counts['unchanged']} unchanged; {counts['references_only']} changed only cited numbers)"
               + (f"; {len(d['editions_between'])} editions in between" if d["editions_between"] else ""))
    for group in d.get("groups", KINDS):  # wording changes first; what changed only numbers last, in runs
        entries = [e for e in d["entries"] if e.get("group", e["kind"]) == group]
        if not entries:
            continue
        click.echo(f"\n{vocab.label(group)} ({len(entries)}):")
        if group == Change.NUMBERS_ONLY:
            shown = {n for e in entries for n in (e["from"],)}
            for run in d.get("renumbering_runs", []):
                if run["first_from"] not in shown:
                    continue
                span = run["first_from"] if run["count"] == 1 else f"{run['first_from']}–{run['last_from']}"
                to = run["first_to"] if run["count"] == 1 else f"{run['first_to']}–{run['last_to']}"
                click.echo(f"  {span} → {to}" + (f"  ({run['count']} rules)" if run["count"] > 1 else "")
                           if span != to else f"  {span}  (cited numbers only)")
            continue
        for e in entries:
            if e["kind"] == "added":
                click.echo(f"  {e['to']:<20} {_short(e['new_text'])}")
            elif e["kind"] == "removed":
                click.echo(f"  {e['from']:<20} {_short(e['old_text'])}")
            else:
                label = f"{e['from']} → {e['to']}" if e["from"] != e["to"] else e["from"]
                click.echo(f"  {label:<20} {_short(e['new_text']) if not e['diff'] else ''}".rstrip())
            if e.get("diff"):
                _wrapped("", render(e["diff"]))
            if e.get("ja_diff"):
                _wrapped("ja: ", render(e["ja_diff"]))


def _short(text: str | None) -> str:
    text = text or ""
    return text if len(text) <= WIDTH - 24 else text[:WIDTH - 25] + "…"


def _only(d: dict, kinds: tuple[str, ...]) -> dict:
    if not kinds:
        return d
    return dict(d, entries=[e for e in d["entries"] if e["kind"] in kinds])


ONLY = click.option("--only", "kinds", multiple=True, type=click.Choice(KINDS), help="show only these kinds (repeatable)")


@main.command(help="What changed between two loaded editions: rules added, removed, moved (old → new "
                   "number) and text changed, with word diffs: kb diff 2026-01-16 2026-04-17")
@click.argument("old")
@click.argument("new")
@ONLY
@click.option("--json", "as_json", is_flag=True)
def diff(old, new, kinds, as_json) -> None:
    kb = load_kb()
    try:
        found = kb.diff(old, new)
    except KBError as exc:
        fail_with(exc, as_json)
    emit(_only(found, kinds), as_json, _print_diff)


@main.command(help="What an edition changed against the loaded edition before it: kb changes 2026-06-19 "
                   "(default: the newest)")
@click.argument("edition", required=False)
@ONLY
@click.option("--json", "as_json", is_flag=True)
def changes(edition, kinds, as_json) -> None:
    kb = load_kb()
    try:
        found = kb.changes(edition)
    except KBError as exc:
        fail_with(exc, as_json)
    emit(_only(found, kinds), as_json, _print_diff)
