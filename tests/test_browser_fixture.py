"""The browser tests' fixture (tests/browser.py): without Chromium a developer's run skips the browser
tests, CI (CI=true) fails them; a test that drives Chromium without the ``browser`` marker fails
everywhere. Run in a separate pytest over a two-test file, with Chromium's path pointed at nothing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CASES = '''
import pytest


@pytest.mark.browser
def test_marked(browser):
    pass


def test_unmarked(browser):
    pass
'''


def _run(tmp_path: Path, ci: str | None) -> str:
    (tmp_path / "conftest.py").write_text(
        "import tests.browser as chromium\n"
        f"chromium.CHROMIUM = {str(tmp_path / 'no-chromium')!r}\n"
        "pytest_plugins = ['tests.browser']\n", encoding="utf-8")
    (tmp_path / "test_cases.py").write_text(CASES, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = str(REPO)
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-W", "ignore::pytest.PytestUnknownMarkWarning", "test_cases.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


def _outcomes(output: str) -> dict[str, str]:
    """test name -> PASSED / FAILED / ERROR / SKIPPED, from pytest -v's lines "file::test OUTCOME"."""
    found = {}
    for line in output.splitlines():
        if line.startswith("test_cases.py::"):
            name, _, rest = line.partition(" ")
            if rest.split()[:1] in (["PASSED"], ["FAILED"], ["ERROR"], ["SKIPPED"]):
                found[name.split("::")[1].removeprefix("test_")] = rest.split()[0]
    return found


@pytest.mark.parametrize("ci", ["true", "1"])
def test_in_ci_a_missing_chromium_fails_the_browser_tests(tmp_path, ci):
    output = _run(tmp_path, ci)
    assert _outcomes(output) == {"marked": "ERROR", "unmarked": "ERROR"}, output
    assert "chromium / chromedriver not installed" in output and "without @pytest.mark.browser" in output


@pytest.mark.parametrize("ci", [None, "", "false"])
def test_outside_ci_a_missing_chromium_skips_them_but_an_unmarked_test_still_fails(tmp_path, ci):
    output = _run(tmp_path, ci)
    assert _outcomes(output) == {"marked": "SKIPPED", "unmarked": "ERROR"}, output
