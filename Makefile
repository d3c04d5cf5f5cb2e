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

.PHONY: demo test bench bench-full clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,plot]'
	$(VENV)/bin/hexkernel warm
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/hexkernel demo --out out --force

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m pytest bench -q --benchmark-enable --benchmark-min-rounds=3 --benchmark-columns=min,median,mean

clean:
	rm -rf $(VENV) out .pytest_cache .benchmarks .hypothesis
