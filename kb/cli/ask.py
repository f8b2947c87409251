"""`kb ask` and `kb search`."""
from __future__ import annotations

import json

import click

from kb.cli.group import answer, checked, cite, emit, fail_with, load_kb, main
from kb.lookup.display import shown
from kb.errors import KBError, MissingParameter, RuleNotFound
from kb.text import json_loads_bounded
from kb.wikitext import visible


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
    if a.get("procedure"):
        p = a["procedure"]
        click.echo(f"procedure: {p['title_en']} (every step, '*' = used in this case)")
        for s in p["steps"]:
            click.echo(f"  {'*' if s['in_this_case'] else ' '} {s['rule']:<9} {s['text_en'][:90]}")
    for c in a.get("cards", []):
        click.echo(f"card: {c.get('name_ja') or ''} / {c.get('name_en') or ''}  [{', '.join(c.get('sources', []))}]")
    labels = {"agree": "rulings that agree", "superseded": "rulings superseded by the current rules",
              "disagree": "rulings that disagree with the current rules"}
    for group, label in labels.items():
        rulings = a["rulings"].get(group, [])
        if not rulings:
            continue
        click.echo(f"{label} ({len(rulings)}):")
        for r in rulings:
            text = shown(r)  # the build's markup-free text (kb.wikitext)
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
@click.option("--procedure", "procedure", is_flag=False, flag_value="", default=None,
              help="list every step of the mechanic's CR procedure (optionally name one: kb ask face-down --procedure turn-up-morph)")
@click.option("--json", "as_json", is_flag=True)
def ask(mechanic, situation, list_, procedure, as_json) -> None:
    given = checked(lambda: json_loads_bounded(situation, what="--situation"))  # before any snapshot is read
    kb = load_kb()
    if procedure is not None and mechanic:
        try:
            found = kb.ask_procedure(mechanic, procedure or None)
        except KBError as exc:
            fail_with(exc, as_json)
        emit(found, as_json, _print_procedure)
        return
    if list_ or not mechanic:
        schemas = kb.ask_schemas()
        if as_json or list_ and as_json:
            click.echo(json.dumps(schemas, ensure_ascii=False, indent=2))
            return
        for m in schemas:
            click.echo(f"{m['key']:<20} {m['name_ja']} / {m['name_en']}  (rules {', '.join(m['entry_rules'])})")
            for p in m.get("procedures", []):
                click.echo(f"    procedure {p['key']:<18} {p['title_ja']} / {p['title_en']}: {', '.join(p['steps'])}")
            for name, prop in m["schema"].get("properties", {}).items():
                click.echo(f"    {name:<28} {prop.get('title_ja', '')} / {prop.get('title_en', '')}"
                           + (f"  one of: {', '.join(prop['enum'])}" if "enum" in prop else ""))
        if not list_:
            fail_with(MissingParameter("name a mechanic to ask about"), as_json)
        return
    try:
        found = kb.ask(mechanic, given)
    except KBError as exc:
        fail_with(exc, as_json)
    emit(found, as_json, _print_ask)


def _print_procedure(p: dict) -> None:
    click.echo(f"{p['mechanic']}: {p['title_ja']} / {p['title_en']}  (CR {p['edition']})")
    for s in p["steps"]:
        click.echo(f"  {s['rule']:<9} {s['text_en']}")
        if s.get("text_ja"):
            click.echo(f"            {s['text_ja']}")
        click.echo(f"            [{s['citation']['locator']}]")


def _print_search(result: dict) -> None:
    import html
    import re as _re
    if result.get("goto"):
        click.echo(f"rule {result['goto']} → kb rule {result['goto']}")
    if result.get("goto_card"):
        card = result["goto_card"]
        click.echo(f"card {card['name_ja'] or ''} / {card['name_en'] or ''} → kb card \"{card['name_en'] or card['name_ja']}\"")
    if result.get("cards") and result.get("rules") is not None:
        click.echo("cards named: " + ", ".join(c["oracle_name"] + ("" if c.get("text_loaded", True) else
                                                                   " (text not loaded: not read)")
                                               for c in result["cards"]))
    elif result.get("cards"):  # a lookup: cards by name, part of a name or spelling
        click.echo("cards:")
        for c in result["cards"]:
            other = c["name_en"] if c["name"] != c["name_en"] else c.get("name_ja")
            click.echo(f"  {c['name']}" + (f" / {other}" if other else "") + f"  ({c['match']}, {c['score']:.0f})"
                       f"  → kb card \"{c['oracle_name']}\"")
            click.echo(f"        {cite(c.get('citation'))}")
    if result.get("rules"):
        click.echo("rules for this question:")
        for rule in result["rules"]:
            text = rule["text"] if len(rule["text"]) <= 110 else rule["text"][:109] + "…"
            click.echo(f"  {rule['number']:<9} {text}")
            click.echo(f"            {cite(rule['citation'])}  (via {', '.join(rule['via'])})")
            for why in rule.get("why", ()):
                said = {"question": "question says", "card": "card", "ruling": "ruling", "example": "CR example",
                        "rule": "referred to by"}[why["from"]]
                card = f" {why['card']}" if why.get("card") else ""
                phrase = f": \"{why['phrase']}\"" if why.get("phrase") else ""
                click.echo(f"            why: {said}{card}{phrase}  [{why['via']}]")
        click.echo("matches:")
    for hit in result["hits"]:
        snippet = visible(html.unescape(_re.sub(r"</?mark>", "*", hit["snippet"])))
        kind = hit["source_type"]["label"]["en"] if hit.get("source_type") else hit["kind"]
        click.echo(f"{hit['score']:6.2f}  {kind:<8} {hit['title']}")
        click.echo(f"        {snippet}")
        click.echo(f"        {cite(hit.get('citation'))}")


@main.command(help="Search rules, glossary, rulings, mechanics and cards, in Japanese or English.")
@click.argument("query")
@click.option("--lang", type=click.Choice(["ja", "en"]))
@click.option("--limit", default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def search(query, lang, limit, as_json) -> None:
    kb = load_kb()
    emit(answer(lambda: kb.search(query, lang=lang, limit=limit), RuleNotFound(f"nothing found for {query!r}"), as_json),
         as_json, _print_search)


QUOTE_CAVEATS = {  # one line per kind of comparison, printed once under the report
    "no-official-ja-text": "no loaded JA edition has these rules: the quote was read for input errors "
                           "against JA wording in the knowledge base, not compared with an official text",
    "no-official-ja-text-for-edition": "no JA text of the quoted edition is loaded: compared with the same "
                                       "rule's JA text in a later edition, so differences may be rule changes",
}
