"""Headless Chromium for the browser tests (selenium + /usr/bin/chromium + /usr/bin/chromedriver): the
fixtures (loaded by tests/conftest.py as a pytest plugin) and the helpers the browser tests share.

Every test that drives Chromium carries the ``browser`` marker (the fixture refuses one that does
not). When Chromium is missing, a developer's run skips those tests, but CI (``CI`` set, as CI
services do) fails them: a CI that cannot run the browser tests must not pass silently."""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=412,915")  # a phone-sized window


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _serve(app):
    """Serve ``app`` on a free loopback port in a thread; yields its base URL."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


@pytest.fixture(scope="module")
def base_url():
    """The app over the tiny corpus (tests/server/corpus.py), on loopback."""
    from server import create_app
    from tests.server.corpus import tiny_kb

    yield from _serve(create_app({"KB": tiny_kb()[0]}))


@pytest.fixture(scope="module")
def full_url(full_kb):
    """The app over the full snapshot (every edition), on loopback."""
    from server import create_app

    yield from _serve(create_app({"KB": full_kb}))


@pytest.fixture(scope="module")
def _chromium():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        message = f"chromium / chromedriver not installed: {', '.join(missing)} missing"
        if in_ci():
            pytest.fail(f"{message} (CI runs the browser tests: scripts/setup.sh test installs them)",
                        pytrace=False)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="mtg-kb-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture()
def browser(request):
    """One headless Chromium per module; only for a test that carries the ``browser`` marker."""
    if request.node.get_closest_marker("browser") is None:
        pytest.fail(f"{request.node.nodeid} uses the browser fixture without @pytest.mark.browser", pytrace=False)
    return request.getfixturevalue("_chromium")


def by():
    from selenium.webdriver.common.by import By

    return By


def wait_url(browser, ending: str) -> None:
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(EC.url_contains(ending))
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def fits(browser) -> bool:
    """Nothing wider than the window (no sideways scrolling)."""
    return browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")

