"""A fingerprint of a built snapshot, to check that a change to the build keeps its answers: a digest
of every model table (each edition's block apart), of the graph view, the search index (decoded:
its pickle's bytes follow the process's string hashing), the card names, every triple of the RDF
store (sorted), meta.json's counts and sources, and of a few KB answers (rules of 2003, 2011 and
today in EN and JA, a history, mechanic, card and search answers). Compare two with ``diff``.

    python bench/snapshot_fingerprint.py HOME OUT.json    (HOME: a KB home, its current snapshot)
"""
import hashlib
import json
import marshal
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import pyoxigraph as ox  # noqa: E402
from kb.store import snapshot  # noqa: E402
from kb.lookup.kb import KB  # noqa: E402

home, out = Path(sys.argv[1]), Path(sys.argv[2])
path = snapshot.current(home / "snapshots")
fp = {}

def canon(v):
    if isinstance(v, dict):
        return "{" + ",".join(sorted(canon(k) + ":" + canon(x) for k, x in v.items())) + "}"
    if isinstance(v, (list, tuple)):
        return ("[" if isinstance(v, list) else "(") + ",".join(canon(x) for x in v) + "]"
    if isinstance(v, (set, frozenset)):
        return "{" + ",".join(sorted(canon(x) for x in v)) + "}"
    return repr(v)

def h(s):
    return hashlib.sha256(s.encode() if isinstance(s, str) else s).hexdigest()[:16]

model = snapshot.load_model(path)
import dataclasses
for f in dataclasses.fields(model):
    v = getattr(model, f.name)
    if hasattr(v, "blocks"):
        for key, block in sorted(v.blocks().items()):
            fp[f"model.{f.name}.{key[0]}/{key[1]}"] = h(canon(dict(block)))
    elif hasattr(v, "keys") and not isinstance(v, dict):
        fp[f"model.{f.name}"] = h(canon({k: v[k] for k in v.keys()}))
    else:
        fp[f"model.{f.name}"] = h(canon(v))
for name in ("graph.marshal", "cardnames.bin"):
    fp[name] = h((path / name).read_bytes())
for key, value in pickle.loads((path / "search.bin").read_bytes()).items():  # written by this build
    fp["search." + key] = h(canon(value))
fp["graph.canon"] = h(canon(marshal.loads((path / "graph.marshal").read_bytes())))
store = ox.Store.read_only(str(path / "store"))
lines = sorted(str(q) for q in store)
fp["store.count"] = len(lines)
fp["store"] = h("\n".join(lines))
del lines, store
meta = json.loads((path / "meta.json").read_text())
for k in ("editions", "rules", "rulings", "mechanics", "cards", "warnings", "sources"):
    fp["meta." + k] = h(canon(meta.get(k)))
kb = KB.load(home)
answers = {}
def ask(label, fn):
    try:
        answers[label] = h(json.dumps(fn(), sort_keys=True, ensure_ascii=False, default=str))
    except Exception as exc:
        answers[label] = f"error {type(exc).__name__}: {exc}"
ask("rule 601.2c", lambda: kb.rule("601.2c"))
ask("rule 601.2c ja", lambda: kb.rule("601.2c", lang="ja"))
ask("rule 701.25 2011", lambda: kb.rule("701.25", edition="2011-09-30"))
ask("rule 100.1 2003", lambda: kb.rule("100.1", edition="2003-03-15"))
ask("history 702.145", lambda: kb.history("702.145"))
ask("mechanic 予示", lambda: kb.mechanic("予示"))
ask("mechanic day", lambda: kb.mechanic("day"))
ask("card", lambda: kb.card("Urza, Lord Protector"))
ask("search 予示", lambda: kb.search("予示"))
ask("search transform", lambda: kb.search("transform double-faced"))
fp["answers"] = answers
out.write_text(json.dumps(fp, indent=1, ensure_ascii=False))
print(len(fp), "entries;", answers)
