#!/bin/sh
# The long fuzz run: >= 10,000 generated inputs per fuzz test (importers, query parser).
# Usage: sh bench/fuzz.sh [TEST FILES...]   (from the repo root, after `make test` created .venv)
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then set -- -k fuzz tests/; fi
HYPOTHESIS_PROFILE=fuzz exec .venv/bin/python -m pytest -q -p no:cacheprovider --timeout 0 "$@"
