# Two entry points for a fresh machine with only Python and make:
#   make demo   install everything and run the main job
#   make test   install everything and run the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/agent_loop.py --out data/demo-spans.jsonl --sessions 5
	$(BIN)/recurscope ingest --db data/demo.duckdb data/demo-spans.jsonl
	$(BIN)/recurscope detector-eval --json > data/detector-quality.json
	$(BIN)/recurscope report --db data/demo.duckdb --format md

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

clean:
	rm -rf $(VENV) build *.egg-info
