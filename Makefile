# The two README commands. Everything else is a helper target for them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test run test-engine chromium axe

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	-git config core.hooksPath .githooks 2>/dev/null  # commit subjects of at most 72 characters
	touch $(STAMP)

install: $(STAMP)

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

# The accessibility scan (tests/e2e/test_a11y.py) injects axe-core from npm into chromium.
AXE_CORE := 4.14.1
AXE_STAMP := tests/e2e/node/.axe-core-$(AXE_CORE)
$(AXE_STAMP):
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nodejs npm; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq nodejs npm; fi; }
	npm install --silent --no-audit --no-fund --no-save --prefix tests/e2e/node axe-core@$(AXE_CORE)
	touch $@
axe: $(AXE_STAMP)

# Without REDIS_URL the suite gets an embedded Redis, as `make run` does (tests/with_redis.py).
test: install chromium axe
	$(PY) -m tests.with_redis

test-engine: install
	$(PY) -m pytest tests/engine
