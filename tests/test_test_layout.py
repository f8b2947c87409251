"""How the test suite is laid out: fixtures are shared through tests/conftest.py (and the plugin it
loads), helpers and samples through plain modules, so no test module imports names from another
test module or from a conftest.py (importing a test module's names also re-collects its tests)."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _is_test_module(dotted: str) -> bool:
    last = dotted.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def test_no_test_module_imports_names_from_another_test_module_or_a_conftest():
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tests"):
                if _is_test_module(node.module):
                    offenders.append(f"{path.relative_to(TESTS)}:{node.lineno} from {node.module} import ...")
    assert offenders == []
