"""The graph picture on rule and mechanic pages, from the NetworkX view's neighbourhood of the node
(kb.lookup.graph): one node per neighbour, labelled in the page's language, each a link."""
from __future__ import annotations


from server.state import get_kb
from server.svg import Node, draw
from server.templating import current_lang, kind_label, pick
from server.urls import url_for

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


def _statement_id(node: dict) -> str | None:
    """"…/document/faq-innistrad-dfc-2011/ruling/r4" -> "faq-innistrad-dfc-2011#r4"."""
    parts = node.get("id", "").rsplit("/", 4)
    if len(parts) == 5 and parts[1] == "document" and parts[3] in ("ruling", "quote"):
        return f"{parts[2]}#{parts[4]}"
    return None


def _href(node: dict, rule_url) -> str | None:
    kind = node.get("kind")
    if kind == "rule":
        return rule_url(node["number"], node.get("edition"))
    if kind == "mechanic":
        return url_for("mechanics.page", name=node["id"].rsplit("/", 1)[-1])
    if kind == "card":
        return url_for("cards.page", name=node.get("label_ja") or node.get("label"))
    if kind == "document":
        return url_for("documents.page", doc_id=node["id"].rsplit("/", 1)[-1])
    statement = _statement_id(node)
    return url_for("rulings.page", ruling_id=statement) if statement else None


def _label(kb, node: dict, kind: str) -> tuple[str, str]:
    """(label, full name for screen readers and hover) in the page's language."""
    if kind == "rule":
        return node["number"], f"{kind_label('rule')} {node['number']}"
    if kind in ("ruling", "quote"):
        statement = kb.ruling(_statement_id(node) or "") if _statement_id(node) else None
        if statement is None:
            return kind_label(kind), node.get("label") or ""
        text = statement["display"]
        mark = "古・" if statement.get("superseded") and current_lang() == "ja" else (
            "old: " if statement.get("superseded") else "")
        source = statement.get("source_type")  # what it is: 公式FAQ, Wiki解説, ブログ解説 (never all 裁定)
        what = pick(source["label"]["ja"], source["label"]["en"]) if source else kind_label(statement["kind"])
        return mark + text, f"{what}: {text}"
    name = pick(node.get("label_ja"), node.get("label")) or ""
    return name, f"{kind_label(kind)}: {name}"


def picture(node_id: str, title: str, rule_url):
    """SVG markup of the node's neighbourhood; None when the node is not in the view. One picture
    node per page it links to (a rule's JA and EN nodes, or two edges to one ruling, are one node);
    wiki link lists (参考) are left out."""
    kb = get_kb()
    around = kb.neighbourhood(node_id)
    if not around["nodes"]:
        return None
    ja = current_lang() == "ja"
    neighbours: dict[tuple, Node] = {}
    for node in around["nodes"]:
        kind = node["kind"] if node["kind"] in ("rule", "mechanic", "card", "document", "glossary", "quote") else "ruling"
        if kind in ("ruling", "quote") and "§ 参考" in (node.get("locator") or ""):
            continue
        label, name = _label(kb, node, kind)
        href = _href(node, rule_url)
        words = EDGE_LABELS.get((node["edge"], node["direction"]), ("", ""))
        key = (kind, href or label)
        if key in neighbours:
            edge = words[0] if ja else words[1]
            if edge and edge not in neighbours[key].edge.split("・"):
                neighbours[key].edge += "・" + edge
            continue
        neighbours[key] = Node(label, kind, href, words[0] if ja else words[1], name)
    centre = around["centre"]
    label = centre.get("number") or pick(centre.get("label_ja"), centre.get("label"))
    return draw(label, list(neighbours.values()), title, kind_label)
