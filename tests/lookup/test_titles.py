"""A rule that is only a title (702.145 Daybound and Nightbound) heads its subrules; a rule that says
something is never a heading, even when its sentence ends inside quotes or it leads in with a colon."""
import pytest

from kb.text import is_title


@pytest.mark.parametrize("text", ["Daybound and Nightbound", "Day and Night", "Interaction of Replacement and/or "
                                  "Prevention Effects", "日暮・夜明／Daybound and Nightbound", "昼と夜"])
def test_titles(text):
    assert is_title(text)


@pytest.mark.parametrize("text", [
    "The term dies means “is put into a graveyard from the battlefield.”",  # 700.4: the period inside the quotes
    "An ability can be one of three things:",  # 113.1: a lead-in to its list
    "There are twelve special actions:",
    "ループが選択的でない処理のみからなる場合、ゲームは引き分けになる。(rule 104.4b 参照。)",
    "死亡するとは、戦場からいずれかの墓地に置かれることである。",
    "[This section has been intentionally left blank to preserve the ordering of other rules.]",
    "Daybound\nand Nightbound",
])
def test_not_titles(text):
    assert not is_title(text)


def test_a_rule_that_says_something_is_not_its_own_heading(full_kb):
    current = full_kb.current_edition("en")
    assert full_kb.model.rules[("en", current, "700.4")]["text"].endswith("”")  # the case this guards
    assert [h["number"] for h in full_kb.heading("700.4", current)] == ["7", "700"]
    assert [h["number"] for h in full_kb.heading("113.1a", current)] == ["1", "113"]
    # a title still heads its subrules
    assert [h["number"] for h in full_kb.heading("702.145b", current)] == ["7", "702", "702.145"]


def test_a_title_may_end_in_an_exclamation_mark():
    assert is_title("Start your Engines!")  # 702.179


def test_previous_and_next_read_only_their_own_edition(full_home):
    """A fresh process's neighbours of today's 601.2c are 601.2b and 601.2d, found without reading
    any older edition from disk (what keeps a first page cheap with ~35 editions loaded)."""
    from kb.lookup.kb import KB

    kb = KB.load(full_home)
    current = kb.model.current("en")
    near = kb.neighbours("601.2c", current)
    assert (near["previous"]["number"], near["next"]["number"]) == ("601.2b", "601.2d")
    unread = set(kb.model.rules._pending)
    assert ("en", "2011-09-30") in unread and ("en", current) not in unread
