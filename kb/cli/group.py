"""The `kb` command group and what every command shares: settings read once per invocation, the
loaded KB, one error path (bad input exits 2, nothing found exits 3, other failures 1; with
``--json`` the error is printed as the API's error body, with the same codes: kb.errors)."""
from __future__ import annotations

import json
import sys

import click

from kb import config
from kb.errors import KBError, NotFound


@click.group(help="MTG rules knowledge graph: Comprehensive Rules, wiki pages, FAQs and articles, cited.")
def main() -> None:
    config.use(config.Settings.from_environment())  # read once per command


def emit(data, as_json: bool, human) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        human(data)


def fail(message: str, code: int = 1, error: KBError | None = None, as_json: bool = False):
    if as_json and error is not None:
        click.echo(json.dumps(error.body(), ensure_ascii=False, indent=2))
    click.echo(f"kb: {message}", err=True)
    sys.exit(code)


def fail_with(error: KBError, as_json: bool = False):
    fail(error.message, 3 if isinstance(error, NotFound) else 2, error, as_json)


def load_kb():
    from kb.lookup.kb import KB
    try:
        return KB.load()
    except KBError as exc:
        fail(exc.message, 1, exc)
    except RuntimeError as exc:  # a snapshot of another format
        fail(str(exc), 1)


def answer(call, missing: KBError, as_json: bool = False):
    """Run a lookup: bad input exits 2 with its message, nothing found exits 3."""
    try:
        found = call()
    except KBError as exc:
        fail_with(exc, as_json)
    if found is None or found == []:
        fail_with(missing, as_json)
    return found


def cite(c: dict | None) -> str:
    if not c:
        return ""
    parts = [c.get("rule") and f"rule {c['rule']}", c.get("edition") and f"CR {c['edition']}",
             c.get("document_title") or c.get("document"), c.get("locator")]
    return "[" + " · ".join(p for p in parts if p) + "]"
