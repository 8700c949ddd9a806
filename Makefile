# MemDesk developer commands. `make run` and `make test` work on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEPS   := $(VENV)/.deps-installed

.PHONY: run test test-all bench clean-venv system-deps

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

test: $(DEPS) system-deps
	$(BIN)/python -m pytest -q -m "not slow"

test-all: $(DEPS) system-deps
	$(BIN)/python -m pytest -q

bench: $(DEPS)
	$(BIN)/python bench/retrieval.py ../shared/bench/locomo.jsonl
	$(BIN)/python bench/search_speed.py

clean-venv:
	rm -rf $(VENV)
