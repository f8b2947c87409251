"""`kb fetch --cards` against a loopback HTTP server laid out like https://mtgjson.com/api/v5/:
AtomicCards.json.gz beside its .sha256, and files that are wrong in each way a download can be."""
from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import json
import threading

import pytest
from click.testing import CliRunner

from kb.build.fetch import FetchError
from kb.build.fetch_cards import fetch_cards
from kb.cli import main
from tests.parse.samples import DELVER, FIRE_ICE

ATOMIC = {"meta": {"date": "2026-11-30", "version": "5.2.2+20261130"}, "data": {
    "Delver of Secrets // Insectile Aberration": [dict(row, printings=["ISD"]) for row in DELVER],
    "Fire // Ice": FIRE_ICE}}


def _put(root, name: str, data: bytes, digest: str | None = None) -> None:
    (root / name).write_bytes(data)
    if digest != "":
        (root / f"{name}.sha256").write_text((digest or hashlib.sha256(data).hexdigest()) + "\n", encoding="ascii")


@pytest.fixture
def mtgjson(tmp_path):
    """(base URL of a good site, base URL of a bad one: wrong digest / not MTGJSON / no checksum)."""
    good, bad, junk, nosum = (tmp_path / "site" / d for d in ("good", "mismatch", "junk", "nosum"))
    for d in (good, bad, junk, nosum):
        d.mkdir(parents=True)
    atomic = gzip.compress(json.dumps(ATOMIC).encode("utf-8"), mtime=0)
    _put(good, "AtomicCards.json.gz", atomic)
    _put(good, "AtomicCards.json", json.dumps(ATOMIC).encode("utf-8"))
    _put(bad, "AtomicCards.json.gz", atomic, digest="0" * 64)
    _put(junk, "AtomicCards.json.gz", gzip.compress(b'{"meta": {}, "data": {"notes": "not cards"}}'))
    _put(nosum, "AtomicCards.json.gz", atomic, digest="")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", atomic
    server.shutdown()


def test_atomic_cards_are_kept_byte_for_byte_with_their_published_checksum(mtgjson, tmp_path):
    site, atomic = mtgjson
    into = tmp_path / "fetched"
    [got] = fetch_cards(into, base=f"{site}/good/")
    assert got.path == into / "AtomicCards.json.gz" and got.path.read_bytes() == atomic
    assert got.sha256 == hashlib.sha256(atomic).hexdigest() and "AtomicCards (2 cards)" in got.title
    note = (into / "AtomicCards.json.gz.source").read_text(encoding="utf-8")
    assert note.startswith(f"{site}/good/AtomicCards.json.gz\nsha256 {got.sha256}")
    [plain] = fetch_cards(into, base=f"{site}/good", suffix=".json")  # the other form replaces it: one copy
    assert plain.path.name == "AtomicCards.json" and not (into / "AtomicCards.json.gz").exists()
    assert not list(tmp_path.glob(".cards-staging-*"))


@pytest.mark.parametrize("where, message", [
    ("mismatch", "is not the published 0000"), ("junk", "not MTGJSON AtomicCards"),
    ("nosum", r"AtomicCards.json.gz.sha256: HTTP 404"), ("missing", "HTTP 404")])
def test_a_bad_download_is_a_clear_error_and_the_previous_copy_stays(mtgjson, tmp_path, where, message):
    site, atomic = mtgjson
    into = tmp_path / "fetched"
    fetch_cards(into, base=f"{site}/good/")
    with pytest.raises(FetchError, match=message):
        fetch_cards(into, base=f"{site}/{where}/")
    assert (into / "AtomicCards.json.gz").read_bytes() == atomic
    assert sorted(p.name for p in into.iterdir()) == ["AtomicCards.json.gz", "AtomicCards.json.gz.source"]


def test_only_mtgjson_card_files_are_asked_for(tmp_path):
    with pytest.raises(FetchError, match="not an MTGJSON card file"):
        fetch_cards(tmp_path, ("AllIdentifiers",), base="http://127.0.0.1:9/")
    with pytest.raises(FetchError, match="read as"):
        fetch_cards(tmp_path, suffix=".json.xz", base="http://127.0.0.1:9/")


def test_kb_fetch_cards_then_builds_and_a_bad_site_keeps_the_snapshot(mtgjson, tmp_path, monkeypatch):
    site, _ = mtgjson
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MTG_KB_DATA", str(tmp_path / "no-shared-data"))
    runner = CliRunner()
    result = runner.invoke(main, ["fetch", "--cards", "--mtgjson-url", f"{site}/good/", "-q"])
    assert result.exit_code == 0, result.output
    assert "fetched" in result.output and "AtomicCards.json.gz" in result.output and "built snap-" in result.output
    card = runner.invoke(main, ["card", "Fire // Ice"])
    assert card.exit_code == 0 and "Fire deals 2 damage divided as you choose." in card.output
    current = (tmp_path / "home" / "snapshots" / "CURRENT").read_text()
    bad = runner.invoke(main, ["fetch", "--cards", "--mtgjson-url", f"{site}/junk/", "-q"])
    assert bad.exit_code == 1 and "not MTGJSON AtomicCards" in bad.output and "previous card data and snapshot kept" in bad.output
    assert (tmp_path / "home" / "snapshots" / "CURRENT").read_text() == current
    down = runner.invoke(main, ["fetch", "--cards", "--mtgjson-url", "http://127.0.0.1:9/"])
    assert down.exit_code == 1 and "cannot connect" in down.output
