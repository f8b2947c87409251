"""A question on the /search page in real headless Chromium on the full KB: the cards it names
(JA first, EN beside) and today's rules it needs, each with its JA/EN section title and its
citations; at desktop and phone width nothing overflows and the English toggle works.
Screenshots are copied to $MTG_KB_SCREENSHOTS when set."""
from __future__ import annotations

import os
import shutil
from urllib.parse import quote

import pytest

from tests.browser import by as _by, fits as _fits, wait_url as _wait_url

pytestmark = pytest.mark.browser

QUESTION = "《護国卿、ウルザ》と《マイトストーンとウィークストーン》を合体させたら、マナ総量はいくつになりますか？"


def test_a_question_shows_its_cards_and_the_rules_it_needs(browser, full_url, full_kb, tmp_path):
    By = _by()
    current = full_kb.model.current("en")
    for width, height, label in ((1280, 900, "desktop"), (412, 915, "phone")):
        browser.set_window_size(width, height)
        browser.get(full_url + "/search?q=" + quote(QUESTION))
        _wait_url(browser, "/search")
        cards = browser.find_element(By.ID, "question-cards")
        assert [a.text for a in cards.find_elements(By.CSS_SELECTOR, "a.card-named")] == [
            "護国卿、ウルザ", "マイトストーンとウィークストーン"]
        assert "Urza, Lord Protector" in cards.text
        rules = browser.find_elements(By.CSS_SELECTOR, "#question-rules > li")
        numbers = [r.find_element(By.CSS_SELECTOR, "a.rn").text for r in rules]
        assert "712.5e" in numbers[:10] and len(numbers) == len(set(numbers))
        melded = rules[numbers.index("712.5e")]
        assert "両面カード" in melded.text and "Double-Faced Cards" in melded.text  # the section's JA / EN title
        assert melded.find_element(By.CSS_SELECTOR, ".snippet[lang=ja]").text.startswith("《マイトストーンとウィークストーン》")
        assert "総合ルール 和訳" in melded.text and f"総合ルール {current}" in melded.text  # both texts cited
        assert _fits(browser), f"the page is wider than the {label} window"
        browser.save_screenshot(str(tmp_path / f"search-question-{label}.png"))
    browser.find_element(By.CSS_SELECTOR, "#question-cards a.card-named").click()
    _wait_url(browser, "/cards/")
    assert browser.find_element(By.ID, "card-name").text.startswith("護国卿、ウルザ")
    browser.get(full_url + "/search?lang=en&q=" + quote(QUESTION))
    _wait_url(browser, "lang=en")
    assert browser.find_element(By.CSS_SELECTOR, "#question-cards a.card-named").text == "Urza, Lord Protector"
    assert "Today's rules this question needs" in browser.find_element(By.ID, "question").text
    assert _fits(browser)
    browser.save_screenshot(str(tmp_path / "search-question-phone-en.png"))
    if os.environ.get("MTG_KB_SCREENSHOTS"):
        for p in tmp_path.glob("*.png"):
            shutil.copy(p, os.environ["MTG_KB_SCREENSHOTS"])


def test_a_card_name_typed_in_the_search_box_finds_the_card(browser, full_url, tmp_path):
    """A partial JA name and a misspelt EN one, typed as a user would: the card box lists the card
    (JA first, EN beside, its card data record cited), and its link opens the card page."""
    By = _by()
    for width, height, label in ((1280, 900, "desktop"), (412, 915, "phone")):
        browser.set_window_size(width, height)
        for query in ("護国卿", "Urza Lord Protecter"):
            browser.get(full_url + "/?lang=ja")
            box = browser.find_element(By.NAME, "q")
            box.send_keys(query)
            box.submit()
            _wait_url(browser, "/search")
            found = browser.find_element(By.ID, "card-matches")
            first = found.find_element(By.CSS_SELECTOR, "a.card-named")
            assert first.text == "護国卿、ウルザ" and "Urza, Lord Protector" in found.text
            assert "mtgjson-set-BRO.json /cards/225" in found.text
            assert _fits(browser), f"the page is wider than the {label} window"
        browser.save_screenshot(str(tmp_path / f"search-card-{label}.png"))
    browser.find_element(By.CSS_SELECTOR, "#card-matches a.card-named").click()
    _wait_url(browser, "/cards/")
    assert browser.find_element(By.ID, "card-name").text.startswith("護国卿、ウルザ")
    if os.environ.get("MTG_KB_SCREENSHOTS"):
        for p in tmp_path.glob("*.png"):
            shutil.copy(p, os.environ["MTG_KB_SCREENSHOTS"])
