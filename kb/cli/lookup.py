"""`kb rule`, `kb mechanic`, `kb card`, `kb path`."""
from __future__ import annotations

import click

from kb import rulenumbers
from kb.cli.group import answer, checked, cite, emit, fail_with, load_kb, main
from kb.errors import CardNotFound, KBError, MechanicNotFound, RuleNotFound


def _print_rule(r: dict) -> None:
    title = f" {r['title']}" if r.get("title") else ""
    click.echo(f"{r['number']}{title}   (CR {r['edition'] or 'quoted only'})")
    for t in r["texts"]:
        label = f" {t['label']}" if t.get("label") else ""
        if t.get("other_edition"):  # a translation of another edition, said as such
            label += f" — {t['other_edition']['label']['en']}"
        click.echo(f"  [{t['lang']}{label}] {t['text']}")
        click.echo(f"       {cite(t['citation'])}")
        changed = [c for c in t.get("en_changed") or [] if not c["numbers_only"]]
        for c in changed:
            click.echo(f"       EN text changed in CR {c['edition']} ({c['from']} -> {c['number']}) after this translation")
        for f in t.get("reference_fixes") or []:
            meant = (f"meant {f['meant']}" + (f" (today {f['meant_today']})" if f.get("meant_today") else "")
                     if f["meant"] else "unresolved, not linked")
            click.echo(f"       {f['raw']}: the number disagrees with its 〔title〕: {meant}")
        before = [c for c in t.get("en_changed_before") or [] if not c["numbers_only"]]
        for c in before:
            click.echo(f"       EN text of CR {r['edition']} changed in CR {c['edition']} ({c['from']} -> {c['number']}), "
                       f"before the translated CR {t['edition']}")
        if t.get("kind") == "official" and t["edition"] < (r["edition"] or "") and not changed:
            click.echo(f"       EN wording unchanged since CR {t['edition']}")
        elif t.get("kind") == "official" and t["edition"] > (r["edition"] or "") and not before:
            click.echo(f"       EN wording of CR {r['edition']} the same as in CR {t['edition']} (numbers aside)")
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
    checked(lambda: rulenumbers.canonical(number))  # "abc" is bad input with or without a snapshot
    kb = load_kb()
    try:
        found = kb.rule(number, edition, lang)
    except KBError as exc:
        fail_with(exc, as_json)
    if found is None:
        suggestions = kb.suggest(number, edition)
        hint = "; ".join(f"in CR {f['edition']} {f['number']} is today's "
                         f"{f['current']['number'] if f['current'] else '(removed)'}" for f in kb.formerly(number))
        fail_with(RuleNotFound(f"no rule {number} in CR {edition or kb.current_edition()}"
                               + (f"; close: {', '.join(suggestions)}" if suggestions else "") + (f"; {hint}" if hint else ""),
                               suggestions=suggestions), as_json)
    emit(found, as_json, _print_rule)


def _source(r: dict) -> str:
    """What a statement is as a source, both languages: "Wiki解説 / wiki commentary"."""
    label = r["source_type"]["label"]
    return f"{label['ja']} / {label['en']}"


def _print_mechanic(m: dict) -> None:
    miss, source = m.get("ja_missing"), m.get("ja_source")
    if m["name"]["ja"] is None and miss:  # say why there is no JA name, never a blank
        ja = ("和訳なし（" + (f"{miss['translation']} より後の追加: CR {miss['added_in']}" if miss.get("added_in")
                           else f"{miss['translation']} より後の追加" if miss["reason"] == "newer-than-translation"
                           else f"{miss['label']} に対応する語なし") + "）")
    else:
        ja = m["name"]["ja"] or ""
    click.echo(f"{ja} / {m['name']['en']}   ({m['kind']}, key {m['key']})")
    if source and source.get("how") != "glossary":
        click.echo(f"  JA name from: {source['label']} rule {source['rule']} ({source['how']})")
    elif source:
        click.echo(f"  JA name from: {source['label']} glossary 「{source['term']}／{source['term_en']}」")
    aliases = m["aliases"]["en"] + m["aliases"]["ja"]
    if aliases:
        click.echo(f"  also: {', '.join(aliases)}")
    click.echo("  rules:")
    for r in m["rules"]:
        ja = bool(r.get("text_ja"))
        click.echo(f"    {r['number']}  {(r['text_ja'] if ja else r['text_en'])[:110]}  {cite(r['citation_ja' if ja else 'citation'])}")
    if m["related"]:
        click.echo("  related: " + ", ".join(f"{x['name_ja'] or ''}/{x['name_en']}" for x in m["related"]))
    if m["cards"]:
        click.echo("  cards: " + ", ".join(f"{c['name_ja'] or '?'} / {c['name_en'] or '?'}" for c in m["cards"][:12]))
    click.echo(f"  rulings ({len(m['rulings'])}):")
    for r in m["rulings"][:20]:
        old = r.get("superseded")
        mark = f"[{old['label']['ja']} — 現行 {old['current_rule']}] " if old and old.get("current_rule") else ""
        src = f"[{_source(r)}] " if r.get("source_type") else ""
        click.echo(f"    - {src}{mark}{(r.get('display') or r['text'])[:100]}")  # wiki markup stripped for reading
        click.echo(f"      {cite(r['citation'])}")
    if len(m["rulings"]) > 20:
        click.echo(f"    … {len(m['rulings']) - 20} more (--json for all)")


