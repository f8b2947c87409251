"""Every parser in kb.parse, fed mutated real inputs (fixed seeds, a time bound per parser): it either
parses or raises its declared error, which names the document and the line or record — never a
KeyError/TypeError/AttributeError from inside (the build turns the declared error into a clear
"file:line: message"). Mutations: lines dropped, duplicated, cut, characters inserted, the text
truncated; for JSON card data also fields removed or given values of the wrong type."""
from __future__ import annotations

import json
import random
import time

import pytest

from kb.parse import article, faq, mtgjson, wiki_page, wiki_source
from kb.parse.card_data import CardDataError, parse_names_tsv, parse_wiki_name_table
from kb.parse.cr_en import CRFormatError, parse_cr_en
from kb.parse.cr_ja import parse_cr_ja
from kb.parse.records import Document
from tests.shared_data import require_data
from tests.parse.samples import DOCS
from tests.server.corpus import JA_FILE, excerpt, excerpt_ja

SECONDS, MIN_INPUTS, MAX_INPUTS = 1.0, 10, 400  # per parser: at least MIN_INPUTS, then until the time or MAX_INPUTS
INSERTS = ["\t", " ", ".", "a", "1", "\x00", "\ufeff", "」", "【", "==", "[[", "]]", "//", "\r", "601.2c"]
WRONG = [None, 0, 1.5, True, "", "x", [], {}, [1], {"a": 1}, "undefined"]


def mutate_text(rng: random.Random, text: str) -> str:
    lines = text.splitlines(True)
    if not lines:
        return text
    i, op = rng.randrange(len(lines)), rng.randrange(5)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(rng.randrange(len(lines)), lines[i])
    elif op == 2:
        return text[:rng.randrange(len(text) + 1)]
    elif op == 3:
        j = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:j] + rng.choice(INSERTS) + lines[i][j:]
    else:
        lines[i] = lines[i][rng.randrange(len(lines[i]) + 1):]
    return "".join(lines)


def mutate_json(rng: random.Random, value):
    if isinstance(value, dict) and value and rng.random() < 0.8:
        value, key = dict(value), rng.choice(list(value))
        roll = rng.random()
        if roll < 0.3:
            del value[key]
        elif roll < 0.6:
            value[key] = rng.choice(WRONG)
        else:
            value[key] = mutate_json(rng, value[key])
        return value
    if isinstance(value, list) and value and rng.random() < 0.8:
        value, i = list(value), rng.randrange(len(value))
        value[i] = mutate_json(rng, value[i]) if rng.random() < 0.6 else rng.choice(WRONG)
        return value
    return rng.choice(WRONG)


def _doc(text: str, kind: str, id_: str = "fuzzed") -> Document:
    return Document(id_, "fuzzed input", kind, "ja", f"{id_}.txt", text)


def _mtgjson(text: str):
    from kb.sources.cards import detect

    doc = _doc(text, "card-data")
    obj = mtgjson.load(text, doc)
    fmt = detect(obj)
    return mtgjson.parse(obj, doc, fmt) if fmt in mtgjson.FORMATS else None


def _seeds() -> dict:
    data = require_data()
    en = excerpt((data / "cr-en-20260619.txt").read_bytes().decode("utf-8-sig"))
    ja = excerpt_ja((data / JA_FILE).read_text(encoding="utf-8"))
    bro = json.loads((data / "cards" / "mtgjson-set-BRO.json").read_text(encoding="utf-8"))
    bro["cards"] = bro["cards"][:20]
    wiki = json.loads((data / "cards" / "ja-card-names-mtgwiki-20250922.json").read_text(encoding="utf-8"))[:60]
    tsv = "\n".join((data / "cards" / "mtgjson-set-BRO-names-en-ja.tsv").read_text(encoding="utf-8").splitlines()[:40])

    def json_input(value):
        return lambda rng: (json.dumps(mutate_json(rng, value)) if rng.random() < 0.8
                            else mutate_text(rng, json.dumps(value, indent=1, ensure_ascii=False)))

    card_error = (CardDataError,)
    out = {  # name -> (parse(text), make(rng) -> text, declared error types)
        "cr_en": (lambda t: parse_cr_en(t, _doc(t, "cr")), lambda rng: mutate_text(rng, en), (CRFormatError,)),
        # a JA file with no effective-date line and no edition: a ValueError naming the document
        "cr_ja": (lambda t: parse_cr_ja(t, _doc(t, "cr")), lambda rng: mutate_text(rng, ja), (ValueError,)),
        # as the build reads it: parsed JSON, its format told by its content (kb.sources.cards.detect:
        # JSON that is no card data is not a source), then kb.parse.mtgjson.parse
        "mtgjson_set": (_mtgjson, json_input(bro), card_error),
        "wiki_name_table": (lambda t: parse_wiki_name_table(t, _doc(t, "card-data")), json_input(wiki), card_error),
        "names_tsv": (lambda t: parse_names_tsv(t, _doc(t, "card-data")), lambda rng: mutate_text(rng, tsv), card_error),
    }
    modules = {"wiki-source": wiki_source, "wiki-page": wiki_page, "faq": faq, "article": article}
    for name, doc in DOCS.items():
        def parse(t, doc=doc):
            return modules[doc.kind].parse(t, Document(doc.id, doc.title, doc.kind, doc.lang, doc.path, t,
                                                       quotes_edition=doc.quotes_edition))
        out[f"{doc.kind}:{name}"] = (parse, lambda rng, doc=doc: mutate_text(rng, doc.text), ())
    return out


