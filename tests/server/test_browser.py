"""The web UI in real headless Chromium (selenium + /usr/bin/chromium + /usr/bin/chromedriver) against
the app served on 127.0.0.1 over the tiny corpus: search, open a rule, follow links to a mechanic,
submit its question form, switch to English; assert what the page shows."""
from __future__ import annotations

import shutil

import pytest

from tests.browser import by as _by, wait_url as _wait_url

pytestmark = pytest.mark.browser


def test_search_rule_mechanic_question(browser, base_url):
    from tests.server.corpus import tiny_kb

    kb = tiny_kb()[0]
    By = _by()
    browser.get(base_url + "/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "MTG ルール知識グラフ"

    # search by words: a results page with highlighted, linked hits
    if hasattr(kb, "search"):
        box = browser.find_element(By.ID, "home-q")
        box.send_keys("day night")
        browser.find_element(By.ID, "home-search").click()
        _wait_url(browser, "/search?q=day")
        hits = browser.find_elements(By.CSS_SELECTOR, "#hits li.hit")
        assert hits, browser.page_source[:500]
        assert browser.find_elements(By.CSS_SELECTOR, "#hits mark")
        first = kb.search("day night", limit=20)["hits"][0]
        assert hits[0].find_element(By.CSS_SELECTOR, "a.hit-title").text == (first.get("ja") or first)["title"]

    # a rule number in the search box opens the rule
    box = browser.find_element(By.ID, "q")
    box.clear()
    box.send_keys("731.2")
    browser.find_element(By.ID, "search-button").click()
    _wait_url(browser, "/rules/731.2")
    assert browser.current_url.endswith("/rules/731.2")
    assert browser.find_element(By.ID, "rule-number").text == "731.2"
    english = browser.find_element(By.CSS_SELECTOR, "#text-en .body").text
    assert english == kb.rule("731.2")["text"]["en"]
    # the rule number inside the text is a link; follow it and come back
    browser.find_element(By.CSS_SELECTOR, "#text-en .body a.rn").click()
    _wait_url(browser, "/rules/502")
    assert browser.current_url.endswith("/rules/502")
    browser.back()
    _wait_url(browser, "/rules/731.2")

    # the nearest titled ancestor in the crumbs (7 その他のルール › 731 昼と夜), then its mechanic
    browser.find_elements(By.CSS_SELECTOR, "nav.crumbs a.rn")[-1].click()
    _wait_url(browser, "/rules/731")
    assert browser.current_url.endswith("/rules/731")
    browser.find_element(By.CSS_SELECTOR, "#rule-mechanics a.mech").click()
    _wait_url(browser, "/mechanics/")
    assert "/mechanics/" in browser.current_url
    assert "Day and Night" in browser.find_element(By.ID, "mechanic-name").text
    assert browser.find_elements(By.CSS_SELECTOR, "svg.graph a.node")
    assert browser.find_element(By.CSS_SELECTOR, "#mechanic-rules a.rn").text == "731"

    # the question form generated from the schema: untap step while it is day, no spells cast
    browser.find_element(By.ID, "ask-link").click()
    _wait_url(browser, "/ask")
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "f-event")).select_by_value("untap-step")
    Select(browser.find_element(By.ID, "f-designation")).select_by_value("day")
    browser.find_element(By.ID, "ask-submit").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "outcome") or d.find_elements(By.ID, "ask-error"))
    assert browser.find_elements(By.ID, "outcome"), (browser.current_url, browser.page_source[-3000:])
    outcome = browser.find_element(By.ID, "outcome").text
    expected = kb.ask("day-night", {"event": "untap-step", "designation": "day"})
    assert expected["outcome"]["designation"] == "night"
    assert "昼夜\nnight" in outcome
    trace = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#trace > li > a.rn")]
    assert trace == [s["rule"] for s in expected["trace"]]

    # English toggle, remembered by the cookie on the next page
    browser.find_element(By.ID, "lang-en").click()
    _wait_url(browser, "lang=en")
    assert browser.find_element(By.ID, "ask-submit").text == "Get the answer"
    browser.get(base_url + "/rules/731.2")
    assert browser.find_element(By.CSS_SELECTOR, "#text-en h2").text == "English"
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "section.refs h2")]
    assert headings == ["Rules it references", "Referenced by"]


def test_page_fits_a_phone(browser, base_url):
    By = _by()
    browser.get(base_url + "/mechanics/予示")
    width = browser.execute_script("return document.documentElement.scrollWidth")
    viewport = browser.execute_script("return window.innerWidth")
    assert width <= viewport
    svg = browser.find_element(By.CSS_SELECTOR, "svg.graph")
    assert svg.size["width"] <= viewport


