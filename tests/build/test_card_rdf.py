"""The card graph in the KB's Oxigraph store: a card found by its Japanese label, its faces and
meld partners, and its dated official rulings (mtg:Ruling mtg:rulingOn the card) with where they
were read."""
from __future__ import annotations

PREFIXES = """PREFIX mtg: <https://w3id.org/mtg-kb/vocab#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX dcterms: <http://purl.org/dc/terms/>
"""


def _select(full_kb, query: str) -> list[dict]:
    rows = full_kb.store.query(PREFIXES + query)
    names = [v.value for v in rows.variables]
    return [{n: (row[n].value if row[n] is not None else None) for n in names} for row in rows]


def test_sparql_finds_the_card_by_its_japanese_name_and_its_rulings(full_kb):
    rows = _select(full_kb, """
        SELECT ?card ?en ?date ?text ?where WHERE {
          ?card a mtg:Card ; rdfs:label "護国卿、ウルザ"@ja ; mtg:nameEn ?en .
          ?ruling a mtg:Ruling ; mtg:rulingOn ?card ; dcterms:date ?date ; mtg:text ?text ; mtg:locator ?where .
        } ORDER BY ?where""")
    assert len(rows) == 13 and {r["en"] for r in rows} == {"Urza, Lord Protector"}
    assert {r["date"] for r in rows} == {"2022-10-14"}
    first = next(r for r in rows if r["where"] == "mtgjson-set-BRO.json /cards/225/rulings/0")
    assert first["text"] == "Urza, Lord Protector’s first ability can’t reduce the colored mana costs of spells you cast."


def test_sparql_faces_and_meld(full_kb):
    faces = _select(full_kb, """
        SELECT ?side ?name ?loyalty WHERE {
          ?card a mtg:Card ; mtg:nameEn "Urza, Lord Protector"@en ; mtg:hasFace ?f .
          ?f mtg:faceSide ?side ; rdfs:label ?name . FILTER(lang(?name) = "en")
          OPTIONAL { ?f mtg:loyalty ?loyalty }
        } ORDER BY ?side""")
    assert [(r["side"], r["name"], r["loyalty"]) for r in faces] == [
        ("a", "Urza, Lord Protector", None), ("b", "Urza, Planeswalker", "7")]
    meld = _select(full_kb, """
        SELECT ?with ?into WHERE {
          ?card mtg:nameEn "Urza, Lord Protector"@en ; mtg:meldsWith/mtg:nameEn ?with ; mtg:meldsInto/mtg:nameEn ?into .
        }""")
    assert [(r["with"], r["into"]) for r in meld] == [("The Mightstone and Weakstone", "Urza, Planeswalker")]


def test_every_card_ruling_is_on_a_card(full_kb):
    rows = _select(full_kb, """
        SELECT (COUNT(?r) AS ?n) (COUNT(?card) AS ?on) WHERE {
          ?r mtg:rulingKind "card-ruling" . OPTIONAL { ?r mtg:rulingOn ?card . ?card a mtg:Card }
        }""")
    assert int(rows[0]["n"]) == int(rows[0]["on"]) == len(full_kb.model.card_rulings) > 1000


def test_a_keyword_action_is_read_only_where_it_is_a_verb(full_kb):
    """"counters" on a creature is no Counter (701.6): a card or ruling that puts +1/+1 counters
    never links to the keyword action, one that counters a spell does."""
    from kb.build.cards import _Names
    names = _Names(full_kb.model)
    assert names.in_text("Put two +1/+1 counters on target creature.") == []
    assert names.in_text("Remove a loyalty counter from it.") == []
    assert "counter" in names.in_text("Counter target spell.")
    assert "counter" in names.in_text("This spell can't be countered.")
    assert "exile" not in names.in_text("You may cast it from exile.")
    counters = [c for c in full_kb.model.cards.values() if "faces" in c and any(
        "+1/+1 counter" in (f.get("text") or "") and "counter target" not in (f.get("text") or "").lower()
        and "countered" not in (f.get("text") or "") for f in c["faces"])]
    assert counters and not any("701.6" in c["rules"] for c in counters)
