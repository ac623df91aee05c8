#!/usr/bin/env bash
# Installs the cross-built wheel into the emulated Debian Python (unzips it into
# a site folder of the root) and runs wheels/smoke_models.py under qemu-user:
# import, show_config(), the shared int8 models in both numerics modes, output
# bits compared with the x86 build's.
#   wheels/qemu_smoke.sh aarch64|armv7l [WHEEL]
# The x86 digests come from the x86 wheel in wheels/dist (wheels/build_x86.sh)
# run by the host python (or from $TFF_EXPECTED if set).
# Needs: apt-get install -y qemu-user; the root from wheels/arm_root.sh.
set -euo pipefail
ARCH=${1:?usage: qemu_smoke.sh aarch64|armv7l [WHEEL]}
case $ARCH in
  aarch64) DEB=arm64 QEMU=qemu-aarch64 ;;
  armv7l)  DEB=armhf QEMU=qemu-arm ;;
  *) echo "unknown arch $ARCH" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
R=${TFF_ARM_ROOT:-/tmp/tff_arm/$DEB}
MODELS=${TFF_MODELS:-$(cd "$ROOT/../shared/models" && pwd)}
PY=${PYTHON:-python3}
WHL=${2:-$(ls "$ROOT"/wheels/dist/*-cp311-*_"$ARCH".whl | tail -1)}
[ -x "$R/root/usr/bin/python3.11" ] || "$ROOT/wheels/arm_root.sh" $DEB "$R"

EXPECTED=${TFF_EXPECTED:-}
if [ -z "$EXPECTED" ]; then
  X86=$(ls "$ROOT"/wheels/dist/*-cp311-*_x86_64.whl | tail -1)
  EXPECTED=$(mktemp /tmp/tff_expected.XXXXXX.json)
  SITE_X86=$(mktemp -d /tmp/tff_site_x86.XXXXXX)
  $PY -m pip install -q --no-deps --target "$SITE_X86" "$X86"
  (cd / && PYTHONPATH="$SITE_X86" $PY "$ROOT/wheels/smoke_models.py" "$MODELS" --write "$EXPECTED" >/dev/null)
  rm -rf "$SITE_X86"
fi

# "pip install" of a wheel is an unzip into site-packages; the emulated Python
# has no pip, so unzip into a folder inside the root and put it on sys.path.
SITE=$R/root/opt/tff-site
rm -rf "$SITE" && mkdir -p "$SITE"
$PY -m zipfile -e "$WHL" "$SITE"
echo "wheel: $(basename "$WHL")"
cp "$ROOT/wheels/smoke_models.py" "$EXPECTED" "$SITE/"
cp -r "$MODELS" "$SITE/models"
# -L: the dynamic loader and libraries come from the root; paths given to the
# emulated Python are host paths, so use the ones inside the root via $SITE.
cd /
PYTHONPATH="$SITE:$R/root/usr/lib/python3/dist-packages" \
  $QEMU -L "$R/root" "$R/root/usr/bin/python3.11" "$SITE/smoke_models.py" \
  "$SITE/models" --check "$SITE/$(basename "$EXPECTED")"
