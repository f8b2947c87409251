"""The card page in real headless Chromium on the full KB: Japanese first with the English beside
it, the meld and dated rulings; at desktop and phone width nothing overflows the window and the
toggle to English works. Screenshots are copied to $MTG_KB_SCREENSHOTS when set."""
from __future__ import annotations

import os
import shutil
from urllib.parse import quote

import pytest

from tests.browser import by as _by, fits as _fits, wait_url as _wait_url

pytestmark = pytest.mark.browser


def test_the_card_page_at_desktop_and_phone_width(browser, full_url, tmp_path):
    By = _by()
    for width, height, label in ((1280, 900, "desktop"), (412, 915, "phone")):
        browser.set_window_size(width, height)
        browser.get(full_url + "/cards/" + quote("護国卿、ウルザ"))
        _wait_url(browser, "/cards/")
        assert browser.find_element(By.ID, "card-name").text.startswith("護国卿、ウルザ")
        first = browser.find_element(By.CSS_SELECTOR, "#face-1 .text")
        assert first.get_attribute("lang") == "ja" and "合体させる" in first.text
        assert "Urza, Lord Protector" in browser.find_element(By.CSS_SELECTOR, "#face-1 .text[lang=en]").text
        assert "プレインズウォーカー、ウルザ" in browser.find_element(By.ID, "meld").text
        dates = browser.find_elements(By.CSS_SELECTOR, "#card-rulings time")
        assert len(dates) == 13 and {d.text for d in dates} == {"2022-10-14"}
        assert _fits(browser), f"the page is wider than the {label} window"
        browser.save_screenshot(str(tmp_path / f"card-urza-{label}.png"))
        browser.execute_script("document.getElementById('card-rulings').scrollIntoView()")
        browser.save_screenshot(str(tmp_path / f"card-urza-{label}-rulings.png"))
    browser.get(full_url + "/cards/" + quote("護国卿、ウルザ") + "?lang=en")
    _wait_url(browser, "lang=en")
    assert browser.find_element(By.ID, "card-name").text.startswith("Urza, Lord Protector")
    assert browser.find_element(By.CSS_SELECTOR, "#face-1 .text").get_attribute("lang") == "en"
    assert _fits(browser)
    browser.save_screenshot(str(tmp_path / "card-urza-phone-en.png"))
    if os.environ.get("MTG_KB_SCREENSHOTS"):
        for p in tmp_path.glob("*.png"):
            shutil.copy(p, os.environ["MTG_KB_SCREENSHOTS"])


def test_an_unknown_card_page_offers_close_names_at_phone_width(browser, full_url, tmp_path):
    """A name that fits no one card: a 404 in Japanese listing the cards with close names as links
    (not "close rule numbers"); following one opens that card's page."""
    By = _by()
    browser.set_window_size(412, 915)
    browser.get(full_url + "/cards/Lightning?lang=ja")
    _wait_url(browser, "/cards/Lightning")
    assert "近い名前のカード" in browser.find_element(By.TAG_NAME, "main").text
    links = browser.find_elements(By.CSS_SELECTOR, "ul.suggestions a.card-named")
    assert "Lightning Bolt" in [a.text for a in links]
    assert _fits(browser)
    browser.save_screenshot(str(tmp_path / "card-not-found-phone.png"))
    next(a for a in links if a.text == "Lightning Bolt").click()
    _wait_url(browser, "/cards/Lightning%20Bolt")
    assert browser.find_element(By.ID, "card-name").text.startswith("稲妻")
    if os.environ.get("MTG_KB_SCREENSHOTS"):
        for p in tmp_path.glob("*.png"):
            shutil.copy(p, os.environ["MTG_KB_SCREENSHOTS"])
