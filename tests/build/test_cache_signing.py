"""The build cache keeps parsed records as pickles, which run code when loaded: only entries signed
with this user's key (kept outside MTG_KB_HOME) are unpickled; any other is recomputed (issue 40.6)."""
from __future__ import annotations

import pickle

from kb.build.cache import BuildCache


class _Runs:
    def __reduce__(self):
        return (exec, ("raise SystemExit('an unsigned pickle ran code')",))


def test_an_entry_this_cache_wrote_is_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_CACHE_KEY", str(tmp_path / "key"))
    cache = BuildCache(tmp_path / "cache")
    assert cache.get("parse", "k", lambda: {"rules": [1, 2]}) == {"rules": [1, 2]}
    again = BuildCache(tmp_path / "cache")
    assert again.get("parse", "k", lambda: "recomputed") == {"rules": [1, 2]} and again.hits == 1
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0  # the key is this user's alone


def test_a_pickle_dropped_into_the_cache_is_never_loaded(tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_CACHE_KEY", str(tmp_path / "key"))
    cache = BuildCache(tmp_path / "cache")
    (tmp_path / "cache" / "parse").mkdir(parents=True)
    (tmp_path / "cache" / "parse" / "k.pickle").write_bytes(bytes(32) + pickle.dumps(_Runs()))
    assert cache.get("parse", "k", lambda: "recomputed") == "recomputed" and cache.misses == 1


def test_a_cache_copied_from_another_user_is_recomputed(tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_CACHE_KEY", str(tmp_path / "theirs"))
    BuildCache(tmp_path / "cache").get("parse", "k", lambda: "their value")
    monkeypatch.setenv("MTG_KB_CACHE_KEY", str(tmp_path / "mine"))  # same folder, another user's key
    assert BuildCache(tmp_path / "cache").get("parse", "k", lambda: "mine") == "mine"