@main.command(help="Look up a mechanic by any JA/EN name: kb mechanic 予示")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
def mechanic(name, as_json) -> None:
    kb = load_kb()
    emit(answer(lambda: kb.mechanic(name), MechanicNotFound(f"no mechanic named {name!r}"), as_json), as_json, _print_mechanic)


def _print_face(face: dict, indent: str) -> None:
    stats = "/".join(x for x in (face.get("power"), face.get("toughness")) if x is not None)
    extra = "  ".join(x for x in (stats, face.get("loyalty") and f"loyalty {face['loyalty']}",
                                  face.get("defense") and f"defense {face['defense']}") if x)
    value = face.get("mana_value")
    cost = f"  {face['mana_cost']} (mana value {value:g})" if face.get("mana_cost") else ""
    click.echo(f"{indent}{face['name_ja'] or ''}{' / ' if face['name_ja'] else ''}{face['name']}{cost}")
    click.echo(f"{indent}  {face.get('type_ja') or ''}{' / ' if face.get('type_ja') else ''}{face.get('type_line') or ''}"
               + (f"  {extra}" if extra else ""))
    for label, text in (("ja", face.get("text_ja")), ("en", face.get("text"))):
        for line in (text or "").splitlines():
            click.echo(f"{indent}  [{label}] {line}")


def _print_card(c: dict) -> None:
    click.echo(f"{c['name_ja'] or '?'} / {c['name_en'] or '?'}"
               + (f"   ({c['layout']}{', sets ' + ' '.join(c['sets'][:12]) if c['sets'] else ''})" if c.get("layout") else ""))
    if c.get("not_loaded"):  # say it, and how to load it: never a card that looks empty
        miss = c["not_loaded"]
        click.echo(f"  {miss['message']['ja']}\n  {miss['message']['en']}")
        for s in miss["names_from"]:
            click.echo(f"    names from: {s.get('document_title') or s['document']}")
        click.echo(f"  to load card text: {miss['fetch']}")
    faces = c.get("faces") or []
    for i, face in enumerate(faces):
        if len(faces) > 1:
            click.echo(f"  face {face.get('side') or i + 1}:")
        _print_face(face, "    " if len(faces) > 1 else "  ")
    if c.get("meld"):
        fronts = " + ".join(f"{f['name_ja'] or ''}/{f['name_en']}" for f in c["meld"]["fronts"])
        result = c["meld"]["result"]
        click.echo(f"  meld: {fronts} -> {result['name_ja'] or ''}/{result['name_en']}")
    if c.get("keywords"):
        click.echo("  keywords: " + ", ".join(c["keywords"]))
    if c["mechanics"]:
        click.echo("  mechanics: " + ", ".join(f"{m['name_ja'] or ''}/{m['name_en']}" for m in c["mechanics"]))
    for r in c.get("rules", [])[:12]:
        click.echo(f"  rule {r['number']}  “{r['phrase']}” → {r['text'][:70]}  [CR {r['edition']}]")
    if c.get("rulings"):
        click.echo(f"  official rulings ({len(c['rulings'])}):")
        for r in c["rulings"]:
            click.echo(f"    {r['date'] or '(undated)'}  {r['text']}")
            if r["rules"]:
                click.echo("      rules: " + ", ".join(x["number"] for x in r["rules"]))
        click.echo(f"    [{cite(c['rulings'][0]['citation'])}]")
    if c.get("related"):
        click.echo("  related: " + ", ".join(f"{x['name_ja'] or ''}/{x['name_en'] or ''}" for x in c["related"][:10]))
    for m in c["mentions"]:
        src = f"[{_source(m)}] " if m.get("source_type") else ""
        click.echo(f"  - {src}{(m.get('display') or m['text'])[:100]}\n    {cite(m['citation'])}")
    for s in c["sources"]:
        click.echo(f"  source: {s['document_title']}")


@main.command(help='Look up a card by its JA or EN name: kb card "Meddling Mage"')
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
def card(name, as_json) -> None:
    kb = load_kb()
    emit(answer(lambda: kb.card(name), CardNotFound(f"no card named {name!r}"), as_json), as_json, _print_card)


def _print_path(p: dict) -> None:
    def name(node: dict) -> str:
        if node.get("number"):
            return f"{node['number']} (CR {node['edition']}{', JA' if node.get('lang') == 'ja' else ''})"
        return " / ".join(x for x in (node.get("label_ja"), node.get("label")) if x) or node["id"]
    if not p["paths"]:
        click.echo(p["note"])
        return
    for index, path in enumerate(p["paths"], 1):
        click.echo(f"path {index} ({len(path)} edges):")
        click.echo(f"  {name(p['nodes'][path[0]['from']])}")
        for step in path:
            arrow = "─→" if step["direction"] == "forward" else "←─"
            evidence = step["evidence"]
            where = evidence.get("locator") or evidence.get("how") or ""
            if evidence.get("as_written"):
                where = f"“{evidence['as_written']}” {where}"
            click.echo(f"    {arrow} {step['edge']}  [{where}]")
            click.echo(f"  {name(p['nodes'][step['to']])}")


@main.command(help="How two rules, mechanics or cards connect: kb path 601.2c 702.145b (shortest typed "
                   "paths in the graph, each edge with its source)")
@click.argument("source")
@click.argument("target")
@click.option("--limit", default=3, show_default=True, help="how many shortest paths")
@click.option("--json", "as_json", is_flag=True)
def path(source, target, limit, as_json) -> None:
    kb = load_kb()
    emit(answer(lambda: kb.paths_between(source, target, limit=limit), RuleNotFound("no path"), as_json), as_json, _print_path)
