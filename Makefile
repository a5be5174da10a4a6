# Two commands on a fresh machine with Python 3.11: `make demo` and `make test`.
# Everything from PyPI goes into .venv; nothing is installed by hand.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
DEMO_EXTRAS := pdf,web,parquet
TEST_EXTRAS := dev,pdf,web,parquet,ray,hf,rg

.PHONY: demo test fuzz screenshots golden install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(DEMO_EXTRAS)]"
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(TEST_EXTRAS)]"
	touch $@ $(VENV)/.installed-demo

install: $(VENV)/.installed-demo
install-test: $(VENV)/.installed-test

## demo: a small dataset from every registered family plus a PDF sheet, into out/
demo: $(VENV)/.installed-demo
	$(BIN)/puzzleforge demo --out out

## test: the whole suite (browser tests need Debian's chromium; they skip with a hint without it)
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

## fuzz: the fault and fuzz suite with its full budgets, ~2,800 examples (tests/fuzz; `make test` runs 55)
fuzz: $(VENV)/.installed-test
	PUZZLEFORGE_FUZZ_SCALE=$${PUZZLEFORGE_FUZZ_SCALE:-25} $(BIN)/python -m pytest -p no:cacheprovider tests/fuzz

## screenshots: re-take docs/screenshots/*.png on purpose (the suite itself writes them to tmp)
screenshots: $(VENV)/.installed-test
	PUZZLEFORGE_SCREENSHOTS_DIR=$(CURDIR)/docs/screenshots $(BIN)/python -m pytest -m browser tests/web

## golden: re-record tests/golden/*.json (families, corpus specs) on purpose, after an intended change of puzzles
golden: $(VENV)/.installed-test
	$(BIN)/python tests/golden/golden.py --record

clean:
	rm -rf out .pytest_cache
