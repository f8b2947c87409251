#!/usr/bin/env bash
# Run the service on the built-in corpus: builds the graph on first run (rules_src/, plus
# ../shared/data when it is there), then serves http://127.0.0.1:8000 under gunicorn.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
exec .venv/bin/kb serve "$@"
