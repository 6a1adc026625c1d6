# Two entry points for a fresh machine with only Python and make:
#   make demo   install everything and run the main job
#   make test   install everything and run the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# torch for the embeddings extra, installed before it so that pip keeps it: the
# CPU build of this release lies on CI's disk (pip's own constraint file finds
# it); a newer release would be a CUDA build of several GB. Elsewhere, set TORCH
# to what suits the machine (TORCH= skips the step and lets pip choose).
TORCH  ?= torch==2.13.0

.PHONY: demo test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(if $(TORCH),$(BIN)/python -m pip install --quiet '$(TORCH)')
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/recurscope demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run.py

# The demo builds the default store (data/recurscope.duckdb): remove_demo_data
# deletes it only while it holds nothing but the demo, so your own data stays.
# It needs the venv, so it runs before the venv goes; without one, only the
# files named for the demo go.
clean:
	@if [ -x $(BIN)/python ]; then \
		$(BIN)/python -c 'from recurscope.dashboards.cli import remove_demo_data; print(*remove_demo_data().lines(), sep="\n")'; \
	else \
		rm -rf data/demo.duckdb data/demo.duckdb.wal data/demo.snapshot.duckdb data/demo.access data/demo.spool; \
		if [ -e data/recurscope.duckdb ]; then echo "kept data/recurscope.duckdb: without $(VENV) make cannot tell the demo's store from your data"; fi; \
	fi
	rm -rf $(VENV) build *.egg-info test-artifacts data/demo-spans data/demo.detector-quality.json
