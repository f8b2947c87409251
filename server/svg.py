"""A picture of the graph around a rule or mechanic: inline SVG drawn on the server.

No JavaScript and nothing fetched: the neighbourhood (from the kb API's answer) is laid out on
rings around the centre node, each node a link to its page. Labels are escaped; the SVG scales to
the page width (``viewBox``), so it stays readable on a phone.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

from markupsafe import Markup, escape

KIND_STYLE = {  # fill colour per kind of node (the legend shows every kind drawn, centre included)
    "centre": "#1f4e79", "mechanic": "#2e7d32", "rule": "#6a1b9a", "card": "#b34700",
    "ruling": "#5d4037", "quote": "#00695c", "glossary": "#37474f", "document": "#455a64",
}
MAX_PER_KIND = 8


@dataclass(slots=True)
class Node:
    label: str
    kind: str
    href: str | None
    edge: str = ""
    name: str = ""  # the full name, for screen readers and as a tooltip


def _cell(c: str) -> int:
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1


def _cells(text: str) -> float:
    """Width in half-width cells: Japanese characters take two."""
    return sum(_cell(c) for c in text)


def _short(label: str, width: int = 16) -> str:
    """At most ``width`` cells (a Japanese character counts two), with an ellipsis when cut.
    One pass over the label (a ruling's label is its whole text): the width so far is kept."""
    label = " ".join(str(label).split())
    used, cut = 0, None
    for i, c in enumerate(label):
        used += _cell(c)
        if cut is None and used > width - 1:
            cut = i  # the first character that no longer fits beside the ellipsis
        if used > width:
            return label[:cut] + "…"
    return label


def draw(centre: str, neighbours: list[Node], title: str = "", label=str) -> Markup:
    """SVG markup: ``centre`` in the middle, ``neighbours`` on up to two rings, edges labelled;
    ``label`` names a kind of node in the legend (the page's language)."""
    groups: dict[str, list[Node]] = {}
    for node in neighbours:
        group = groups.setdefault(node.kind, [])
        if len(group) < MAX_PER_KIND:
            group.append(node)
    nodes = [n for group in groups.values() for n in group]
    size, cx, cy = 640, 320, 300
    inner, outer = 150, 250
    ring = [nodes[i::2] for i in range(2)] if len(nodes) > 12 else [nodes, []]
    placed: list[tuple[Node, float, float]] = []
    for radius, members in zip((inner, outer), ring):
        for i, node in enumerate(members):
            angle = -math.pi / 2 + 2 * math.pi * i / max(len(members), 1) + (0.2 if radius == outer else 0)
            placed.append((node, cx + radius * math.cos(angle), cy + radius * 0.82 * math.sin(angle)))
    out = [f'<svg class="graph" role="group" aria-labelledby="graph-title" viewBox="0 0 {size} {cy * 2}" '
           f'xmlns="http://www.w3.org/2000/svg">', f'<title id="graph-title">{escape(title or centre)}</title>']
    for node, x, y in placed:
        out.append(f'<line x1="{cx}" y1="{cy}" x2="{x:.1f}" y2="{y:.1f}" stroke="#9e9e9e" stroke-width="1.2"/>')
        if node.edge:
            out.append(_edge_label(node.edge, cx, cy, x, y))
    out.append(_node(Node(centre, "centre", None), cx, cy, big=True))
    for node, x, y in placed:
        out.append(_node(node, x, y))
    legend_y, x = cy * 2 - 10, 14.0
    for kind in (k for k in KIND_STYLE if k in groups or k == "centre"):
        words = label(kind)
        out.append(f'<g aria-hidden="true"><circle cx="{x:.0f}" cy="{legend_y - 4}" r="6" fill="{KIND_STYLE[kind]}"/>'
                   f'<text x="{x + 10:.0f}" y="{legend_y}" font-size="12">{escape(words)}</text></g>')
        x += 30 + 7 * _cells(words)
    out.append("</svg>")
    return Markup("".join(out))


def _edge_label(words: str, x1: float, y1: float, x2: float, y2: float) -> str:
    """An edge's words, always horizontal and never crossed by a line: beside a steep line (on its
    right), above a flat one, on a halo of the background's colour."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    steep = abs(x2 - x1) < 0.6 * abs(y2 - y1)
    x, y, anchor = (mx + 5, my + 4, "start") if steep else (mx, my - 4, "middle")
    return (f'<text class="edge-label" x="{x:.1f}" y="{y:.1f}" font-size="11" fill="#555" text-anchor="{anchor}" '
            f'paint-order="stroke" stroke="#f3f5f8" stroke-width="4" stroke-linejoin="round">{escape(words)}</text>')


def _node(node: Node, x: float, y: float, big: bool = False) -> str:
    colour = KIND_STYLE.get(node.kind, "#616161")
    short = _short(node.label, 22 if big else 16)
    label = escape(short)
    width = max(60, 6.6 * _cells(short)) + 16 if not big else max(90, 8 * _cells(short)) + 20
    height = 30 if big else 24
    body = (f'<rect x="{x - width / 2:.1f}" y="{y - height / 2:.1f}" width="{width:.1f}" height="{height}" '
            f'rx="12" fill="{colour}"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="{14 if big else 12}" fill="#fff" '
            f'text-anchor="middle">{label}</text>')
    name = escape(node.name or node.label)
    if node.href:
        return (f'<a href="{escape(node.href)}" class="node node-{node.kind}" aria-label="{name}">'
                f'<title>{name}</title>{body}</a>')
    return f'<g class="node node-{node.kind}"><title>{name}</title>{body}</g>'
