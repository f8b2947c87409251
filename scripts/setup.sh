#!/usr/bin/env bash
# Idempotent set-up, sourced by serve.sh and test.sh: a virtualenv in .venv with the pinned
# packages, re-installed only when pyproject.toml changes; with "test", Debian's chromium,
# chromedriver, wrk and fonts-noto-cjk for the browser tests (JA screenshots) and the HTTP bench.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/pip install -q --upgrade pip >/dev/null
  .venv/bin/pip install -q -e '.[test]'
  rm -f .venv/.installed-* && touch "$stamp"
fi
if [ "${1:-}" = "test" ]; then
  missing=""
  for bin in chromium chromedriver wrk; do command -v "$bin" >/dev/null || missing="$missing $bin"; done
  # the browser tests' screenshots are of Japanese pages: without CJK fonts they show boxes
  dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing="$missing fonts-noto-cjk"
  if [ -n "$missing" ]; then
    echo "installing Debian packages for browser tests and benchmarks:$missing" >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq chromium chromium-driver wrk fonts-noto-cjk >/dev/null
  fi
fi
