"""`kb check-citations`."""
from __future__ import annotations

import click

from kb.cli.group import emit, fail_with, load_kb, main
from kb.errors import InvalidSource, KBError, PayloadTooLarge

MAX_FILE_BYTES = 4 << 20  # a whole CR is ~1 MB; the service takes 100,000 characters
from kb.sources.decode import decode, looks_like_text


QUOTE_CAVEATS = {  # one line per kind of comparison, printed once under the report
    "no-official-ja-text": "no loaded JA edition has these rules: the quote was read for input errors "
                           "against JA wording in the knowledge base, not compared with an official text",
    "no-official-ja-text-for-edition": "no JA text of the quoted edition is loaded: compared with the same "
                                       "rule's JA text in a later edition, so differences may be rule changes",
}


def _summary(report: dict) -> None:
    date = report.get("date")
    click.echo(f"{report.get('kind', 'text')}, "
               + (f"dated {date} ({report.get('date_source')})" if date else "undated (give --date)")
               + (f"; announces CR {report['announced_edition']}" if report.get("announced_edition") else "")
               + f"; {len(report['citations'])} citation(s): "
               + ", ".join(f"{n} {s}" for s, n in sorted(report["counts"].items())))
    era = report.get("era")
    if era:
        click.echo(f"era inferred: CR {era['from']}" + (f" to {era['to']}" if era["to"] != era["from"] else ""))
        for line in era["why"]:
            click.echo(f"  because {line}")
    for e in report.get("editions", []):
        click.echo(f"  CR {e['edition']}: {e['citations']}"
                   + ("" if e["loaded"] else f" (not loaded: read in CR {e['read_in']})"))
    for note in report.get("notes", []):
        click.echo(f"note: {note}")
    for suggestion in report.get("suggestions", []):
        click.echo(f"try: {suggestion}")


def _edition(c: dict) -> str:
    meant = c.get("edition_meant") or {}
    if not meant:
        return f"CR {c.get('edition')}, {c.get('method')}"
    out = f"CR {meant['edition']}" + ("" if meant["loaded"] else f" not loaded, read in {meant['resolved_with']}")
    out += f", {meant['method']}, confidence {c.get('confidence', 1.0):.2f}"
    if meant.get("ambiguous") and meant.get("runner_up"):
        out += f"; close: CR {meant['runner_up']['edition']}"
    return out


def _print_check(report: dict) -> None:
    _summary(report)
    notes: list[str] = []  # each caveat once, numbered, instead of under every quote
    for c in report["citations"]:
        current = c.get("current") or {}
        click.echo(f"{c['line']}:{c['column']}  {c['raw']}  → {c['status']}"
                   + (f" (today {current.get('number')})" if current.get("number") else "")
                   + f"  [{_edition(c)}]")
        if len(c.get("readings") or []) > 1:
            for r in c["readings"]:
                click.echo(f"    CR {r['from']}" + (f"–{r['to']}" if r["to"] != r["from"] else "")
                           + f" (weight {r['weight']:.2f}): " + "; ".join(
                               f"{x['number']} → {x['status']}" + (f" {x['current']}" if x["current"] else "")
                               for x in r["resolved"]))
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
    try:
        with open(file, "rb") as source:  # bounded: /dev/zero or a huge file is refused, not read to MemoryError
            data = source.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        fail_with(InvalidSource(f"cannot read {file}: {exc.strerror}"), as_json)
    if len(data) > MAX_FILE_BYTES:
        fail_with(PayloadTooLarge(f"{file} is larger than {MAX_FILE_BYTES} bytes: check it in parts"), as_json)
    text, _ = decode(data)  # any encoding an official text comes in
    if not looks_like_text(text):
        fail_with(InvalidSource(f"{file} is not a text file"), as_json)
    kb = load_kb()
    try:
        report = kb.check_citations(text, date=date)
    except KBError as exc:
        fail_with(exc, as_json)
    emit(report, as_json, _print_check)
