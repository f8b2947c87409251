#!/usr/bin/env bash
# The whole test suite (what CI runs). Full CR texts are read from ../shared/data (MTG_KB_DATA).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh test
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
