#!/usr/bin/env bash
# Runs the pytest suite on the AVX-512 VNNI paths of a CPU without AVX-512:
# a TFF_EMULATE_AVX512=1 build (setup.py) compiles the avx512vnni kernel
# files with the avx2 flags on tests/ukernels/avx512_emu.h, whose C lanes
# stand in for the AVX-512 intrinsics (test_avx512_emulation checks them
# against the hardware), and detects an AVX2 CPU as avx512vnni. Every model
# and op then takes the kernels, selection, packing and tiling an AVX-512
# VNNI CPU gets, against the oracle; test_isa_levels also runs the avx2
# level below them. Bits only: the emulated kernels are slow.
#
#   tests/run_avx512_emulated.sh                 the suite, not the slow tests
#   tests/run_avx512_emulated.sh tests/test_models.py ...   any pytest arguments
#
# The build goes into a copy of the tree ($EMU_WORK, default build/avx512emu),
# never in place. Left out: the C tests that build kernels with the real
# AVX-512 flags and run them where the emulated build says the CPU has it
# (test_ukernels.py's native target, test_bench.py's bench_ukernels).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${EMU_WORK:-$ROOT/build/avx512emu}"
TREE="$WORK/tree"
. "$ROOT/tests/copy_tree.sh"

if [ "$(uname -m)" != "x86_64" ] || ! grep -qw avx2 /proc/cpuinfo; then
  echo "run_avx512_emulated.sh: needs an x86-64 CPU with AVX2; nothing run" >&2
  exit 2
fi
# setup.py runs outside pip's build environment: Cython must be in this Python.
python -c "import Cython" > /dev/null 2>&1 || python -m pip install -q "Cython>=3.1"

tff_copy_tree "$ROOT" "$TREE"
echo "run_avx512_emulated.sh: building the emulated-AVX-512 extension in $TREE" >&2
(cd "$TREE" && TFF_EMULATE_AVX512=1 python setup.py -q build_ext --inplace \
   --build-temp "$WORK/temp" > "$WORK/build.log" 2>&1) || {
  tail -30 "$WORK/build.log" >&2
  exit 2
}

export TFLITE_FAST_MODELS="${TFLITE_FAST_MODELS:-$ROOT/../shared/models}"
export PYTHONPATH="$TREE${PYTHONPATH:+:$PYTHONPATH}"
cd "$TREE"
python -c "
import sys, tflite_fast, tflite_fast._core as c
if not c.__file__.startswith('$TREE'): sys.exit('tflite_fast is not imported from $TREE')
import io, contextlib
out = io.StringIO()
with contextlib.redirect_stdout(out): tflite_fast.show_config()
eff = [l for l in out.getvalue().splitlines() if 'effective' in l][0]
if 'avx512vnni' not in eff: sys.exit('avx512vnni is not effective: ' + eff)
print('run_avx512_emulated.sh:', eff.strip())
"
ARGS=("$@")
[ ${#ARGS[@]} -eq 0 ] && ARGS=(-m "not slow" tests)
python -m pytest -q -p no:cacheprovider "${ARGS[@]}" \
  --deselect tests/test_ukernels.py --deselect tests/test_bench.py
