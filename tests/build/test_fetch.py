"""`kb fetch` against a loopback HTTP server serving a rules page and a CR file from ../shared/data."""
from __future__ import annotations

import functools
import http.server
import shutil
import threading

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.build.fetch import FetchError, fetch_current


@pytest.fixture
def site(tmp_path, data_dir):
    root = tmp_path / "site"
    (root / "downloads").mkdir(parents=True)
    shutil.copy(data_dir / "cr-en-20260417.txt", root / "downloads" / "MagicCompRules 20260417.txt")
    (root / "rules.html").write_text(
        '<html><body><a href="/other.pdf">PDF</a> '
        '<a href="downloads/MagicCompRules%2020260417.txt">TXT</a></body></html>', encoding="utf-8")
    (root / "empty.html").write_text("<html><body>no link</body></html>", encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_fetch_downloads_the_linked_cr_byte_for_byte(site, tmp_path, data_dir):
    path = fetch_current(f"{site}/rules.html", tmp_path / "fetched")
    assert path.name == "MagicCompRules 20260417.txt"
    assert path.read_bytes() == (data_dir / "cr-en-20260417.txt").read_bytes()


def test_fetch_then_build_serves_the_fetched_edition(site, tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MTG_KB_DATA", str(tmp_path / "no-shared-data"))
    runner = CliRunner()
    result = runner.invoke(main, ["fetch", "--rules-page", f"{site}/rules.html", "-q"])
    assert result.exit_code == 0, result.output
    assert "en/2026-04-17" in result.output
    assert runner.invoke(main, ["rule", "701.40"]).output.startswith("701.40")


@pytest.mark.parametrize("page, message", [("empty.html", "no link"), ("missing.html", "HTTP 404")])
def test_fetch_errors_are_clear(site, tmp_path, page, message):
    with pytest.raises(FetchError, match=message):
        fetch_current(f"{site}/{page}", tmp_path / "fetched")
    assert not (tmp_path / "fetched").exists() or not list((tmp_path / "fetched").iterdir())


def test_unreachable_host_is_a_clear_cli_error(tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path))
    result = CliRunner().invoke(main, ["fetch", "--rules-page", "http://127.0.0.1:9/rules"])
    assert result.exit_code == 1 and "cannot connect" in result.output
