"""The shape of the code: layers point down, no import cycles, small modules, one error vocabulary."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kb.errors import CODES

ROOT = Path(__file__).resolve().parent.parent
MODULES = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
           for pkg in ("kb", "server") for p in (ROOT / pkg).rglob("*.py")}


def imports(module: str) -> set[str]:
    """Every project module ``module`` imports, anywhere in it (functions included)."""
    path = MODULES[module]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def project_imports(module: str) -> set[str]:
    return {m for m in imports(module) if m in MODULES and m != module}


def test_no_import_cycles():
    graph = {m: project_imports(m) for m in MODULES}
    state: dict[str, int] = {}

    def visit(m, stack):
        state[m] = 1
        for n in graph[m]:
            if state.get(n) == 1:
                pytest.fail("import cycle: " + " -> ".join(stack[stack.index(n):] + [n]))
            if n not in state:
                visit(n, stack + [n])
        state[m] = 2
    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


# A package may import only from the packages listed for it (its own modules always).
LAYERS = {
    "kb.sources": {"kb.errors", "kb.text", "kb.rulenumbers", "kb.config"},
    "kb.parse": {"kb.sources", "kb.citations.extract", "kb.errors", "kb.text", "kb.rulenumbers"},
    "kb.reasoning": {"kb.errors", "kb.text", "kb.memo", "kb.rulenumbers"},
    "kb.store": {"kb.config", "kb.errors", "kb.text", "kb.reasoning", "kb.memo"},
    "kb.graphview": {"kb.vocab", "kb.reasoning.reach"},
    "kb.build": {"kb.config", "kb.sources", "kb.parse", "kb.citations", "kb.store", "kb.vocab", "kb.graphview",
                 "kb.search", "kb.reasoning", "kb.text", "kb.wikitext", "kb.errors", "kb.rulenumbers"},
    "kb.search": {"kb.store", "kb.build.mechanics", "kb.parse.card_mentions", "kb.text", "kb.rulenumbers",
                  "kb.errors", "kb.memo"},
    "kb.citations": {"kb.parse", "kb.store", "kb.errors", "kb.text", "kb.wikitext", "kb.rulenumbers", "kb.memo",
                     "kb.search.tokenize", "kb.sources.official", "kb.sources.editions"},
    "kb.lookup": {"kb.config", "kb.errors", "kb.store", "kb.graphview", "kb.search", "kb.citations",
                  "kb.reasoning", "kb.vocab", "kb.text", "kb.wikitext", "kb.rulenumbers", "kb.memo", "kb.build.pipeline",
                  "kb.build.cache",  # the home's cache of results kept per snapshot (kb.lookup.display)
                  "kb.sources.files", "kb.sources.official", "kb.sources.types", "kb.sources.editions"},
    "kb.cli": {"kb.config", "kb.errors", "kb.lookup", "kb.build", "kb.store", "kb.sources", "kb.vocab", "kb.text",
               "kb.rulenumbers", "kb.wikitext"},  # input checked before a snapshot is loaded (kb rule abc with none)
}


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_layers_point_down(package):
    allowed = LAYERS[package] | {package}
    wrong = {f"{m} -> {n}" for m in MODULES if m == package or m.startswith(package + ".")
             for n in project_imports(m) if not any(n == a or n.startswith(a + ".") for a in allowed)
             and not n == "kb"}
    assert wrong == set()


def test_kb_never_imports_the_server_or_flask():
    offenders = {m: sorted(n for n in imports(m) if n.split(".")[0] in ("server", "flask", "werkzeug", "gunicorn"))
                 for m in MODULES if m.startswith("kb")}
    assert {m: v for m, v in offenders.items() if v} == {}


def test_no_module_over_450_lines():
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in MODULES.items()}
    assert {m: n for m, n in sizes.items() if n > 450} == {}


def test_error_codes_are_locked():
    """The stable codes users and scripts rely on: changing one is a breaking change."""
    assert {c: s for c, (s, _) in CODES.items()} == {
        "invalid_rule_number": 400, "invalid_lang": 400, "invalid_edition": 400, "invalid_date": 400,
        "invalid_parameter": 400, "missing_parameter": 400, "query_too_long": 400, "invalid_json": 400,
        "invalid_source": 422, "payload_too_large": 413, "unsupported_media_type": 415,
        "edition_not_found": 404, "no_edition_loaded": 404, "rule_not_found": 404, "mechanic_not_found": 404,
        "mechanic_not_answerable": 404, "card_not_found": 404, "ruling_not_found": 404, "document_not_found": 404,
        "no_snapshot": 503, "invalid_query": 400, "query_failed": 400, "update_refused": 403, "query_timeout": 503,
        "invalid_situation": 400, "not_answerable": 422, "unavailable": 503}
    assert all(description for _, description in CODES.values())


def test_readme_documents_every_error_code():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [c for c in CODES if f"`{c}`" not in readme] == []
