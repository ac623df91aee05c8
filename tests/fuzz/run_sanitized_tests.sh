#!/usr/bin/env bash
# Runs the pytest suite against a TFF_SANITIZE=1 build (ASan + UBSan,
# -fno-sanitize-recover: the first error aborts the process).
#
#   tests/fuzz/run_sanitized_tests.sh                  the whole suite
#   tests/fuzz/run_sanitized_tests.sh -m "not slow"    any pytest arguments
#   SAN_SUBSET=1 tests/fuzz/run_sanitized_tests.sh     the documented subset below
#   SAN_REUSE=1 ...                                    reuse the last sanitized build
#
# The build goes into a copy of the tree ($SAN_WORK, default build/sanitize),
# never in place: the sanitized extension only loads with libasan preloaded,
# so it must not replace the checkout's normal build. The copy is imported
# first (pytest runs from it); the shared models are found through
# TFLITE_FAST_MODELS.
#
# Why these settings:
#   LD_PRELOAD=libasan.so     ASan must be the first library in the process;
#                             python itself is not built with it (libstdc++
#                             follows it, for the C++ oracle's exceptions).
#   detect_leaks=0            CPython keeps objects alive at exit by design;
#                             leaks of the C core are checked by the libFuzzer
#                             harness (tests/fuzz/fuzz_model.c) instead.
#   allocator_may_return_null a huge allocation returns NULL (the runtime's
#   max_allocation_size_mb    MemoryError path) instead of aborting in ASan;
#                             above 8 GiB it always does (the role RLIMIT_AS
#                             plays in tests/test_malformed.py without ASan).
#   PYTHONMALLOC=malloc       Python objects (model_content bytes, arrays)
#                             come from ASan's allocator too, so reads past
#                             their ends are caught.
#   TFF_UNDER_ASAN=1          tells tests that cap the address space with
#                             RLIMIT_AS not to: ASan reserves terabytes of
#                             shadow memory up front, so every later mmap
#                             would fail.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
. "$ROOT/tests/copy_tree.sh"
WORK="${SAN_WORK:-$ROOT/build/sanitize}"
TREE="$WORK/tree"
CC_FOR_ASAN="${CC:-gcc}"

LIBASAN="$($CC_FOR_ASAN -print-file-name=libasan.so)"
if [ ! -e "$LIBASAN" ]; then
  echo "run_sanitized_tests.sh: $CC_FOR_ASAN has no libasan.so (Debian: apt-get install gcc)" >&2
  exit 2
fi

# The build runs setup.py directly, outside pip's isolated build environment,
# so the build requirements (Cython) must be in this Python; a venv made by
# the README's `pip install .` does not have them.
if ! python -c "import Cython" > /dev/null 2>&1; then
  echo "run_sanitized_tests.sh: installing Cython (a build requirement) into $(command -v python)" >&2
  python -m pip install -q "Cython>=3.1"
fi

# ---- a copy of the sources, then the sanitized build in it ----
# SAN_REUSE=1 keeps the last copy and build (to rerun tests only).
if [ "${SAN_REUSE:-0}" != "1" ] || ! ls "$TREE"/tflite_fast/_core*.so > /dev/null 2>&1; then
  tff_copy_tree "$ROOT" "$TREE"
  echo "run_sanitized_tests.sh: building the ASan+UBSan extension in $TREE" >&2
  (cd "$TREE" && TFF_SANITIZE=1 CC="$CC_FOR_ASAN" python setup.py -q build_ext --inplace \
     --build-temp "$WORK/temp" > "$WORK/build.log" 2>&1) || {
    tail -30 "$WORK/build.log" >&2
    exit 2
  }
fi

# ---- the tests ----
# libstdc++ is preloaded too: the oracle (ai_edge_litert, C++) throws
# exceptions, and ASan's __cxa_throw interceptor aborts unless libstdc++ was
# there when ASan started.
LIBSTDCXX="$($CC_FOR_ASAN -print-file-name=libstdc++.so)"
export LD_PRELOAD="$LIBASAN $LIBSTDCXX${LD_PRELOAD:+ $LD_PRELOAD}"
# Reports go to files: pytest captures the tests' stderr, and a process the
# sanitizer stops never gets to show it.
REPORTS="$WORK/reports"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=8192:abort_on_error=0:print_summary=1:log_path=$REPORTS/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$REPORTS/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export PYTHONMALLOC=malloc
export TFF_UNDER_ASAN=1
export TFLITE_FAST_MODELS="${TFLITE_FAST_MODELS:-$ROOT/../shared/models}"
export PYTHONPATH="$TREE${PYTHONPATH:+:$PYTHONPATH}"

ARGS=("$@")
if [ "${SAN_SUBSET:-0}" = "1" ] && [ ${#ARGS[@]} -eq 0 ]; then
  # The subset when time is short: every op family, the API, the planner,
  # the metadata/CLI tools; not the slow tests.
  ARGS=(-m "not slow")
fi
cd "$TREE"
# Make sure the sanitized build is the one imported.
python -c "import tflite_fast._core as c, sys; sys.exit(0 if c.__file__.startswith('$TREE') else 1)" || {
  echo "run_sanitized_tests.sh: tflite_fast is not imported from $TREE" >&2
  exit 2
}
# No path given: pytest takes testpaths (tests/) from pyproject.toml.
set +e
python -m pytest -q -p no:cacheprovider "${ARGS[@]}"
STATUS=$?
set -e
if [ -n "$(ls -A "$REPORTS")" ]; then
  echo "run_sanitized_tests.sh: sanitizer reports (in $REPORTS):" >&2
  for f in "$REPORTS"/*; do echo "== $f" >&2; head -60 "$f" >&2; done
  STATUS=1
fi
exit "$STATUS"
