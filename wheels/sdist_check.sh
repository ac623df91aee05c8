#!/usr/bin/env bash
# The sdist (issue 6: builds from source with only a C compiler): made here,
# checked to carry every tracked file of csrc/ and src/ (all ISAs' kernels,
# not only this machine's), then pip-installed from it into a fresh venv -
# pip fetches the build requirements, the C compiler does the rest - and the
# installed package runs its bundled model.
#   wheels/sdist_check.sh    (~3 min on 2 cores; needs the package index)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$ROOT"
python setup.py -q sdist -d "$WORK/dist" > "$WORK/sdist.log" 2>&1 || { tail -20 "$WORK/sdist.log"; exit 1; }
SDIST=$(ls "$WORK"/dist/*.tar.gz)
tar tzf "$SDIST" | sed 's|^[^/]*/||' | sort > "$WORK/have"
git ls-files csrc src | sort > "$WORK/want"
missing=$(comm -13 "$WORK/have" "$WORK/want")
[ -z "$missing" ] || { echo "sdist_check.sh: missing from the sdist:" >&2; echo "$missing" >&2; exit 1; }
echo "sdist_check.sh: $(basename "$SDIST"): $(wc -l < "$WORK/want") tracked sources present, $(stat -c %s "$SDIST") bytes"
python -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q "$SDIST"
(cd "$WORK" && "$WORK/venv/bin/tflite-fast" run)
echo "sdist_check.sh: installed from the sdist and ran"
