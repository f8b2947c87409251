"""The model's texts the search documents' Japanese words come from (kb.search.docs), for the
build to analyse ahead (kb.search.tokenize.analyse_ahead) while the Sudachi dictionary is loaded
for the model's own steps, so the search index step runs without it (~170 MB less at the build's
peak). A document field joins these texts with spaces (a rule's expansions: its mechanics' JA
names, the JA texts citing it, its JA terms, the JA words learnt for its words), so its runs are
theirs; a run missed here is analysed when met, loading the dictionary: slower, never different."""
from __future__ import annotations

from collections.abc import Iterator

from kb.parse.card_mentions import find_slash_names
from kb.store.rows import Model


def japanese_texts(model: Model) -> Iterator[str]:
    for info in model.editions.values():
        if info["lang"] == "ja":
            for rule in model.rules.edition("ja", info["edition"]).values():
                yield rule["text"]
                yield from (x["text"] for x in rule["examples"])
    for alignment in model.ja_alignment.values():
        yield alignment.get("label") or ""
    yield "和訳"  # the label of a translation without one (kb.search.docs)
    for (_, _, term), entry in model.glossary.items():
        yield term
        yield entry["text"]
    for document in model.documents.values():
        yield document["title"]
    for statement in model.statements():
        yield statement["text"]
        yield statement["locator"]["section"]
        yield from (card.get("name_en") or "" for card in statement.get("cards", ()))
        if model.documents.get(statement["document"], {}).get("lang") == "ja":
            yield from (pair.ja for pair in find_slash_names(statement["text"]))
    for m in model.mechanics.values():
        yield from (n for n in [m["name_ja"], *m["aliases_ja"]] if n)
    for card in model.cards.values():
        if card["mentions"] and card["name_ja"]:
            yield card["name_ja"]
    current = model.current("en")
    for refs in model.refs_in.edition("en", current).values() if current else ():
        yield from (ref["text"] for ref in refs if ref.get("text"))
