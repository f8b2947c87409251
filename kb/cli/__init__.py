"""`kb`: build the knowledge graph and look things up. Readable output by default, --json for machines.

Every failure is a one-line message on stderr and a non-zero exit, never a traceback (kb.cli.group).
"""
from __future__ import annotations

from kb.cli import ask, build, citations, editions, lookup, serve  # noqa: F401  (each adds its commands)
from kb.cli.group import main

__all__ = ["main", "run"]


def run() -> None:
    """The `kb` program: click's own errors as click prints them; anything unexpected as one line."""
    import sys
    try:
        main(standalone_mode=True)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - a bug must still not print a traceback to a user
        print(f"kb: internal error ({type(exc).__name__}): {exc}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    run()
