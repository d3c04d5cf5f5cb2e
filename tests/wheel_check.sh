#!/usr/bin/env bash
# The wheel check of 'make test': build the sdist and (from it) the wheel, install the wheel into a
# fresh virtual environment, core only, then with every extra, and run the installed package:
# tests/wheel_smoke.py core, 'hexkernel warm' from an empty kernel cache, 'hexkernel demo' and
# tests/wheel_smoke.py extras. Prints the seconds of each stage and in all.
# Usage: bash tests/wheel_check.sh PYTHON_OF_THE_DEV_ENVIRONMENT FOLDER
set -euo pipefail
python=$1
folder=$2
root=$(pwd)
smoke=$root/tests/wheel_smoke.py
started=$(date +%s%N)
stage_start=$started
stage() {   # print the seconds since the last stage
  local now tenths
  now=$(date +%s%N)
  tenths=$(( (now - stage_start) / 100000000 ))
  printf 'wheel check: %-58s %4d.%d s\n' "$1" $((tenths / 10)) $((tenths % 10))
  stage_start=$now
}
rm -rf "$folder"
mkdir -p "$folder"
"$python" -m build --no-isolation --outdir "$folder/dist" . >"$folder/build.log" 2>&1 \
  || { tail -30 "$folder/build.log"; exit 1; }
wheel=$(ls "$folder"/dist/hexkernel-*.whl)
ls "$folder"/dist/hexkernel-*.tar.gz >/dev/null
stage "sdist and wheel built ($(basename "$wheel"))"
"$python" -c "import sys, venv; venv.main([sys.argv[1]])" "$folder/venv"
"$folder/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile "$wheel"
stage "fresh virtual environment, core install (numpy, numba)"
(cd "$folder" && venv/bin/python "$smoke" core)
stage "smoke test of the core install"
"$folder/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile "$wheel[plot,batch,graph]"
stage "extras plot, batch, graph installed"
export HEXKERNEL_CACHE_DIR=$root/$folder/cache
(cd "$folder" && venv/bin/hexkernel warm)
stage "hexkernel warm from an empty cache"
(cd "$folder" && venv/bin/hexkernel demo --out demo --quiet)
stage "hexkernel demo"
(cd "$folder" && venv/bin/python "$smoke" extras demo)
stage "smoke test with every extra"
stage_start=$started
stage "in all"
