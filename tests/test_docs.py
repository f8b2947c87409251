"""What the README tells a newcomer exists: its set-up commands, the `kb` commands and options it shows
(each `kb <command> --help` runs and lists the option), the repository paths it names, the web and
API routes it names, and its error table: one well-formed row per code, each code one that kb or the
service raises with that status, and every code they raise in the table."""
from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.errors import CODES, HTTP_CODES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert found, f"README has no section '## {title}'"
    return found[1]


def _code() -> list[str]:
    """Every inline code span and every line of a fenced block."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", README, re.M | re.S)
    prose = re.sub(r"^```[a-z]*\n.*?^```", "", README, flags=re.M | re.S)
    return [line for block in blocks for line in block.splitlines()] + re.findall(r"`([^`\n]+)`", prose)


def _kb_calls() -> list[list[str]]:
    """Each `kb …` invocation the README shows, as its words (comments and prompts dropped)."""
    calls = []
    for text in _code():
        text = re.sub(r"^\$ ", "", text.strip())
        if not text.startswith("kb "):
            continue
        text = re.sub(r"\s+#.*$", "", text)
        try:
            words = shlex.split(text)
        except ValueError:  # an unclosed quote inside a span of prose: take the words before it
            words = text.split()
        if len(words) > 1 and re.fullmatch(r"[a-z-]+", words[1]):  # not `kb <command> --help`
            calls.append(words[1:])
    return calls


def test_the_set_up_commands_are_the_two_scripts():
    setup = _section("Set-up: two commands")
    assert "bash scripts/serve.sh" in setup and "bash scripts/test.sh" in setup
    assert (ROOT / "scripts" / "serve.sh").is_file() and (ROOT / "scripts" / "test.sh").is_file()
    assert "scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")  # what CI runs


def test_readme_size():
    assert len(README.splitlines()) <= 250 and len(README.encode("utf-8")) <= 20_000


KB_CALLS = _kb_calls()


def test_the_readme_shows_most_kb_commands():
    shown = {call[0] for call in KB_CALLS if call and not call[0].startswith("-")}
    assert len(KB_CALLS) >= 15 and shown >= {"build", "fetch", "rule", "mechanic", "card", "search", "ask",
                                              "check-citations", "diff", "editions"}


@pytest.mark.parametrize("call", KB_CALLS, ids=[" ".join(c)[:60] for c in KB_CALLS])
def test_each_kb_command_shown_exists_with_its_options(call):
    command, options = call[0], {w.split("=")[0] for w in call[1:] if w.startswith("-")}
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0, f"kb {command} --help: {result.output}"
    assert [o for o in sorted(options) if not re.search(rf"(?<![\w-]){re.escape(o)}\b", result.output)] == []


def test_the_commands_said_to_print_json_have_json_and_the_others_do_not():
    prose = _section("A short tour")
    said = re.search(r"The lookup commands \(([^)]*)\) print JSON with `--json`; ([^.]*?)\s+do not", prose)
    assert said, "the tour says which commands take --json"
    with_json = set(re.findall(r"`([a-z-]+)`", said[1]))
    without = set(re.findall(r"`([a-z-]+)`", said[2]))
    has_json = {name for name, cmd in main.commands.items() if any("--json" in p.opts for p in cmd.params)}
    assert (with_json, without) == (has_json, set(main.commands) - has_json)


def _paths() -> set[str]:
    """Repository paths the README names: words with a slash that are not routes, URLs, the user's
    home (`~`), what set-up and builds create (`.venv/`, `var/`) or the data beside the repository."""
    found = set()
    for text in _code():
        for word in re.split(r"[\s,;()'\"]+", text):
            word = word.strip("`.:")
            if not re.fullmatch(r"[a-z_.][\w.-]*(/[\w.-]+)*/(?:[\w-]+\.[a-z]+)?|[a-z_.][\w.-]*(/[\w.-]+)+\.[a-z]+", word):
                continue  # a path is lower-case words joined by slashes, ending in "/" or a file name
            if word.startswith(("var/", ".venv/", "../")):
                continue
            found.add(word)
    return found


def test_every_path_the_readme_names_exists():
    paths = _paths()
    assert {"kb/errors.py", "kb/vocab/vocab.ttl", "server/svg.py", "tests/conftest.py"} <= paths
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []


def test_every_route_the_readme_names_is_served():
    from server import create_app
    from tests.server.corpus import tiny_kb

    routes = set()
    for text in _code():
        for method, path in re.findall(r"(?:(GET|POST) )?(?<![\w./])(/(?:api|rules|mechanics|cards|search|check|editions|diff"
                                       r"|sparql)[^\s`,;)]*)", text):
            routes.add((method or "GET", path.split("?")[0]))
    assert len(routes) >= 10
    adapter = create_app({"KB": tiny_kb()[0], "TESTING": True}).url_map.bind("localhost")
    missing = []
    for method, path in sorted(routes):
        if "…" in path:  # `/api/…`: the API's own index
            path = path.split("…")[0]
        try:
            adapter.match(path, method=method)
        except Exception as exc:  # noqa: BLE001 - NotFound, MethodNotAllowed: the route is not served
            missing.append((method, path, type(exc).__name__))
    assert missing == []


def _error_rows() -> list[list[str]]:
    """The error table's rows, as cells; the table runs from its header to the first blank line, and
    every line of it must be one whole row (a meaning wrapped onto a second line breaks the table)."""
    section = _section("Errors").splitlines()
    start = section.index("| code | status | meaning |")
    end = next((i for i in range(start, len(section)) if not section[i].strip()), len(section))
    lines = section[start:end]
    assert lines[1] == "| --- | --- | --- |"
    assert [line for line in lines if not (line.startswith("| ") and line.endswith(" |"))] == []
    return [[cell.strip() for cell in line[2:-2].split(" | ")] for line in lines[2:]]


def _raised_by_the_service() -> dict[str, int | None]:
    """code -> status of every error the server raises itself: APIError(status, "code", …) calls and
    the code for an HTTP status kb.errors.HTTP_CODES does not list (None: any status)."""
    raised: dict[str, int | None] = {code: status for status, code in HTTP_CODES.items()}
    for path in (ROOT / "server").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            if name == "APIError" and len(args) >= 2 and isinstance(args[1], str):
                raised[args[1]] = args[0]
            if name == "get" and len(args) == 2 and isinstance(args[1], str) and "HTTP_CODES" in ast.unparse(node.func):
                raised[args[1]] = None
    return raised


def test_the_error_table_has_one_well_formed_row_per_code():
    rows = [r for r in _error_rows() if not r[0].startswith("*")]
    assert all(len(r) == 3 and r[2] and re.fullmatch(r"`[a-z_]+`", r[0]) for r in rows), rows
    codes = [r[0].strip("`") for r in rows]
    assert len(codes) == len(set(codes))


def test_every_code_in_the_table_is_raised_with_its_status_and_every_raised_code_is_in_it():
    table = {r[0].strip("`"): r[1] for r in _error_rows() if not r[0].startswith("*")}
    raised = {code: status for code, (status, _) in CODES.items()}
    for code, status in _raised_by_the_service().items():
        raised.setdefault(code, status)
    assert sorted(set(raised) - set(table)) == []  # raised, not documented
    assert sorted(set(table) - set(raised)) == []  # documented, never raised
    wrong = {c: (table[c], s) for c, s in raised.items() if table[c] != (str(s) if s is not None else "other")}
    assert wrong == {}
