#!/usr/bin/env bash
# Fuzzes the C core (tests/fuzz/fuzz_model.c, libFuzzer + ASan + UBSan) and,
# optionally, the Python entry points (tests/fuzz/fuzz_python.py, atheris).
#
#   tests/fuzz/run_fuzz.sh [SECONDS]        bounded run, default 300 s (CI)
#   FUZZ_LONG=1 tests/fuzz/run_fuzz.sh 3600 long run: one fork-mode job per
#                                           core, keeps going after a crash
#                                           and collects every artifact
#   FUZZ_PYTHON=SECONDS ...                 also run the atheris harness
#   FUZZ_SEED=N [FUZZ_RUNS=R] ...           reproducible run (CI): one process,
#                                           seed N, R inputs (atheris:
#                                           FUZZ_PYTHON_RUNS) from a fresh corpus
#
# Needs clang with libFuzzer (Debian: apt-get install clang). The seed corpus
# is made here, at run time, from ../shared/models (or $TFLITE_FAST_MODELS):
# every model up to FUZZ_MAX_LEN bytes whole, plus truncations of each
# model. The corpus grown by earlier runs is kept in $FUZZ_WORK/corpus, so
# runs add up. Findings go to $FUZZ_WORK/artifacts; the script exits non-zero
# when there is one (timeouts and out-of-memory excepted: a mutated WHILE
# bound may loop for ever and a mutated shape may ask for any arena; both are
# model behaviour, as in TFLite, not crashes). Turn a finding into a
# regression case in tests/test_fuzz_regressions.py: pytest runs it through
# the Python API and this script replays it through the harness first.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SECONDS_TOTAL="${1:-${FUZZ_SECONDS:-300}}"
WORK="${FUZZ_WORK:-$ROOT/build/fuzz}"
MODELS="${TFLITE_FAST_MODELS:-$ROOT/../shared/models}"
MAX_LEN="${FUZZ_MAX_LEN:-1300000}"
JOBS="${FUZZ_JOBS:-$(nproc)}"
CC="${FUZZ_CC:-clang}"

command -v "$CC" >/dev/null || { echo "run_fuzz.sh: $CC not found (apt-get install clang)" >&2; exit 2; }
# Findings of an earlier run are kept aside, so this run reports only its own.
if [ -n "$(ls -A "$WORK/artifacts" 2>/dev/null)" ]; then mv "$WORK/artifacts" "$WORK/artifacts.$(date +%s)"; fi
mkdir -p "$WORK/obj" "$WORK/corpus" "$WORK/artifacts"
rm -rf "$WORK/seed" && mkdir -p "$WORK/seed"

# ---- build: every csrc file, ISA files with their flags (setup.py's rule) ----
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -ffp-contract=off -fno-math-errno -Wno-unused-function $SAN
        -I$ROOT/csrc/include -I$ROOT/csrc/runtime -I$ROOT/csrc/ops -I$ROOT/csrc"
case "$(uname -m)" in
  x86_64) ISAS="sse41 avx2 avx512vnni" ;;
  aarch64) ISAS="neon neondot" ;;
  *) ISAS="" ;;
esac
isa_flags() {
  case "$1" in
    sse41) echo "-msse4.1" ;;
    avx2) echo "-mavx2 -mfma" ;;
    avx512vnni) echo "-mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx512vnni" ;;
    neondot) echo "-march=armv8.2-a+dotprod" ;;
    *) echo "" ;;
  esac
}
DEFS=""
for isa in $ISAS; do DEFS="$DEFS -DTFF_BUILD_${isa^^}=1"; done

compile_one() {  # SRC -> prints the object path, or nothing when skipped
  local src="$1" base isa="" part
  base="$(basename "$src" .c)"
  for part in ${base//-/ }; do
    case " sse41 avx2 avx512vnni neon neondot " in *" $part "*) isa="$part" ;; esac
  done
  if [ -n "$isa" ] && [[ " $ISAS " != *" $isa "* ]]; then return; fi
  local obj="$WORK/obj/${src#$ROOT/}"; obj="${obj%.c}.o"
  mkdir -p "$(dirname "$obj")"
  # shellcheck disable=SC2086
  $CC $CFLAGS $DEFS $(isa_flags "$isa") -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
  echo "$obj"
}
export -f compile_one isa_flags
export CC CFLAGS DEFS ISAS WORK ROOT
echo "run_fuzz.sh: building the harness with $CC" >&2
OBJS=$(find "$ROOT/csrc" -name '*.c' | sort | xargs -P "$JOBS" -I{} bash -c 'compile_one "$@"' _ {})
# shellcheck disable=SC2086
$CC $CFLAGS $DEFS -fsanitize=fuzzer "$ROOT/tests/fuzz/fuzz_model.c" $OBJS -lm -o "$WORK/fuzz_model"

