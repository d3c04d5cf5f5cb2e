#!/usr/bin/env bash
# The wheel check of 'make test', in two phases. 'prepare' builds the sdist and (from it) the wheel, with
# the kernels' machine code for the portable target (setup.py), and from the sdist a pure wheel too
# (HEXKERNEL_SHIPPED_KERNELS=0, no machine code); it installs the wheel into two fresh virtual
# environments, core only and with every extra. 'run' then uses the installed package with an empty kernel
# cache: tests/wheel_smoke.py core; 'import kernel' and a first los() as a whole process; the first calls
# of the main functions with no kernel compiled (tests/wheel_smoke.py first-calls, by numba's compile
# events and counters); 'hexkernel demo' and tests/wheel_smoke.py extras; then one step of 'hexkernel warm'
# from an empty cache (code tuned to this CPU), checking that its code wins over the wheel's. With
# HEXKERNEL_WHEEL_CHECK_FULL_WARM=1 the whole 'hexkernel warm' runs there instead (minutes of compiling on
# two cores: 'make wheel-check' sets it). 'make test' runs 'prepare' beside the test suite and 'run' after
# it, so that the first-call times are a user's, not those of a machine busy with the suite; with no
# phase named both run, one after the other.
# Prints the seconds of each stage and in all.
# pip installs as a user's pip does, compiling the modules' bytecode (the first import does not).
# Usage: bash tests/wheel_check.sh PYTHON_OF_THE_DEV_ENVIRONMENT FOLDER [prepare|run]
set -euo pipefail
python=$1
folder=$2
phase=${3:-all}
case "$phase" in
  prepare|run|all) ;;
  *) echo "wheel check: unknown phase '$phase': expected prepare, run or nothing (both)"; exit 2 ;;
esac
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
prepare() {
  rm -rf "$folder"
  mkdir -p "$folder"
  "$python" -m build --no-isolation --outdir "$folder/dist" . >"$folder/build.log" 2>&1 \
    || { tail -30 "$folder/build.log"; exit 1; }
  wheel=$(ls "$folder"/dist/hexkernel-*.whl)
  ls "$folder"/dist/hexkernel-*.tar.gz >/dev/null
  stage "sdist and wheel built ($(basename "$wheel"))"
  size=$(stat -c %s "$wheel")
  [ "$size" -le $((40 * 1024 * 1024)) ] || { echo "wheel check: the wheel is $size bytes: expected at most 40 MiB"; exit 1; }
  # (zipfile's namelist, not 'zipfile -l | grep -q': grep leaving early breaks the pipe under pipefail)
  wheel_holds() { "$python" -c "import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())" "$1" "$2"; }
  wheel_has_machine_code() { "$python" -c "import sys, zipfile; sys.exit(not any('_machine_code' in n for n in zipfile.ZipFile(sys.argv[1]).namelist()))" "$1"; }
  wheel_holds "$wheel" kernel/_machine_code/manifest.json \
    || { echo "wheel check: the wheel holds no kernel/_machine_code/manifest.json"; exit 1; }
  echo "wheel check: the wheel is $((size / 1024)) KiB with the kernels' machine code"
  HEXKERNEL_SHIPPED_KERNELS=0 "$python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
    --no-build-isolation --wheel-dir "$folder/pure" "$folder"/dist/hexkernel-*.tar.gz >"$folder/pure.log" 2>&1 \
    || { tail -30 "$folder/pure.log"; exit 1; }
  pure=$(ls "$folder"/pure/hexkernel-*-py3-none-any.whl)
  if wheel_has_machine_code "$pure"; then
    echo "wheel check: the pure wheel holds machine code"; exit 1
  fi
  stage "the sdist also builds a pure wheel ($(basename "$pure"))"
  "$python" -c "import sys, venv; venv.main([sys.argv[1]])" "$folder/venv"
  "$folder/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
  stage "fresh virtual environment, core install (numpy, numba)"
  "$python" -c "import sys, venv; venv.main([sys.argv[1]])" "$folder/venv-full"
  "$folder/venv-full/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[plot,batch,graph]"
  stage "another, with the extras plot, batch, graph"
}

run() {
  export HEXKERNEL_CACHE_DIR=$root/$folder/cache
  (cd "$folder" && venv/bin/python "$smoke" core)
  stage "smoke test of the core install"
  rm -rf "$HEXKERNEL_CACHE_DIR"
  (cd "$folder" && venv/bin/python -c "import kernel; b = kernel.load('default'); kernel.los(b, b.names[0], b.names[-1])")
  stage "import kernel + first los(), a whole process, empty cache"
  rm -rf "$HEXKERNEL_CACHE_DIR"
  (cd "$folder" && venv/bin/python "$smoke" first-calls wheel)
  stage "first calls with no kernel compiled (core install)"
  rm -rf "$HEXKERNEL_CACHE_DIR"
  (cd "$folder" && venv-full/bin/python "$smoke" first-calls wheel picture)
  stage "first calls and a picture, no kernel compiled"
  rm -rf "$HEXKERNEL_CACHE_DIR"
  (cd "$folder" && venv-full/bin/hexkernel demo --out demo --quiet)
  stage "hexkernel demo from the wheel, empty cache"
  (cd "$folder" && venv-full/bin/python "$smoke" extras demo)
  stage "smoke test with every extra"
  rm -rf "$HEXKERNEL_CACHE_DIR"
  if [ "${HEXKERNEL_WHEEL_CHECK_FULL_WARM:-0}" = 1 ]; then
    (cd "$folder" && venv-full/bin/hexkernel warm)
    stage "hexkernel warm from an empty cache (tuned to this CPU)"
    (cd "$folder" && venv-full/bin/python "$smoke" first-calls cache picture)
    stage "first calls after warm: its tuned code, not the wheel's"
  else
    (cd "$folder" && HEXKERNEL_SHIPPED_KERNELS=0 venv-full/bin/hexkernel warm --worker movement_field >/dev/null)
    stage "warm's movement_field step alone, empty cache (tuned to this CPU)"
    (cd "$folder" && venv-full/bin/python "$smoke" first-calls movement-warmed picture)
    stage "first calls after it: its tuned code wins, the rest from the wheel"
  fi
}

if [ "$phase" != run ]; then prepare; fi
if [ "$phase" != prepare ]; then
  [ -x "$folder/venv-full/bin/hexkernel" ] || { echo "wheel check: nothing prepared in $folder: run the prepare phase first"; exit 1; }
  run
fi
stage_start=$started
stage "in all ($phase)"
