"""The graph picture on rule and mechanic pages, from the NetworkX view's neighbourhood of the node
(kb.lookup.graph): one node per neighbour, labelled in the page's language, each a link."""
from __future__ import annotations

from flask import url_for

from server.state import get_kb
from server.svg import Node, draw
from server.templating import current_lang, kind_label, pick

EDGE_LABELS = {  # (JA, EN) words on the picture's edges, by edge type and direction
    ("parent", "out"): ("親", "part of"), ("parent", "in"): ("子", "subrule"),
    ("references", "out"): ("参照", "cites"), ("references", "in"): ("被参照", "cited by"),
    ("defined-by", "out"): ("定義", "defined by"), ("defined-by", "in"): ("定義", "defines"),
    ("related", "out"): ("関連", "related"), ("related", "in"): ("関連", "related"),
    ("has-mechanic", "out"): ("メカニズム", "mechanic"), ("has-mechanic", "in"): ("カード", "card"),
    ("decided-by", "out"): ("根拠", "decided by"), ("decided-by", "in"): ("裁定", "decides"),
    ("cites", "out"): ("引用", "cites"), ("cites", "in"): ("引用元", "cited by"),
    ("lineage", "out"): ("現行", "today"), ("lineage", "in"): ("旧版", "formerly"),
    ("about", "out"): ("話題", "about"), ("about", "in"): ("裁定", "ruling"),
}


def _href(node: dict, rule_url) -> str | None:
    kind = node.get("kind")
    if kind == "rule":
        return rule_url(node["number"], node.get("edition"))
    if kind == "mechanic":
        return url_for("mechanics.page", name=node["id"].rsplit("/", 1)[-1])
    if kind == "card":
        return url_for("cards.page", name=node.get("label_ja") or node.get("label"))
    return None


def picture(node_id: str, title: str, rule_url):
    """SVG markup of the node's neighbourhood; None when the node is not in the view."""
    kb = get_kb()
    around = kb.neighbourhood(node_id)
    if not around["nodes"]:
        return None
    ja = current_lang() == "ja"
    neighbours = []
    for node in around["nodes"]:
        kind = node["kind"] if node["kind"] in ("rule", "mechanic", "card", "document") else "ruling"
        label = node.get("number") or (pick(node.get("label_ja"), node.get("label")) if kind != "ruling" else
                                       kind_label("ruling"))
        words = EDGE_LABELS.get((node["edge"], node["direction"]), ("", ""))
        neighbours.append(Node(label, kind, _href(node, rule_url), words[0] if ja else words[1]))
    centre = around["centre"]
    label = centre.get("number") or pick(centre.get("label_ja"), centre.get("label"))
    return draw(label, neighbours, title, kind_label)
