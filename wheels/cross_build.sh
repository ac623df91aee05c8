#!/usr/bin/env bash
# Cross-builds the cp311 wheel for aarch64 or armv7l with Debian's cross
# compilers against the target's own Python headers (Debian bookworm arm64/armhf
# python3.11, unpacked by wheels/arm_root.sh), then tags it by the glibc its
# symbol versions really need and audits it.
#   wheels/cross_build.sh aarch64|armv7l   -> wheels/dist/*-manylinux_2_X_<arch>.whl
# Needs: apt-get install -y gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf;
# a host python3.11 with setuptools, Cython, wheel (the wheel's cp311 tag and
# the generated C come from the host; the target headers decide the ABI).
# TFF_ARM_ROOT overrides the root folder (default /tmp/tff_arm/<debian arch>).
set -euo pipefail
ARCH=${1:?usage: cross_build.sh aarch64|armv7l}
case $ARCH in
  aarch64) DEB=arm64 TRIPLE=aarch64-linux-gnu ;;
  armv7l)  DEB=armhf TRIPLE=arm-linux-gnueabihf ;;
  *) echo "unknown arch $ARCH" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/wheels/dist}
PY=${PYTHON:-python3}
R=${TFF_ARM_ROOT:-/tmp/tff_arm/$DEB}
$PY -c 'import sys; assert sys.version_info[:2] == (3, 11), "host Python must be 3.11 (target is Debian bookworm python3.11)"'
[ -x "$R/root/usr/bin/python3.11" ] || "$ROOT/wheels/arm_root.sh" $DEB "$R"

WORK=$(mktemp -d /tmp/tff_cross.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT" "$WORK/src" "$WORK/raw"
# TFF_SRC: build another source tree (e.g. a patched copy) with these tools.
(cd "${TFF_SRC:-$ROOT}" && git ls-files -co --exclude-standard | grep -v '^wheels/dist/' \
   | tar -cf - -T -) | tar -xf - -C "$WORK/src"

export CC=$TRIPLE-gcc
export LDSHARED="$TRIPLE-gcc -shared"
export _PYTHON_HOST_PLATFORM=linux-$ARCH        # setup.py picks the target's ISA flags
export SETUPTOOLS_EXT_SUFFIX=.cpython-311-$TRIPLE.so
# Target headers first: pyconfig.h is per architecture.
export CFLAGS="-include $ROOT/wheels/glibc_compat.h -I$R/root/usr/include/python3.11 -I$R/root/usr/include"
export LDFLAGS="-Wl,--no-as-needed -l:libpthread.so.0"
(cd "$WORK/src" && $PY setup.py -q bdist_wheel --plat-name linux_$ARCH -d "$WORK/raw" >/dev/null)

# The honest tag: the highest GLIBC_x.y any ELF file needs (at least 2.17,
# the oldest manylinux policy pip knows for these architectures).
whl=$(ls "$WORK"/raw/*.whl)
glibc=$($PY - "$whl" "$ROOT/wheels" <<'PYEOF'
import sys, tempfile, zipfile
sys.path.insert(0, sys.argv[2])
from audit_glibc import elf_needs
best = (2, 17)
with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(sys.argv[1]) as z:
    for m in z.namelist():
        if m.endswith(".so"):
            g, cxx, needed = elf_needs(z.extract(m, tmp))
            if g and g > best:
                best = g
print("%d_%d" % best)
PYEOF
)
tags="manylinux_${glibc}_$ARCH"
[ "$glibc" = 2_17 ] && tags="manylinux2014_$ARCH.$tags"
$PY -m wheel tags --remove --platform-tag "$tags" "$whl" >/dev/null
cp "$WORK"/raw/*manylinux*.whl "$OUT"/
$PY "$ROOT/wheels/audit_glibc.py" "$OUT"/*_"$ARCH".whl
