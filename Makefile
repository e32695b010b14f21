# The README's two commands. Each sets itself up on a fresh Debian machine that has only python3.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
TSTAMP  := $(VENV)/.installed-test
AXE     := tests/a11y/node_modules/axe-core/axe.min.js

# Python keeps its compiled modules (and pytest its rewritten test modules) under .venv/pycache,
# even where the shell says not to write them (PYTHONDONTWRITEBYTECODE): without them every
# pytest worker compiles the kit and rewrites the tests again (collecting costs 2.5 times the
# CPU). Under .venv, not in the tree: setuptools would see __pycache__ folders in the packages.
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX := $(abspath $(VENV))/pycache

# The tests' scratch files (their databases, decks, PDFs, Chromium's profiles) on the RAM disk
# where the machine has one: every commit of a test's station waits for the disk otherwise
# (SQLite's synchronous=FULL), a sixth of the quick tests' time. A test never needs them kept.
SCRATCH := $(firstword $(wildcard /dev/shm) $(or $(TMPDIR),/tmp))
PYTEST  := TMPDIR=$(SCRATCH) $(BIN)/python -m pytest

.PHONY: run test check dist install install-test system-test-deps catalogs clean

# `make run PORT=5001 LANG=en`: the station's port (the demo cards' QR codes follow it) and the
# language of the demo cards and pages. LANG counts only on make's command line, never the
# environment's locale (LANG=en_US.UTF-8).
RUN_ARGS := $(if $(PORT),--port $(PORT)) $(if $(filter command line,$(origin LANG)),--lang $(LANG))

run: install catalogs
	$(BIN)/bingo-hall demo $(RUN_ARGS)

# The whole suite: every test but the `alone` ones on both cores (a file's tests stay together on
# one core: their module's fixtures are made once; the files with long tests first, in
# conftest.py's order, which xdist would otherwise change to the files with most tests first),
# then the `alone` ones (a real station under an attack it must hold, the benchmarks' smoke runs)
# with nothing beside them.
test: install-test catalogs system-test-deps $(AXE)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@# mypy checks the types beside the first part; a type error fails the run at its end
	$(BIN)/mypy & types=$$!; \
	  $(PYTEST) -q -n 2 --dist loadfile --no-loadscope-reorder -m "not alone"; tests=$$?; \
	  wait $$types; typed=$$?; [ $$tests -eq 0 ] && [ $$typed -eq 0 ]
	$(PYTEST) -q -m "alone"

# The quick loop (under a minute): lint, format, types, and the tests that need no browser, no
# long run and no real process or server of their own (marked `process`: they run in `make test`'s
# first part). `make test` is the whole suite; CI runs that.
check: install-test catalogs
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy & types=$$!; \
	  $(PYTEST) -q -n 2 -m "not browser and not slow and not process"; tests=$$?; \
	  wait $$types; typed=$$?; [ $$tests -eq 0 ] && [ $$typed -eq 0 ]

# The sdist and the wheel in dist/ (the wheel is built from the sdist and compiles its catalogs):
# `pipx install ./dist/bingo_hall-*.whl` installs the kit without a clone.
dist: install-test
	@rm -rf dist
	$(BIN)/python -m build -q -o dist .
	@ls dist

# --- set-up -----------------------------------------------------------------------------------
$(BIN)/python:
	@$(PY) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3-venv is missing; installing it with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip; \
	  rm -rf $(VENV); $(PY) -m venv $(VENV); }
	@# a venv's own pip from 23 on does what the install needs (an editable install, `pip --python`):
	@# a newer one is fetched only for an older Python's venv (a download and an install saved)
	@$(BIN)/python -c "import pip, sys; sys.exit(int(pip.__version__.split('.')[0]) < 23)" 2>/dev/null \
	  || $(BIN)/python -m pip install -q --upgrade pip

# --no-compile: pip would compile every module of every package it installs (mypy, playwright,
# babel...: half the install's time); Python compiles the modules a command imports on first use,
# into the cache above.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --no-compile -e .
	@touch $@

$(TSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --no-compile -e '.[test]'
	@touch $@ $(STAMP)

# The pinned browser libraries (setup.py fetches them during the install; again if deleted).
VENDOR  := bingo_hall/station/static/vendor
$(VENDOR)/jsQR.js: $(VENDOR)/package-lock.json | $(STAMP)
	$(BIN)/python -m pip install -q --no-compile -e .
	@touch $@

install: $(STAMP) $(VENDOR)/jsQR.js
install-test: $(TSTAMP) $(VENDOR)/jsQR.js

# Compile the Spanish/English .po catalogs to .mo (generated, not committed).
catalogs: $(STAMP)
	@for d in $$(find bingo_hall companions firmware_bridge -type d -name translations 2>/dev/null); do $(BIN)/pybabel -q compile -d $$d || exit 1; done

# Debian packages the tests need: a real Chromium (no browser downloads are possible here), as
# its headless shell (benchmarks/_browser.py says why), and iproute2's `ip` for the guests'
# network namespace (tests/security/test_guests.py).
system-test-deps:
	@command -v chromium-headless-shell >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium-headless-shell for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell fonts-dejavu-core; }
	@command -v ip >/dev/null 2>&1 || { \
	  echo "installing iproute2 for the guests' network namespace"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2; }

# axe-core for the accessibility tests (tests/test_axe_browser.py): an npm package pinned in
# tests/a11y/package-lock.json, installed there with `npm ci` (Debian's npm first when missing).
# The tests need it; the wheel never carries it.
$(AXE): tests/a11y/package.json tests/a11y/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "installing Debian's npm for the accessibility tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; }
	cd tests/a11y && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