def test_face_down_form_in_japanese(browser, base_url, tmp_path):
    """The face-down question form: fields follow the chosen question, an example scenario gives a
    JA verdict first and the rule chain; the answer's link reproduces it; an error names the field."""
    By = _by()
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.set_window_size(1280, 900)
    browser.get(base_url + "/mechanics/face-down/ask?lang=ja")
    method = browser.find_element(By.ID, "f-method")
    Select(browser.find_element(By.ID, "f-question")).select_by_value("look")
    assert not method.is_displayed()  # "how to turn it face up" is not asked when looking at it
    Select(browser.find_element(By.ID, "f-question")).select_by_value("turn-face-up")
    assert method.is_displayed()
    browser.save_screenshot(str(tmp_path / "face-down-form-desktop.png"))

    browser.find_element(By.CSS_SELECTOR, "#examples a").click()  # 予示されたセラの天使を表向きにする
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "verdict"))
    verdict = browser.find_element(By.ID, "verdict").text
    assert "表向きにできます" in verdict and "{3}{W}{W}" in verdict
    trace = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#trace > li > a.rn")]
    assert "701.40b" in trace and "116.2b" in trace
    assert "特別な処理" in browser.find_element(By.ID, "trace").text  # the JA text of 116.2b
    assert "can_turn_face_up" not in browser.find_element(By.ID, "outcome").text  # labels, not keys
    shared = browser.find_element(By.ID, "share-link").get_attribute("href")
    browser.save_screenshot(str(tmp_path / "face-down-answer-desktop.png"))
    browser.set_window_size(412, 915)
    browser.get(shared)
    assert browser.find_element(By.ID, "verdict").text == verdict
    assert browser.execute_script("return document.documentElement.scrollWidth") <= \
        browser.execute_script("return window.innerWidth")
    browser.save_screenshot(str(tmp_path / "face-down-answer-phone.png"))

    browser.get(base_url + "/mechanics/face-down/ask?lang=ja&_ask=1&question=turn-face-up&card.name=x"
                "&card.power=two")
    error = browser.find_element(By.ID, "ask-error")
    assert error.get_attribute("data-field") == "card.power" and error.text.startswith("裏向きのカード（表の面） › パワー")
    import os
    if os.environ.get("MTG_KB_SCREENSHOTS"):
        for p in tmp_path.glob("*.png"):
            shutil.copy(p, os.environ["MTG_KB_SCREENSHOTS"])


def test_a_question_the_loaded_cr_cannot_answer_says_so_with_the_rule_linked(browser, base_url, tmp_path):
    """The tiny corpus's CR has no link from a Room to 608.3f (the copy case needs it): the JA form
    says the snapshot cannot answer and links the rule, at desktop and phone width."""
    import json
    from urllib.parse import quote
    By = _by()

    situation = {"room": {"left": {"name": "Walk-In Closet", "mana_cost": "{2}{G}"},
                          "right": {"name": "Forgotten Cellar", "mana_cost": "{3}{G}{G}", "unlock_trigger": True}},
                 "event": "spell_copy_resolves", "cast_half": "right"}
    url = base_url + "/mechanics/room/ask?lang=ja&s=" + quote(json.dumps(situation))
    for width, height, name in ((1280, 900, "desktop"), (412, 915, "phone")):
        browser.set_window_size(width, height)
        browser.get(url)
        error = browser.find_element(By.ID, "ask-error")
        assert "この状況に答えられません" in error.text and not browser.find_elements(By.ID, "verdict")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= \
            browser.execute_script("return window.innerWidth")
        browser.save_screenshot(str(tmp_path / f"ask-not-answerable-{name}.png"))
    link = error.find_element(By.CSS_SELECTOR, "a.rn")
    assert link.text == "608.3f"
    link.click()
    _wait_url(browser, "/rules/608.3f")
    import os
    if os.environ.get("MTG_KB_SCREENSHOTS"):
        for p in tmp_path.glob("*.png"):
            shutil.copy(p, os.environ["MTG_KB_SCREENSHOTS"])


def test_editions_and_diff_pages(browser, base_url):
    """From the footer to the editions page, then to an edition's changes, then compare two editions."""
    from selenium.webdriver.support.ui import Select

    from tests.shared_data import newest_en_sources
    by = _by()
    current, previous, oldest = (s.edition_hint for s in newest_en_sources(3))
    browser.get(base_url + "/?lang=ja")
    browser.find_element(by.ID, "footer-editions").click()
    _wait_url(browser, "/editions")
    assert browser.find_element(by.TAG_NAME, "h1").text == "版"
    rows = browser.find_elements(by.CSS_SELECTOR, "#editions tbody tr")
    assert [r.find_element(by.TAG_NAME, "td").text.split()[0] for r in rows][:3] == [oldest, previous, current]
    rows[2].find_element(by.CSS_SELECTOR, "a.changes").click()  # EN rows first, oldest first
    _wait_url(browser, "/diff?to=")
    assert browser.find_element(by.ID, "diff-to").text == current
    assert browser.find_element(by.ID, "diff-from").text == previous
    Select(browser.find_element(by.ID, "from")).select_by_visible_text(oldest)
    browser.find_element(by.ID, "diff-submit").click()
    _wait_url(browser, f"from={oldest}")
    assert browser.find_element(by.ID, "diff-from").text == oldest
    counts = browser.find_element(by.ID, "diff-counts").text
    assert "本文変更" in counts and "番号だけの変更" in counts  # wording changes first, renumbering last
    assert browser.find_elements(by.CSS_SELECTOR, "#text-changed .wdiff ins")
    runs = browser.find_element(by.ID, "renumbering-runs")
    assert not runs.is_displayed()  # folded until asked for
    browser.find_element(by.CSS_SELECTOR, "#numbers-only-details summary").click()
    assert runs.is_displayed() and runs.find_elements(by.CSS_SELECTOR, "li.run a.rn")
    browser.get(browser.current_url + "&lang=en")
    assert browser.find_element(by.TAG_NAME, "h1").text.startswith("Compare editions")
