"""Rules for real questions: the cards a question names, their expansion, fusion, the CR's links,
and the dense retriever (kb.search.cardnames, kb.search.retrieval, kb.search.dense)."""
from __future__ import annotations

import numpy as np
import pytest

from kb.search import dense
from kb.search.cardnames import CardNames
from kb.search.retrieval import Retriever, is_question, rule_links


@pytest.fixture(scope="module")
def names(full_kb):
    return CardNames(full_kb.model)


def _keys(names, text):
    return [names.model.cards[c.key]["oracle_name"] for c in names.find(text)]


def test_cards_found_by_english_name_at_word_boundaries(names):
    assert _keys(names, "Can Urza, Lord Protector's ability reduce the cost of Lightning Bolt?") == [
        "Urza, Lord Protector", "Lightning Bolt"]
    assert _keys(names, "My opponent's Lightning Boltsmith") == []  # not the card: a word goes on


def test_a_card_name_used_as_a_verb_or_a_plural_is_that_card(names):
    # players say "Bolts it", "Unsummons their Wall", "Disenchanted": the same card, and its
    # ending is blanked with the name so that "s" is no word of the question
    assert _keys(names, "In response my opponent Lightning Bolts one of them") == ["Lightning Bolt"]
    assert _keys(names, "my opponent then Unsummons their own Wall") == ["Unsummon"]
    found = names.find("They Disenchanted The Mightstone and Weakstone.")
    assert [names.model.cards[c.key]["oracle_name"] for c in found] == ["Disenchant", "The Mightstone and Weakstone"]
    assert CardNames.without_names("They Disenchanted it.", names.find("They Disenchanted it.")).split() == ["They", "it."]


def test_cards_found_by_japanese_name_with_or_without_brackets(names):
    assert _keys(names, "《護国卿、ウルザ》の能力で《稲妻》のコストは減りますか？") == ["Urza, Lord Protector", "Lightning Bolt"]
    assert "Urza, Lord Protector" in _keys(names, "護国卿、ウルザがいるとき")


def test_expansion_says_what_a_named_card_is(names):
    bolt = names.find("Lightning Bolt to the face")
    text, rules = names.expansion(bolt)
    assert "Instant" in text and "damage" in text and "Lightning Bolt" not in text
    urza = names.find("Urza, Lord Protector melds")
    text, rules = names.expansion(urza)
    assert "Meld" in text or "meld" in text
    assert any(r.startswith("701.42") or r.startswith("712") for r in rules), rules


def test_rule_links_follow_the_crs_own_references(full_kb):
    links = rule_links(full_kb.model)
    assert "603.4" in links["608.2a"]  # "See rule 603.4"
    assert "608.2" not in links.get("608.2b", ())  # not the parent: a judge cites the subrule
    assert all("." in t for targets in links.values() for t in targets)  # never a section or chapter heading


def test_question_or_lookup():
    assert not is_question("Lightning Bolt")
    assert is_question("Does Lightning Bolt resolve if its target is gone?")
    assert not is_question("稲妻")
    assert is_question("対象が場を離れたら稲妻は解決されますか？打ち消されますか？")


def test_named_cards_bring_the_rules_their_text_uses(full_kb):
    """The keyword action a named card's text uses (Urza's "meld them": 701.42 Meld) is found
    through the card; BM25 over the question's words alone leaves it out of the top 10."""
    q = ("I control Urza, Lord Protector and The Mightstone and Weakstone. How do I meld them, "
         "and what is the melded card's mana value?")
    without = [h.number for h in Retriever(full_kb.search_index).search(q, limit=10).rules]
    found = Retriever(full_kb.search_index, cards=CardNames(full_kb.model),
                      links=rule_links(full_kb.model)).search(q, limit=30)
    assert [c.name for c in found.cards] == ["Urza, Lord Protector", "The Mightstone and Weakstone"]
    hit = next(h for h in found.rules if h.number == "701.42")
    assert "card_rules" in hit.sources and "701.42" not in without
    assert "701.42a" in [h.number for h in found.rules][:5]  # meld's definition, cited by a judge


def test_one_hit_per_rule_numbered_as_today(full_kb):
    current = full_kb.model.current("en")
    found = full_kb.retriever(dense=False).search("稲妻で対象のクリーチャーにダメージを与え、そのクリーチャーが死亡したら何が起きますか", 20)
    numbers = [h.number for h in found.rules]
    assert len(numbers) == len(set(numbers)) == 20
    assert all(("en", current, n) in full_kb.model.rules for n in numbers)