# ---- seed corpus from the shared models ----
if [ -d "$MODELS" ]; then
  for m in "$MODELS"/*.tflite; do
    name="$(basename "$m" .tflite)"
    size=$(stat -c %s "$m")
    if [ "$size" -le "$MAX_LEN" ]; then cp "$m" "$WORK/seed/$name"; fi
    for cut in 8 64 512 4096 $((size / 4)) $((size / 2)) $((size * 3 / 4)) $((size - 1)); do
      if [ "$cut" -gt 0 ] && [ "$cut" -lt "$size" ] && [ "$cut" -le "$MAX_LEN" ]; then
        head -c "$cut" "$m" > "$WORK/seed/$name.cut$cut"
      fi
    done
  done
else
  echo "run_fuzz.sh: no models at $MODELS: fuzzing from the kept corpus only" >&2
fi

# allocator_may_return_null: a huge arena must fail as out-of-memory in the
# runtime, not abort in ASan. detect_leaks stays on: a leak is a finding.
export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
STATUS=0

# ---- replay the regression cases (tests/test_fuzz_regressions.py) ----
rm -rf "$WORK/regressions"
if python "$ROOT/tests/test_fuzz_regressions.py" "$WORK/regressions" 2> "$WORK/regressions.log"; then
  CASES=$(find "$WORK/regressions" -name '*.tflite' | sort)
  # shellcheck disable=SC2086
  if [ -n "$CASES" ] && ! "$WORK/fuzz_model" $CASES >> "$WORK/regressions.log" 2>&1; then
    echo "run_fuzz.sh: a regression case fails in the harness (see $WORK/regressions.log):" >&2
    grep -E "runtime error|ERROR: AddressSanitizer|Running: " "$WORK/regressions.log" | tail -5 >&2
    STATUS=1
  fi
else
  echo "run_fuzz.sh: could not write the regression cases (needs the test dependencies)" >&2
fi

# ---- fuzz ----
LOG="$WORK/fuzz_model.log"
ARGS=(-timeout=30 -rss_limit_mb=6144 -malloc_limit_mb=65536 -max_len="$MAX_LEN"
      -print_final_stats=1 -artifact_prefix="$WORK/artifacts/")
if [ -n "${FUZZ_SEED:-}" ]; then
  # Reproducible (CI): one process, a fixed seed and a fixed number of runs
  # from the fresh seed corpus, so a run that passes here passes anywhere.
  ARGS+=(-seed="$FUZZ_SEED" -runs="${FUZZ_RUNS:-100000}")
else
  ARGS+=(-max_total_time="$SECONDS_TOTAL" -fork="$JOBS" -ignore_timeouts=1 -ignore_ooms=1)
  if [ "${FUZZ_LONG:-0}" = "1" ]; then ARGS+=(-ignore_crashes=1); fi
fi
if [ -n "${FUZZ_SEED:-}" ]; then WHAT="seed $FUZZ_SEED, ${FUZZ_RUNS:-100000} runs"; else WHAT="${SECONDS_TOTAL}s, $JOBS job(s)"; fi
echo "run_fuzz.sh: fuzzing ($WHAT); log in $LOG" >&2
set +e
"$WORK/fuzz_model" "${ARGS[@]}" "$WORK/corpus" "$WORK/seed" > "$LOG" 2>&1
FUZZ_STATUS=$?
set -e
# Fork mode prints "#EXECS: cov: ..." lines; the last one is the total.
EXECS=$(grep -oE '^#[0-9]+' "$LOG" | tail -1 | tr -d '#')
echo "run_fuzz.sh: fuzz_model: ${EXECS:-0} executions, exit status $FUZZ_STATUS" >&2
if [ -z "$EXECS" ]; then
  echo "run_fuzz.sh: the fuzzer did not run (see $LOG)" >&2
  STATUS=1
elif [ "$FUZZ_STATUS" != 0 ] && [ -z "$(find "$WORK/artifacts" -name 'timeout-*' -o -name 'oom-*')" ]; then
  STATUS=1  # neither a timeout nor an out-of-memory (those are not findings)
fi
FOUND=$(find "$WORK/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' \) | sort)
if [ -n "$FOUND" ]; then
  echo "run_fuzz.sh: findings (reproduce: $WORK/fuzz_model FILE):" >&2
  echo "$FOUND" >&2
  STATUS=1
fi

if [ -n "${FUZZ_PYTHON:-}" ]; then
  echo "run_fuzz.sh: atheris over the Python API for ${FUZZ_PYTHON}s" >&2
  mkdir -p "$WORK/pycorpus"
  PYARGS=(-max_total_time="$FUZZ_PYTHON")
  if [ -n "${FUZZ_SEED:-}" ]; then PYARGS=(-seed="$FUZZ_SEED" -runs="${FUZZ_PYTHON_RUNS:-20000}"); fi
  # Bounded: after a native crash atheris's signal handler can hang for good.
  timeout -k 10 900 python "$ROOT/tests/fuzz/fuzz_python.py" "${PYARGS[@]}" -timeout=30 \
    -rss_limit_mb=6144 -max_len="$MAX_LEN" -print_final_stats=1 \
    -artifact_prefix="$WORK/artifacts/py-" "$WORK/pycorpus" "$WORK/seed" \
    > "$WORK/fuzz_python.log" 2>&1 || STATUS=1
  echo "run_fuzz.sh: fuzz_python: $(grep -oE 'number_of_executed_units: [0-9]+' "$WORK/fuzz_python.log" | tail -1)" >&2
fi
exit "$STATUS"
