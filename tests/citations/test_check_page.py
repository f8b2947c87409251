"""The /check page: paste or upload a text, the date given or guessed, the text shown with each
citation highlighted and its verdict beside it; Japanese first, ?lang=en for English; bad input
is a clear error on the page with its status. Through the Flask client and in headless Chromium."""
from __future__ import annotations

import io

import pytest

from tests.browser import by as _by

TEXT = "変身については rule 701.27a 参照。See rule 999.1 too.\n価格は 1,200円、2021年11月19日発売、カード番号 123/280。\n"


@pytest.fixture(scope="module")
def client():
    from server import create_app
    from tests.server.corpus import tiny_kb
    return create_app({"KB": tiny_kb()[0], "TESTING": True}).test_client()


def test_form_is_japanese_first(client):
    page = client.get("/check").get_data(as_text=True)
    assert "<h1>引用チェック</h1>" in page and 'enctype="multipart/form-data"' in page
    assert "<h1>Citation check</h1>" in client.get("/check?lang=en").get_data(as_text=True)
    client.get("/check?lang=ja")  # the language is remembered by cookie: leave it Japanese


def test_pasted_text_is_highlighted_with_verdicts(client):
    page = client.post("/check?lang=ja", data={"text": TEXT, "date": "2026-02-01"}).get_data(as_text=True)
    assert '<a class="c st-current" id="c0" href="#v0"' in page and ">rule 701.27a</a>" in page
    assert '<a class="c st-never-existed" id="c1" href="#v1"' in page
    assert "現行" in page and "存在しない番号" in page and "日付 2026-02-01 (指定)" in page
    # the evidence lines in the page's language: JA here, EN under ?lang=en
    assert "ルールとして示されている（番号の前に rule / CR）" in page and "named as a rule" not in page
    assert "文章の日付 2026-02-01 に有効だった版" in page and "in force on the text" not in page
    assert 'data-method="document-date">文章の日付</span>' in page
    english = client.post("/check?lang=en", data={"text": TEXT, "date": "2026-02-01"}).get_data(as_text=True)
    assert "named as a rule: &#39;rule&#39;" in english and "in force on the text&#39;s date 2026-02-01" in english
    assert "ルールとして示されている" not in english
    assert 'data-method="document-date">document-date</span>' in english
    # in force on its date and loaded: nothing to warn about
    assert "読み込まれていません" not in page
    # dated when an official edition the KB does not hold was in force (2026-02-27, from the shipped
    # list): the notes say so in the page's language, with the nearest loaded editions
    unloaded = client.post("/check?lang=ja", data={"text": TEXT, "date": "2026-03-10"}).get_data(as_text=True)
    assert "2026-02-27 版は読み込まれていません" in unloaded and "not loaded" not in unloaded
    english = client.post("/check?lang=en", data={"text": TEXT, "date": "2026-03-10"}).get_data(as_text=True)
    assert "edition of 2026-02-27 not loaded; nearest loaded 2026-01-16" in english
    client.get("/check?lang=ja")


def test_upload_in_any_encoding_and_errors(client):
    data = {"file": (io.BytesIO("Per rule 701.27 \u201ctransform\u201d.\n".encode("cp1252")), "a.txt")}
    page = client.post("/check?lang=en", data=data, content_type="multipart/form-data")
    assert page.status_code == 200 and "rule 701.27</a>" in page.get_data(as_text=True)
    binary = {"file": (io.BytesIO(bytes(range(256)) * 4), "x.bin")}
    bad = client.post("/check?lang=en", data=binary, content_type="multipart/form-data")
    assert bad.status_code == 422 and "x.bin is not a text file" in bad.get_data(as_text=True)
    bad = client.post("/check?lang=en", data={"text": "rule 601.2", "date": "soon"})
    assert bad.status_code == 400 and "invalid_date" in bad.get_data(as_text=True)
    empty = client.post("/check?lang=en", data={"text": "  "})
    assert empty.status_code == 400 and "paste a text or choose a file" in empty.get_data(as_text=True)


@pytest.mark.browser
def test_check_page_in_chromium(browser, base_url):
    By = _by()
    browser.get(base_url + "/check?lang=ja")
    assert browser.find_element(By.TAG_NAME, "h1").text == "引用チェック"
    browser.execute_script("document.getElementById('text').value = arguments[0]", TEXT)
    browser.execute_script("document.getElementById('date').value = '2026-02-01'")
    browser.find_element(By.ID, "check-button").click()
    from selenium.webdriver.support.ui import WebDriverWait
    # the click returns before the answer page has loaded on a busy machine: wait for it
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#checked a.c")
                                     and d.execute_script("return document.readyState") == "complete")
    marks = browser.find_elements(By.CSS_SELECTOR, "#checked a.c")
    assert [m.text for m in marks] == ["rule 701.27a", "rule 999.1"]
    verdicts = browser.find_elements(By.CSS_SELECTOR, "#verdicts .verdict .badge")
    assert [v.text for v in verdicts] == ["現行", "存在しない番号"]
    # highlighted by status (the page's stylesheet is loaded: the CSP allows only 'self')
    colour = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", marks[1])
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")
    # the evidence, opened, is in Japanese
    browser.execute_script("document.querySelectorAll('#verdicts details').forEach(d => d.open = true)")
    evidence = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#verdicts .evidence li, #verdicts .why")]
    assert evidence and all(any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in e)
                            for e in evidence), evidence
    marks[1].click()
    assert browser.current_url.endswith("#v1")
    # a phone (the fixture's window): one column, nothing wider than the screen
    width, viewport = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= viewport
    checked, verdicts = (browser.find_element(By.ID, i).rect for i in ("checked", "verdicts"))
    assert verdicts["y"] >= checked["y"] + checked["height"]
    # a desktop: the text and its verdicts side by side
    size = browser.get_window_size()
    browser.set_window_size(1280, 900)
    try:
        checked, verdicts = (browser.find_element(By.ID, i).rect for i in ("checked", "verdicts"))
        assert verdicts["x"] >= checked["x"] + checked["width"] and abs(verdicts["y"] - checked["y"]) < 2
    finally:
        browser.set_window_size(size["width"], size["height"])