def test_search_answers_a_question_with_rules_and_the_cards_it_names(full_kb):
    out = full_kb.search("《護国卿、ウルザ》と《マイトストーンとウィークストーン》を合体させたら、マナ総量はいくつになりますか？")
    assert [c["oracle_name"] for c in out["cards"]] == ["Urza, Lord Protector", "The Mightstone and Weakstone"]
    # each named card cited by its card data record, as a lookup's cards are
    assert all(c["citation"]["document"] == "cards-mtgjson-set-BRO" and c["citation"]["locator"].startswith(
        "mtgjson-set-BRO.json /cards/") for c in out["cards"])
    current = full_kb.model.current("en")
    assert all(r["citation"]["edition"] == current and r["citation"]["rule"] == r["number"] for r in out["rules"])
    assert "712.5e" in [r["number"] for r in out["rules"]][:10]  # a melded permanent's mana value
    assert "rules" not in full_kb.search("Lightning Bolt")  # a name is a lookup: hits only


def test_long_questions_are_accepted(full_kb):
    q = "Grizzly Bears attacks and my opponent blocks with Llanowar Elves. " * 40
    assert 2000 < len(q) <= 4000
    assert full_kb.search(q)["rules"]


def test_dense_vectors_round_trip_and_meet_a_japanese_question(tmp_path):
    passages = ["603.2 Handling Triggered Abilities: Whenever a game event or game state matches a "
                "triggered ability's trigger event, that ability automatically triggers.",
                "107.4 Numbers and Symbols: The mana symbols are {W}, {U}, {B}, {R}, {G}, and {C}.",
                "510.2 Combat Damage Step: Each attacking and blocking creature assigns combat damage."]
    vectors = dense.embed_passages(passages, tmp_path)
    assert vectors.shape == (3, dense.DIM) and vectors.dtype == np.float16
    assert list(tmp_path.glob("dense-*.npz"))  # cached by text: a rebuild embeds nothing again
    again = dense.embed_passages(list(reversed(passages)), tmp_path)
    assert np.array_equal(again[0], vectors[2])
    index = dense.DenseIndex.loads(dense.DenseIndex(["603.2", "107.4", "510.2"], vectors).dumps())
    assert index.search("誘発型能力はいつ誘発しますか？", limit=3)[0][0] == "603.2"
    assert index.search("How is combat damage assigned by blockers?", limit=1)[0][0] == "510.2"


def test_ranking_without_snippets_is_the_same_ranking(full_kb):
    """The question retriever asks the index for hits without snippets (they were a third of its
    time): the same documents in the same order, only the snippet left empty."""
    q = "My opponent casts Lightning Bolt on my Grizzly Bears and I respond with Giant Growth"
    with_snippets = full_kb.search_index.search(q, kinds={"rule"}, limit=30)
    bare = full_kb.search_index.search(q, kinds={"rule"}, limit=30, snippets=False)
    assert [h.doc.id for h in bare] == [h.doc.id for h in with_snippets]
    assert all(h.snippet == "" for h in bare) and any(h.snippet for h in with_snippets)


def test_defined_terms_bring_the_rules_the_glossary_cites_for_a_questions_words(full_kb):
    """"resolves" names the glossary's Resolve (see rule 608): its subrules come ordered by the
    question's own words, so an illegal target on resolution reaches 608.2b; a Japanese question
    reaches the same rules through the JA glossary's 解決 and its English term, numbered as today."""
    from kb.search.terms import DefinedTerms
    terms = DefinedTerms(full_kb.search_index, full_kb.model)
    current = full_kb.model.current("en")
    en = terms.rules("My Lightning Bolt resolves, but its target is now an illegal target. What happens?")
    assert "608.2b" in en[:10], en
    ja = terms.rules("稲妻が解決される時に、対象が不正な対象になっていたらどうなりますか？")
    assert any(n.startswith("608.") for n in ja[:5]), ja
    assert all(("en", current, n) in full_kb.model.rules for n in en + ja)
    assert terms.rules("Grizzly Bears") == terms.rules("") == []  # a name of no game term: nothing


