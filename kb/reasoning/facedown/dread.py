"""Manifest dread (CR 701.62): look at the top two cards, manifest one, the rest to the graveyard —
with a library of two, one or no cards — and what triggers "whenever you manifest dread" (701.62b:
after the whole process, even if some or all of it was impossible)."""
from __future__ import annotations

from kb.errors import SituationError
from kb.reasoning.facedown.schema import M
from kb.reasoning.registry import implements


@implements("701.62a", "Look at the top two cards of your library",
            "Manifest one of them, then put the cards you looked at that were not manifested", mechanic=M)
def dread(st, ctx, **_):
    tops, pick = st["s"]["top_cards"], st["picked"]
    if not tops:
        return "the library is empty: there is no card to look at, none is manifested and none goes to the graveyard"
    looked = "the top card (the library has only one)" if len(tops) == 1 else "the top two cards"
    rest = [c.get("name") or "a card" for c in tops if c is not pick]
    return (f"look at {looked}; manifest {pick.get('name') or 'it'} (any card may be chosen)"
            + (f"; {', '.join(rest)} goes to the graveyard" if rest else ""))


@implements("701.62b", "triggers whenever a player manifests dread", "triggers after the process described",
            "even if some or all of those actions were impossible", mechanic=M)
def dread_trigger(st, ctx, **_):
    n = st["s"]["manifest_dread_triggers"]
    if not n:
        return None
    impossible = "" if st["picked"] is not None else " (though nothing could be manifested)"
    return (f"{n} 'whenever you manifest dread' ability(ies) trigger once the whole process is done{impossible}; "
            "they see what the process did")


def manifest_dread(ctx, st, characteristics) -> dict:
    """The answer to a manifest-dread question: what is manifested, what goes to the graveyard, what triggers."""
    s = st["s"]
    tops = s["top_cards"][:2]  # only the top two are looked at
    if len(tops) >= 2 and not 1 <= s["choose"] <= 2:
        raise SituationError("choose", "choose 1 or 2: the card among the top two to manifest",
                             message_ja="1か2を選んでください", label_ja="戦慄予示で予示するカード")
    pick = tops[s["choose"] - 1] if len(tops) >= 2 else tops[0] if tops else None
    st["picked"] = pick
    ctx.apply("701.62a")
    chars = None
    if pick is not None:
        st["via"] = "manifest"
        chars = characteristics(ctx, st)
    triggers = s["manifest_dread_triggers"]
    if triggers:
        ctx.apply("701.62b")
    return {"manifested": pick.get("name") if pick else None, "cards_manifested": 1 if pick else 0,
            "characteristics": chars, "may_choose_any": True,  # 701.62a: "Manifest one of them", whatever it is
            "to_graveyard": [c.get("name") for c in tops if c is not pick],
            "dread_triggers": triggers, "triggers_even_if_impossible": bool(triggers) and pick is None}
