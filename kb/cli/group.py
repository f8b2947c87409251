"""The `kb` command group and what every command shares: settings read once per invocation, the
loaded KB, one error path (bad input exits 2, nothing found exits 3, other failures 1; with
``--json`` the error is printed as the API's error body, with the same codes: kb.errors)."""
from __future__ import annotations

import json
import sys

import click

from kb import config
from kb.errors import KBError, NotFound


class KBGroup(click.Group):
    """A kb error raised past a command's own handling (a snapshot file found damaged when first read,
    bad input found deep in a lookup) is answered as every error is: one line, --json's error body,
    exit 1/2/3 (``exit_code``), never "internal error"."""

    def invoke(self, ctx: click.Context):
        as_json = "--json" in (*ctx.protected_args, *ctx.args)
        try:
            return super().invoke(ctx)
        except KBError as exc:
            fail_with(exc, as_json)


@click.group(cls=KBGroup, help="MTG rules knowledge graph: Comprehensive Rules, wiki pages, FAQs and articles, cited.")
def main() -> None:
    config.use(config.Settings.from_environment())  # read once per command


def emit(data, as_json: bool, human) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        human(data)


def wants_json() -> bool:
    """Whether the running command was given --json (its errors are then the API's error body too)."""
    context = click.get_current_context(silent=True)
    return bool(context and context.params.get("as_json"))


def fail(message: str, code: int = 1, error: KBError | None = None, as_json: bool = False):
    if (as_json or wants_json()) and error is not None:
        click.echo(json.dumps(error.body(), ensure_ascii=False, indent=2))
    click.echo(f"kb: {message}", err=True)
    sys.exit(code)


def exit_code(error: KBError) -> int:
    """3: nothing found; 1: the KB cannot answer at all (no snapshot, a damaged one: 503); 2: bad input."""
    return 1 if error.status >= 500 else 3 if isinstance(error, NotFound) else 2


def fail_with(error: KBError, as_json: bool = False):
    fail(error.message, exit_code(error), error, as_json)


def checked(call):
    """``call()`` (input checks that need no snapshot, done before loading one): a KBError exits as ``fail_with``."""
    try:
        return call()
    except KBError as exc:
        fail_with(exc)


def load_kb(as_json: bool = False):
    """The current snapshot's KB; none, a damaged one or an unreadable CURRENT is one line on stderr
    (with --json also the error body: ``no_snapshot`` / ``unavailable``) and exit 1."""
    from kb.errors import SnapshotDamaged
    from kb.lookup.kb import KB
    try:
        return KB.load()
    except KBError as exc:
        fail_with(exc, as_json)
    except RuntimeError as exc:  # a snapshot of another format, an unreadable CURRENT (SnapshotError)
        fail_with(SnapshotDamaged(str(exc)), as_json)


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