def test_the_hybrid_lists_the_defined_terms_it_used(full_kb):
    found = full_kb.retriever(dense=False).search(
        "My opponent's spell resolves after its only target left the battlefield in response", limit=10)
    assert any("terms" in h.sources for h in found.rules)


def test_the_game_terms_of_the_named_cards_text_bring_the_rules_the_glossary_cites(full_kb):
    """Misery's Shadow's text says "would die, exile it instead": a question naming it but never
    saying "instead" gets the replacement-effect rules the glossary's Instead cites (614), which
    the question's own terms do not bring; a question naming no card gets no such list, and the
    rules are shown to a user as defined terms."""
    retriever = full_kb.retriever(dense=False)
    q = "My opponent controls Misery's Shadow and I destroy their Grizzly Bears. Where do the Bears go?"
    lists = retriever.lists(q)[0]
    assert any(n.startswith("614.") for n in lists["card_terms"][:5]), lists["card_terms"]
    assert not any(n.startswith("614.") for n in lists["terms"]), lists["terms"]
    current = full_kb.model.current("en")
    assert all(("en", current, n) in full_kb.model.rules for n in lists["card_terms"])
    found = retriever.search(q, limit=10).rules
    assert any("card_terms" in h.sources for h in found)
    assert all("card_terms" not in h.via for h in found) and any("terms" in h.via for h in found)
    assert "card_terms" not in retriever.lists("If a creature would die and is exiled instead, what happens?")[0]


def test_question_rules_carry_their_ja_en_titles_and_both_citations(full_kb):
    out = full_kb.search("《護国卿、ウルザ》と《マイトストーンとウィークストーン》を合体させたら、マナ総量はいくつになりますか？")
    assert [c["name_ja"] for c in out["cards"]] == ["護国卿、ウルザ", "マイトストーンとウィークストーン"]
    melded = next(r for r in out["rules"] if r["number"] == "712.5e")
    assert melded["title"] == {"en": "Double-Faced Cards", "ja": "両面カード"}
    assert melded["ja"]["text"].startswith("《マイトストーンとウィークストーン》")
    assert melded["ja"]["citation"]["edition"] == full_kb.model.current("ja")
    assert melded["citation"]["edition"] == full_kb.model.current("en")


def test_a_named_cards_official_rulings_bring_the_rules_they_are_written_in(full_kb):
    """Urza, Lord Protector's rulings speak of melded permanents leaving the battlefield: a question
    naming the card reaches the meld rules through them, although it never says "meld"."""
    retriever = full_kb.retriever(dense=False)
    q = "My opponent bounces my Urza, Lord Protector with a spell. What happens to it?"
    named = retriever.cards.find(q)
    assert "melded" in retriever.cards.rulings_text(named)
    found = retriever.search(q, limit=10)
    assert any("rulings" in h.sources and (h.number.startswith("712.") or h.number.startswith("701.42"))
               for h in found.rules), [(h.number, h.sources) for h in found.rules]
    assert retriever.cards.rulings_text(retriever.cards.find("I cast Lightning Bolt at my opponent's face")) == ""


def test_the_rulings_most_like_the_question_bring_the_rules_that_decide_it(full_kb):
    """Of a named card's rulings, those sharing the question's words are each asked as their own
    query: a question about a melded Urza leaving the battlefield reaches 712.21 through the ruling
    about melded permanents, one about its cost reduction reaches the cost-reduction rule instead."""
    retriever = full_kb.retriever(dense=False)
    leaves = retriever.lists("My Urza, Lord Protector is melded. If the melded permanent leaves the "
                             "battlefield, what happens to the two cards?")[0]["ruled"]
    costs = retriever.lists("Does Urza, Lord Protector's ability reduce the colored mana in the costs "
                            "of the spells I cast?")[0]["ruled"]
    assert "712.21" in leaves and "712.21" not in costs
    assert "118.7c" in costs[:3] and "118.7c" not in leaves
    found = retriever.search("My Urza, Lord Protector is melded. If the melded permanent leaves the "
                             "battlefield, what happens to the two cards?", limit=10)
    assert any(h.number == "712.21" and "ruled" in h.sources for h in found.rules)
    assert all("ruled" not in h.via for h in found.rules)  # a user is told "card rulings" for both lists
    assert "rulings" in next(h for h in found.rules if h.number == "712.21").via
    assert "ruled" not in retriever.lists("I cast Lightning Bolt at my opponent's face, what happens?")[0]


