VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
AXE := node_modules/axe-core/axe.min.js
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_SCOPE ?= not postgres and not redis and not cluster and not soak

.PHONY: run test lint scale-out-test soak load-smoke install

install: $(STAMP) $(AXE)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# axe-core, which the browser tests inject into pages to check their accessibility.
$(AXE): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(AXE)

run: $(STAMP)
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py load_demo
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py run_coach & coach=$$!; \
	trap 'kill $$coach 2>/dev/null' EXIT INT TERM; \
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(VENV)/bin/daphne -b $(HOST) -p $(PORT) \
		--websocket_timeout -1 durak_site.asgi:application

lint: $(STAMP)
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .
	DJANGO_DEBUG=1 $(PY) -m mypy

# The tests that drive no browser in two processes, then the browser tests in two: one
# plays the whole games against bots one after another (mostly waiting for the bots'
# moves), the other takes the rest.
test: $(STAMP) $(AXE) lint
	$(PY) -m pytest -m "($(TEST_SCOPE)) and not browser" -n 2
	$(PY) -m pytest -m "($(TEST_SCOPE)) and browser" -n 2 --dist loadgroup

scale-out-test: $(STAMP)
	$(PY) -m pytest -m "(postgres or redis or cluster) and not soak"

soak: $(STAMP)
	$(PY) -m pytest -m soak -rP

load-smoke: $(STAMP)
	$(PY) benchmarks/load.py --smoke
