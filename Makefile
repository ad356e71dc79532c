# The two README commands. Everything else is a helper target for them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# pyproject.toml's pins (runtime, the test extra, the build's setuptools) and all that they
# pull in, each at one version with the sha256 of every file pip may pick: `make lock`.
LOCK := requirements/lock.txt

.PHONY: install test run test-engine chromium node-tools check lock

# Only what the lock names, checked against its hashes; then the project itself, editable
# (unhashable), built with the lock's setuptools instead of a freshly downloaded one.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	-git config core.hooksPath .githooks 2>/dev/null  # commit subjects of at most 72 characters
	touch $(STAMP)

install: $(STAMP)

# Regenerate $(LOCK) from pyproject.toml: run after changing a pin in pyproject.toml
# (tests/web/test_lock_file.py fails until you do). Versions already locked are kept where
# the pins allow; `make lock LOCK_ARGS=--upgrade` moves the unpinned ones to their newest.
# pip-tools runs in a throwaway venv, never in $(VENV). Run it with the oldest supported
# Python, 3.11, so that the lock keeps whatever 3.11 needs.
PIP_TOOLS := pip==26.3 pip-tools==7.7.0
LOCK_ARGS ?=
lock:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	@mkdir -p $(dir $(LOCK))
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(PYTHON) -m venv "$$tmp" && \
	"$$tmp/bin/python" -m pip install --quiet $(PIP_TOOLS) && \
	CUSTOM_COMPILE_COMMAND='make lock' "$$tmp/bin/pip-compile" --quiet --generate-hashes \
		--allow-unsafe --strip-extras --extra test --build-deps-for editable \
		--no-emit-index-url --no-emit-find-links $(LOCK_ARGS) --output-file $(LOCK) pyproject.toml

empty :=
space := $(empty) $(empty)

HOST ?= 127.0.0.1
PORT ?= 8000

# Migrate, load built-in data, embedded Redis unless REDIS_URL is set, daphne + Celery.
run: install
	$(PY) -m mahjong.run --host $(HOST) --port $(PORT)

# Browser tests drive Debian's chromium (Playwright's own browser download is not used),
# with the CJK and emoji fonts a player's machine has: without them the pages' Chinese is
# drawn as boxes, and the layout tests measure text of the wrong width.
BROWSER_PACKAGES := chromium fonts-noto-cjk fonts-noto-color-emoji
chromium:
	@missing=$$(for p in $(BROWSER_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null \
		| grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $$missing; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq $$missing; fi; \
	fi

# npm tools of the browser tests, in one install (npm would prune the other): axe-core,
# which tests/e2e/test_a11y.py injects into chromium, and Lighthouse, which
# tests/e2e/test_lighthouse.py and bench/lighthouse.py run on Debian's chromium
# (Lighthouse 12: 13 needs Node 22.19, newer than Debian 12's 18).
NODE_TOOLS := axe-core@4.14.1 lighthouse@12.8.2
NODE_STAMP := tests/e2e/node/.installed-$(subst @,-,$(subst $(space),_,$(NODE_TOOLS)))
$(NODE_STAMP):
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nodejs npm; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq nodejs npm; fi; }
	npm install --silent --no-audit --no-fund --no-save --prefix tests/e2e/node $(NODE_TOOLS)
	touch $@
node-tools: $(NODE_STAMP)

# The gates before the suite, configured in pyproject.toml: the import contracts (apps
# call downward only, no import cycles within an app), the engine's types (mypy --strict)
# and the templates' lint.
check: install
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(VENV)/bin/djlint templates --lint
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The suite in two pytest runs on one Redis (tests/with_redis.py; an embedded one without
# REDIS_URL, as `make run` has): tests/engine, tests/web and tests/assets in parallel on
# TEST_WORKERS pytest-xdist processes (default: one per core, at most 7), then all the
# rest (e2e, faults, load, smoke, ...) in one process. Both run; either failing fails.
# PYTEST_ARGS go to both: `make test PYTEST_ARGS=-x`; `TEST_WORKERS=1` runs all serially.
TEST_WORKERS ?=
PYTEST_ARGS ?=
test: install chromium node-tools check
	TEST_WORKERS=$(TEST_WORKERS) $(PY) -m tests.with_redis --suite $(PYTEST_ARGS)

test-engine: install
	$(PY) -m pytest tests/engine
