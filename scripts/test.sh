#!/usr/bin/env bash
# The whole test suite (what CI runs). Full CR texts are read from ../shared/data (MTG_KB_DATA).
# Two pytest-xdist workers (CI has 2 cores), each taking over the tail of the other's queue when it
# runs dry; the full snapshot is built once and shared (tests/conftest.py).
# Extra arguments pass through: `-n 0` runs in one process.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh test
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --dist worksteal "$@"
