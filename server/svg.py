"""A picture of the graph around a rule or mechanic: inline SVG drawn on the server.

No JavaScript and nothing fetched: the neighbourhood (from the kb API's answer) is laid out on
rings around the centre node, each node a link to its page. Labels are escaped; the SVG scales to
the page width (``viewBox``), so it stays readable on a phone.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup, escape

KIND_STYLE = {  # fill colour per kind of node
    "centre": "#1f4e79", "mechanic": "#2e7d32", "rule": "#6a1b9a", "card": "#ef6c00",
    "ruling": "#5d4037", "document": "#455a64",
}
MAX_PER_KIND = 8


@dataclass(slots=True)
class Node:
    label: str
    kind: str
    href: str | None
    edge: str = ""


def _short(label: str, width: int = 16) -> str:
    label = " ".join(str(label).split())
    return label if len(label) <= width else label[: width - 1] + "…"


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
    out = [f'<svg class="graph" role="img" viewBox="0 0 {size} {cy * 2}" xmlns="http://www.w3.org/2000/svg">',
           f"<title>{escape(title or centre)}</title>"]
    for node, x, y in placed:
        out.append(f'<line x1="{cx}" y1="{cy}" x2="{x:.1f}" y2="{y:.1f}" stroke="#9e9e9e" stroke-width="1.2"/>')
        if node.edge:
            mx, my = (cx + x) / 2, (cy + y) / 2
            out.append(f'<text x="{mx:.1f}" y="{my:.1f}" font-size="10" fill="#757575" '
                       f'text-anchor="middle">{escape(node.edge)}</text>')
    out.append(_node(Node(centre, "centre", None), cx, cy, big=True))
    for node, x, y in placed:
        out.append(_node(node, x, y))
    legend_y = cy * 2 - 10
    for i, kind in enumerate(k for k in KIND_STYLE if k in groups):
        out.append(f'<circle cx="{14 + i * 100}" cy="{legend_y - 4}" r="6" fill="{KIND_STYLE[kind]}"/>'
                   f'<text x="{24 + i * 100}" y="{legend_y}" font-size="12">{escape(label(kind))}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def _node(node: Node, x: float, y: float, big: bool = False) -> str:
    colour = KIND_STYLE.get(node.kind, "#616161")
    label = escape(_short(node.label, 22 if big else 16))
    width = max(60, 7.5 * len(str(label))) + 16 if not big else max(90, 9 * len(str(label))) + 20
    height = 30 if big else 24
    body = (f'<rect x="{x - width / 2:.1f}" y="{y - height / 2:.1f}" width="{width:.1f}" height="{height}" '
            f'rx="12" fill="{colour}"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="{14 if big else 12}" fill="#fff" '
            f'text-anchor="middle">{label}</text>')
    if node.href:
        return f'<a href="{escape(node.href)}" class="node node-{node.kind}">{body}</a>'
    return f'<g class="node node-{node.kind}">{body}</g>'
