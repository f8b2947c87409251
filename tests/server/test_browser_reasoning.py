"""The question forms for what the engine grew in issue 13, in real headless Chromium, in Japanese:
a spell on the stack when a face-down creature is turned face up, a fused split spell resolving on
its target with cast triggers, the legend rule per controller, a meld targeting check; each at
desktop (1280 px) and phone (412 px) width without sideways scrolling."""
from __future__ import annotations

import os
import shutil
from urllib.parse import urlencode

import pytest

from tests.browser import by as _by

pytestmark = pytest.mark.browser

TURN = "Until end of turn, target creature loses all abilities and becomes a red Weird with base power and toughness 0/1."


def _fits(browser) -> bool:
    return browser.execute_script("return document.documentElement.scrollWidth") <= \
        browser.execute_script("return window.innerWidth")


def _shots(browser, tmp_path, name: str, focus: str | None = None) -> None:
    """Screenshots at desktop and phone width, scrolled to ``focus`` (an element id) when given."""
    for width, height, kind in ((1280, 900, "desktop"), (412, 915, "phone")):
        browser.set_window_size(width, height)
        assert _fits(browser), (name, kind)
        if focus:  # an element id, or the label (dt) of an outcome field
            browser.execute_script("(document.getElementById(arguments[0]) || [...document.querySelectorAll('dt')]"
                                   ".find(e => e.textContent === arguments[0])).scrollIntoView()", focus)
        browser.save_screenshot(str(tmp_path / f"{name}-{kind}.png"))


def _keep(tmp_path) -> None:
    if os.environ.get("MTG_KB_SCREENSHOTS"):
        for p in tmp_path.glob("*.png"):
            shutil.copy(p, os.environ["MTG_KB_SCREENSHOTS"])


def _trace(browser) -> list[str]:
    return [a.text for a in browser.find_elements(_by().CSS_SELECTOR, "#trace > li > a.rn")]


def test_face_down_turned_up_in_response_in_japanese(browser, base_url, tmp_path):
    By = _by()
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.set_window_size(1280, 900)
    browser.get(base_url + "/mechanics/face-down/ask?lang=ja")
    Select(browser.find_element(By.ID, "f-question")).select_by_value("turn-face-up")
    assert browser.find_element(By.ID, "f-incoming").is_displayed()
    _shots(browser, tmp_path, "face-down-incoming-form", "f-incoming")
    browser.set_window_size(1280, 900)
    browser.find_element(By.LINK_TEXT, "稲妻に対応して変異の大天使を表向きにする").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "verdict"))
    assert "呪文の解決後: 生き残ります" in browser.find_element(By.ID, "verdict").text
    trace = _trace(browser)
    assert {"117.1c", "117.2e", "120.3e", "704.5g"} <= set(trace), trace
    assert "対象1つあたり" not in browser.find_element(By.ID, "outcome").text
    assert "負うダメージ" in browser.find_element(By.ID, "outcome").text  # labels, not keys
    _shots(browser, tmp_path, "face-down-incoming-answer", "スタック上の呪文が解決すると")
    _keep(tmp_path)


def test_fused_spell_on_its_target_with_a_cast_trigger_in_japanese(browser, base_url, tmp_path):
    By = _by()
    query = {"lang": "ja", "_ask": "1", "question": "cast", "layout": "fuse", "cast_as": "fused",
             "left.name": "Turn", "left.mana_cost": "{2}{U}", "left.types": "instant", "left.text": TURN,
             "right.name": "Burn", "right.mana_cost": "{1}{R}", "right.types": "instant",
             "right.text": "Burn deals 2 damage to any target.", "target.name": "Serra Angel", "target.power": "4",
             "target.toughness": "4", "watchers.0": "on", "watchers.0.text": "あなたが青の呪文を唱えるたび"}
    browser.set_window_size(1280, 900)
    browser.get(base_url + "/mechanics/split-card/ask?" + urlencode(query))
    errors = browser.find_elements(By.ID, "ask-error")
    assert not errors, errors[0].text
    assert "戦場を離れます" in browser.find_element(By.ID, "verdict").text
    trace = _trace(browser)
    assert {"702.102d", "613.4b", "120.3e", "704.5g"} <= set(trace), trace
    outcome = browser.find_element(By.ID, "outcome").text
    assert "対象のクリーチャー（解決後）" in outcome and "601.2i" in trace  # the JA trigger text was read
    _shots(browser, tmp_path, "split-fused-answer", "唱えたときの誘発")
    _keep(tmp_path)


def test_legend_rule_per_controller_and_meld_target_in_japanese(browser, base_url, tmp_path):
    By = _by()
    query = {"lang": "ja", "_ask": "1", "permanents.0": "on", "permanents.0.name": "Urza, Lord Protector",
             "permanents.0.supertypes": "legendary", "permanents.0.toughness": "4",
             "permanents.1": "on", "permanents.1.name": "Urza, Lord Protector",
             "permanents.1.supertypes": "legendary", "permanents.1.toughness": "4",
             "permanents.2": "on", "permanents.2.name": "Urza, Lord Protector", "permanents.2.controller": "opponent",
             "permanents.2.supertypes": "legendary", "permanents.2.toughness": "4"}
    browser.get(base_url + "/mechanics/state-based-actions/ask?" + urlencode(query))
    errors = browser.find_elements(By.ID, "ask-error")
    assert not errors, errors[0].text
    outcome = browser.find_element(By.ID, "outcome").text
    assert "レジェンド・ルール（コントローラーごと）" in outcome and "704.5j" in _trace(browser)
    _shots(browser, tmp_path, "sba-legend-answer", "レジェンド・ルール（コントローラーごと）")
    browser.set_window_size(1280, 900)
    browser.get(base_url + "/mechanics/meld/ask?lang=ja")
    assert browser.find_element(By.ID, "f-targeted_as").is_displayed()
    _shots(browser, tmp_path, "meld-form", "f-targeted_as")
    _keep(tmp_path)