def test_rulings_of_cards_the_question_never_names_bring_the_rules_of_the_same_situation(full_kb):
    """A question that names no card still meets the card data's rulings about its situation (the
    rarest words it shares with them): asked whether a 'dies' trigger happens when the creature is
    exiled instead, it finds Misery's Shadow's ruling on exactly that, and the rules that ruling's
    text finds join the answer, told to a user as card rulings. A Japanese question, which shares
    no English words with the rulings, gets no such list."""
    retriever = full_kb.retriever(dense=False)
    q = ("If a creature an opponent controls would die and it is exiled instead, does my ability "
         "that triggers when it dies still trigger?")
    assert retriever.cards.find(q) == []
    key, i = retriever.similar.like(q, 3)[0]
    assert key == "misery-s-shadow"
    assert "aren’t being put into a graveyard" in retriever.cards.ruling_texts_of(key)[i]
    lists = retriever.lists(q)[0]
    its_rules = retriever.similar.rules_of(full_kb.search_index, key, i)
    assert lists["similar"][0] == its_rules[0] and set(its_rules) <= set(lists["similar"])  # best ruling first
    found = retriever.search(q, limit=10)
    from_rulings = [h for h in found.rules if "similar" in h.sources]
    assert from_rulings and all("rulings" in h.via and "similar" not in h.via for h in from_rulings)
    current = full_kb.model.current("en")
    assert all(("en", current, n) in full_kb.model.rules for n in lists["similar"])
    assert "similar" not in retriever.lists("相手がコントロールするクリーチャーが死亡する代わりに追放されたら、"
                                            "死亡したときの能力は誘発しますか？")[0]


def test_prepared_rulings_rules_are_what_a_question_would_find_and_none_is_computed_after(full_kb, monkeypatch):
    """Before serving, every card ruling's rules are computed once (Retriever.prepare): for every
    card with rulings they equal what the index answers for that ruling's text, a ruling printed for
    several cards is asked once, and a question afterwards computes no ruling's rules itself."""
    from kb.memo import peek
    from kb.search import similar
    retriever = full_kb.retriever(dense=False)
    index = full_kb.search_index
    count = retriever.prepare()
    names = CardNames(full_kb.model)
    with_rulings = sorted(k for k, c in full_kb.model.cards.items() if c.get("rulings"))
    assert len(with_rulings) > 100 and count == sum(len(names.ruling_texts_of(k)) for k in with_rulings)
    texts = {t for k in with_rulings for t in names.ruling_texts_of(k)}
    assert len(texts) < count  # repeated texts (meld pairs) are one entry
    for key in with_rulings[::25]:
        for i, text in enumerate(names.ruling_texts_of(key)):
            assert peek(index, ("ruling-rules", text)) == similar.ruling_rules(index, text)
            assert retriever.similar.rules_of(index, key, i) == similar.ruling_rules(index, text)
    asked = []
    real = similar.ruling_rules
    monkeypatch.setattr(similar, "ruling_rules", lambda index, text: asked.append(text) or real(index, text))
    found = retriever.search("My Urza, Lord Protector is melded. If the melded permanent leaves the "
                             "battlefield, what happens to the two cards?", limit=10)
    assert asked == [] and any("ruled" in h.sources for h in found.rules)


def test_a_creature_dying_is_not_a_die_being_rolled(full_kb):
    from kb.search import tokenize as tk

    assert tk.en_stems("roll a six-sided die; the planar die; a die roll") == ["roll", "six", "side", "dice", "planar",
                                                                              "dice", "dice", "roll"]
    assert tk.en_stems("if a creature would die, creatures that die") == ["creatur", "die", "creatur", "die"]
    asked = full_kb.search("My creature with a dies trigger is exiled instead of dying because of Rest in Peace. "
                           "Does the ability trigger?")
    rules = [r["number"] for r in asked["rules"]]
    assert "700.4" in rules  # "dies" means put into a graveyard from the battlefield
    assert not [n for n in rules if n.startswith(("706", "901"))]  # Rolling a Die, the planar die
    rolled = full_kb.search("what happens when I roll a six-sided die", limit=5)
    assert any((h["rule"] or "").startswith("706") for h in rolled["hits"])
