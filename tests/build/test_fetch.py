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


# ---------------------------------------------------------------- kb fetch --history


@pytest.fixture
def archive(tmp_path, data_dir):
    """A loopback server with two official files at their 'official' paths, one only at an
    'archived' path, and a list of editions pointing at them (plus one with a wrong sha256 and
    one that is not a CR)."""
    import hashlib
    import json
    root = tmp_path / "archive"
    (root / "official").mkdir(parents=True)
    (root / "web").mkdir()
    files = {"2011-09-30": "cr-en-20110930.txt", "2024-02-06": "cr-archive/cr-en-20240206.txt",
             "2016-08-26": "cr-archive/cr-en-20160826.txt"}
    for day, name in files.items():
        target = root / ("web" if day == "2016-08-26" else "official") / f"MagicCompRules_{day}.txt"
        shutil.copy(data_dir / name, target)
    (root / "official" / "broken.txt").write_text("Not the rules at all\n", encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    sha = {day: hashlib.sha256((data_dir / name).read_bytes()).hexdigest() for day, name in files.items()}
    editions = [
        {"effective": "2011-09-30", "file_date": "2011-09-30", "url": f"{base}/official/MagicCompRules_2011-09-30.txt",
         "sha256": sha["2011-09-30"], "notes": "test"},
        # the official URL is gone; the notes name an archived copy
        {"effective": "2016-08-26", "file_date": "2016-08-26", "url": f"{base}/official/gone.txt",
         "sha256": sha["2016-08-26"], "notes": f"Wayback capture: {base}/web/MagicCompRules_2016-08-26.txt ."},
        # no sha256 known: kept as downloaded, its header's date is the edition
        {"effective": "2024-02-02", "file_date": "2024-02-06", "url": f"{base}/official/MagicCompRules_2024-02-06.txt",
         "sha256": None, "notes": "test"},
        {"effective": "2012-06-01", "file_date": "2012-06-01", "url": f"{base}/official/MagicCompRules_2011-09-30.txt",
         "sha256": "0" * 64, "notes": "the bytes served are not these"},
        {"effective": "2013-01-01", "file_date": "2013-01-01", "url": f"{base}/official/broken.txt",
         "sha256": None, "notes": "not a CR"},
        {"effective": "2018-01-19", "file_date": "2018-01-19", "url": None, "sha256": None, "notes": "URL lost"},
    ]
    listing = tmp_path / "editions.json"
    listing.write_text(json.dumps({"source": "test", "editions": editions}), encoding="utf-8")
    yield listing, sha
    server.shutdown()


def test_fetch_history_keeps_exact_bytes_verifies_sha256_and_falls_back_to_the_archive(archive, tmp_path, data_dir):
    from kb.build.fetch import fetch_history
    from kb.sources import official
    listing, sha = archive
    into = tmp_path / "fetched"
    report = {e.effective: e for e in fetch_history(into, official.load(listing))}
    assert {d: report[d].status for d in report} == {
        "2011-09-30": "fetched", "2016-08-26": "fetched", "2024-02-02": "fetched",
        "2012-06-01": "failed", "2013-01-01": "failed", "2018-01-19": "no-url"}
    assert (into / "MagicCompRules 20110930.txt").read_bytes() == (data_dir / "cr-en-20110930.txt").read_bytes()
    assert (into / "MagicCompRules 20160826.txt").read_bytes() == \
        (data_dir / "cr-archive" / "cr-en-20160826.txt").read_bytes()  # UTF-16, untouched
    assert report["2016-08-26"].url.endswith("/web/MagicCompRules_2016-08-26.txt")
    assert "is not the official" in report["2012-06-01"].message and "not a Comprehensive Rules" in report["2013-01-01"].message
    assert not (into / "MagicCompRules 20120601.txt").exists() and not (into / "MagicCompRules 20130101.txt").exists()
    # a second run downloads nothing: every edition is held now
    again = {e.effective: e.status for e in fetch_history(into, official.load(listing))}
    assert again["2011-09-30"] == again["2024-02-02"] == "held"


def test_fetch_history_skips_what_the_shared_data_holds(archive, tmp_path, data_dir):
    from kb.build.fetch import fetch_history
    from kb.sources import official
    listing, _ = archive
    report = {e.effective: e.status for e in fetch_history(tmp_path / "fetched", official.load(listing), [data_dir])}
    assert report["2011-09-30"] == report["2016-08-26"] == report["2024-02-02"] == "held"


def test_kb_fetch_history_then_builds(archive, tmp_path, monkeypatch):
    listing, _ = archive
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MTG_KB_DATA", str(tmp_path / "no-shared-data"))
    runner = CliRunner()
    result = runner.invoke(main, ["fetch", "--history", "--list", str(listing), "-q"])
    assert result.exit_code == 0, result.output
    assert "3 fetched" in result.output and "2 failed" in result.output
    assert "en/2011-09-30, en/2016-08-26, en/2024-02-02" in result.output
    assert runner.invoke(main, ["rule", "701.25", "--edition", "2011-09-30"]).output.startswith("701.25")
    # saved under its file date, found under either date
    assert runner.invoke(main, ["rule", "701.28", "--edition", "2024-02-06"]).output.startswith("701.28   (CR 2024-02-02)")


def test_kb_fetch_history_with_a_bad_list_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path / "home"))
    bad = tmp_path / "list.json"
    bad.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(main, ["fetch", "--history", "--list", str(bad)])
    assert result.exit_code == 2 and "not a list of editions" in result.output