SEEDS = _seeds()


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_a_parser_raises_only_its_declared_error_naming_where(name):
    parse, make, declared = SEEDS[name]
    rng = random.Random(f"issue-14:{name}")
    deadline, tried, refused = time.monotonic() + SECONDS, 0, 0
    while tried < MAX_INPUTS and (tried < MIN_INPUTS or time.monotonic() < deadline):  # a busy machine still tries MIN_INPUTS
        text = make(rng)
        tried += 1
        try:
            parse(text)
        except declared as exc:
            refused += 1
            message = str(exc)
            assert type(exc) in declared, f"{type(exc).__name__} ({message}) for input {tried}"
            if isinstance(exc, CRFormatError):
                assert exc.line and message.startswith(f"line {exc.line}: ")
            elif isinstance(exc, CardDataError):
                assert message.startswith("fuzzed: ")
                assert exc.record or exc.line or "expected" in message or "should be" in message, message
            else:
                assert message.startswith("fuzzed: "), message


def test_card_data_errors_name_the_record_and_what_is_wrong():
    doc = _doc("", "card-data", "cards-x")
    records = [{"name": "Fire", "jpname": "火"}, {"jpname": "氷"}, {"name": "Ice"}]
    with pytest.raises(CardDataError, match=r"^cards-x: record 2: no 'name' field$"):
        parse_wiki_name_table(json.dumps(records), doc)
    ok = {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "layout": "split"}
    with pytest.raises(CardDataError, match=r"^cards-x: record 2: /data/cards/1: 'name' should be a non-empty "
                                            r"string, not 7$") as error:
        mtgjson.parse({"data": {"code": "X", "cards": [ok, {"name": 7}]}}, doc, "mtgjson-set")
    assert error.value.record == 2
    with pytest.raises(CardDataError, match=r"^cards-x: record 1: /data/cards/0: 'rulings' should be a list of "
                                            r"objects, not 'x'$"):
        mtgjson.parse({"data": {"code": "X", "cards": [ok | {"rulings": ["x"]}]}}, doc, "mtgjson-set")
    with pytest.raises(CardDataError, match=r"^cards-x: record 3: /data/B/1: 'manaValue' should be a number"):
        mtgjson.parse({"data": {"A": [ok], "B": [ok, ok | {"manaValue": "3"}]}}, doc, "mtgjson-atomic")
    with pytest.raises(CardDataError, match=r"^cards-x: expected an MTGJSON set object with a 'cards' list$"):
        mtgjson.parse({"data": {"code": "X", "cards": {}}}, doc, "mtgjson-set")
    with pytest.raises(CardDataError, match=r"^cards-x: line 2: not JSON"):
        mtgjson.load('{"data":\n  ]', doc)
    with pytest.raises(CardDataError, match=r"^cards-x: line 2: not JSON") as error:
        parse_wiki_name_table('[\n{"name": }]', doc)
    assert error.value.line == 2
    names = parse_wiki_name_table(json.dumps(records[:1] + records[2:]), doc)
    assert [(n.name_en, n.name_ja) for n in names] == [("Fire", "火"), ("Ice", None)]


def test_a_malformed_mtgjson_file_stops_the_build_naming_file_and_record(tmp_path):
    from kb.errors import InvalidSource
    from kb.parse.corpus import parse_all
    from kb.sources.files import discover

    cards = tmp_path / "cards"
    cards.mkdir()
    rows = [{"name": "Fire // Ice", "faceName": "Fire", "side": "a", "layout": "split"},
            {"name": "Ice", "layout": "normal", "foreignData": [{"language": "Japanese", "name": ["氷"]}]}]
    (cards / "my-set.json").write_text(json.dumps({"data": {"code": "X", "name": "X", "cards": rows}}), encoding="utf-8")
    with pytest.raises(InvalidSource) as error:
        parse_all(discover([tmp_path], None))
    assert str(error.value).endswith("my-set.json: record 2: /data/cards/1: 'name' should be a string, not ['氷']")


def test_a_malformed_card_file_stops_the_build_naming_file_and_record(tmp_path):
    from kb.errors import InvalidSource
    from kb.parse.corpus import parse_all
    from kb.sources.files import discover

    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "ja-card-names-mtgwiki-20250922.json").write_text(
        json.dumps([{"name": "Fire", "jpname": "火"}, {"name": ["Ice"], "jpname": "氷"}]), encoding="utf-8")
    with pytest.raises(InvalidSource) as error:
        parse_all(discover([tmp_path], None))
    assert str(error.value).endswith("ja-card-names-mtgwiki-20250922.json: record 2: "
                                     "'name' should be a non-empty string, not ['Ice']")
