# MemDesk developer commands. `make run` and `make test` work on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEPS   := $(VENV)/.deps-installed

.PHONY: run check test test-all bench clean-venv system-deps package

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall when the project's dependencies change.
$(DEPS): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(DEPS)
	$(BIN)/memdesk

system-deps:
	sh packaging/system-deps.sh

# The habits that keep the layout (pyproject.toml configures each): lint and formatting, the
# import contracts (core never imports gui/cli/Qt; gui never imports peewee or core.models),
# and mypy on the core.
check: $(DEPS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

test: check system-deps
	$(BIN)/python -m pytest -q -m "not slow"

# Everything, with the fuzz and kill loops (marked slow).
test-all: check system-deps
	$(BIN)/python -m pytest -q

bench: $(DEPS)
	$(BIN)/python bench/retrieval.py ../shared/bench/locomo.jsonl
	$(BIN)/python bench/search_speed.py

clean-venv:
	rm -rf $(VENV)

# Linux bundle + tar.gz, then the frozen binary's self-test from outside the source tree.
package: $(DEPS)
	$(BIN)/python -m pip install --quiet -e '.[package]'
	PYTHON=$(BIN)/python sh packaging/build_linux.sh
	cd /tmp && QT_QPA_PLATFORM=offscreen $(CURDIR)/dist/memdesk/memdesk --self-test
