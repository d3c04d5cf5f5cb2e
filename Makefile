# Two commands do all the set-up on a fresh machine (Python >= 3.11 and make):
#   make demo   - the main job on the bundled default scenario
#   make test   - the whole test suite and, beside it, the wheel check (what CI runs)
# Both create the virtual environment .venv on first use and reuse it after
# (reinstalled when pyproject.toml changes), installing what they use: the
# package with the plot extra for the demo, every extra and the test tools
# for the tests; then 'hexkernel warm' compiles every kernel once, in
# parallel processes, so that first calls run at cached speed.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test
WHEEL_CHECK := build/wheel-check

.PHONY: demo test check wheel-check bench clean browser

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(DEMO_STAMP): pyproject.toml $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[plot]'
	$(VENV)/bin/hexkernel warm
	touch $(DEMO_STAMP)

$(TEST_STAMP): pyproject.toml $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[test]'
	$(VENV)/bin/hexkernel warm
	touch $(TEST_STAMP) $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(VENV)/bin/hexkernel demo --out out --force

# The files that time fresh processes' first calls and imports against a fresh 'import numba': run on
# their own after the two workers, so that the other worker's load does not sit in their figures.
ALONE_TESTS = bench/bench_first_calls.py bench/bench_import.py

# The test files that read ../shared: through tests/shared_data.py's functions that find it (not its quiet()
# alone), the module itself, or bench/vasl_engine.py, which asks it.
SHARED_TESTS = $(shell grep -l -E 'tests\.shared_data import .*\b(shared_folder|vasl_folder|needs|require|present)\b|from tests import shared_data|bench\.vasl_engine' tests/test_*.py bench/bench_*.py)

# The test suite runs on two worker processes (pytest-xdist), each test file whole in one of them, so
# that a file's module fixtures are built once. The wheel check builds and installs the wheel beside it
# (its 'prepare' phase) and, once the suite is done, times the wheel's first calls and demo on a machine
# that the suite no longer keeps busy (its 'run' phase); it prints its stages at the end. The files that read ../shared then run once more with it
# hidden (HEXKERNEL_HIDE_SHARED=1), as in a fresh clone: their tests skip with a reason, and a test that
# reads the real folder anyway fails. Any of the three failing fails the target, and pytest's own exit
# status counts, 5 (no tests collected) included.
test: $(TEST_STAMP) browser
	@mkdir -p build
	@bash tests/wheel_check.sh $(PY) $(WHEEL_CHECK) prepare > build/wheel-check.log 2>&1 & wheel=$$!; \
	$(PY) -m pytest -q -n 2 --dist loadfile $(addprefix --ignore=,$(ALONE_TESTS)) && \
	  $(PY) -m pytest -q $(ALONE_TESTS); tests=$$?; \
	echo "make test: the files that read ../shared, with it hidden (HEXKERNEL_HIDE_SHARED=1)"; \
	HEXKERNEL_HIDE_SHARED=1 $(PY) -m pytest -q -n 2 --dist loadfile $(SHARED_TESTS); hidden=$$?; \
	wait $$wheel; wheel_status=$$?; \
	if [ $$wheel_status -eq 0 ]; then bash tests/wheel_check.sh $(PY) $(WHEEL_CHECK) run >> build/wheel-check.log 2>&1; \
	  wheel_status=$$?; fi; \
	cat build/wheel-check.log; \
	if [ $$tests -ne 0 ]; then echo "make test: pytest exited with $$tests"; fi; \
	if [ $$hidden -ne 0 ]; then echo "make test: pytest with ../shared hidden exited with $$hidden"; fi; \
	if [ $$wheel_status -ne 0 ]; then echo "make test: the wheel check failed ($$wheel_status)"; fi; \
	[ $$tests -eq 0 ] && [ $$hidden -eq 0 ] && [ $$wheel_status -eq 0 ]

# The quick loop while developing: every test but the slow ones (browser, cluster, warm, subprocess CLI,
# real boards, long fuzz, benchmarks; conftest.py marks them), in about two minutes on two idle cores.
# `make test` is still the whole suite and what CI runs.
check: $(TEST_STAMP)
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not slow"

# Build the sdist and, from it, the wheel; install the wheel into a fresh virtual environment, core
# first, then with every extra; run the smoke test of each, 'hexkernel demo' from an empty cache and the
# whole 'hexkernel warm' from an empty cache (tests/wheel_check.sh; it prints the seconds of each stage).
# 'make test' runs only warm's movement step there: the whole warm is minutes of compiling beside the suite.
wheel-check: $(TEST_STAMP)
	HEXKERNEL_WHEEL_CHECK_FULL_WARM=1 bash tests/wheel_check.sh $(PY) $(WHEEL_CHECK)

# The page's browser tests need Chromium and chromedriver (Debian packages);
# installed here when missing (as root, or with passwordless sudo).
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "chromium/chromedriver missing and no root: the browser tests will skip (fail in CI)"; exit 0; fi; \
	  $$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y chromium chromium-driver; \
	fi

bench: $(TEST_STAMP)
	$(PY) -m pytest bench -q --benchmark-enable --benchmark-min-rounds=3 --benchmark-columns=min,median,mean

clean:
	rm -rf $(VENV) out build dist .pytest_cache .benchmarks .hypothesis
