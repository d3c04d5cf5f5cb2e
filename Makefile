# Two commands do all the set-up on a fresh machine (Python >= 3.11 and make):
#   make demo   - the main job on the bundled default scenario
#   make test   - the whole test suite (what CI runs)
# Both create the virtual environment .venv on first use and reuse it after
# (rebuilt when pyproject.toml changes), then compile every kernel once
# ('hexkernel warm') so that first calls run at cached speed.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench bench-full clean browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,plot]'
	$(VENV)/bin/hexkernel warm
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/hexkernel demo --out out --force

test: $(STAMP) browser
	$(PY) -m pytest -q

# The page's browser tests need Chromium and chromedriver (Debian packages);
# installed here when missing (as root, or with passwordless sudo).
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "chromium/chromedriver missing and no root: the browser tests will skip (fail in CI)"; exit 0; fi; \
	  $$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y chromium chromium-driver; \
	fi

bench: $(STAMP)
	$(PY) -m pytest bench -q --benchmark-enable --benchmark-min-rounds=3 --benchmark-columns=min,median,mean

clean:
	rm -rf $(VENV) out .pytest_cache .benchmarks .hypothesis
