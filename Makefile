# tablerecord: `make run` starts the service, `make test` runs the suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test cluster-test lint format bench rebuild openapi clean browser backup restore

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m service.run

test: $(STAMP) browser
	$(PY) -m pytest -q -n 2 -m 'not slow and not cluster'
	$(PY) -m pytest -q -m 'slow and not cluster'

# The service on several hosts (network namespaces, as root): built, checked and torn down.
cluster-test: $(STAMP)
	$(PY) -m pytest -q -s -m cluster tests/cluster

# The browser tests drive the Debian chromium package (browsers are never downloaded).
CHROMIUM ?= /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null; \
	  else echo "The browser tests need Chromium: run 'sudo apt-get install chromium' and retry."; exit 1; fi; }

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(PY) -m bench

# The whole database to a file (FILE, default var/backups/<now>.dump), and back (stop the service first).
FILE ?=
backup: $(STAMP)
	$(PY) -m service.dump backup $(FILE)

restore: $(STAMP)
	$(PY) -m service.dump restore $(FILE)

rebuild: $(STAMP)
	$(PY) -m workers.rebuild

openapi: $(STAMP)
	$(PY) -m service.openapi > openapi.yaml

clean:
	rm -rf $(VENV) var/
