# Sourced by the scripts that build the extension with other flags
# (tests/fuzz/run_sanitized_tests.sh, tests/run_avx512_emulated.sh): a copy
# of the sources to build in, never the checkout (its normal build stays).
# tff_copy_tree ROOT TREE: the package's sources from ROOT into TREE, without
# built objects, caches, generated C or built wheels.
tff_copy_tree() {
  local root="$1" tree="$2" item
  mkdir -p "$tree"
  for item in setup.py pyproject.toml README.md bench csrc src tflite_fast tests wheels; do
    if [ -e "$root/$item" ]; then
      rm -rf "${tree:?}/$item"
      cp -r "$root/$item" "$tree/$item"
    fi
  done
  rm -rf "$tree/wheels/dist"  # tests/test_wheels.py needs wheels/*.py, not built wheels
  find "$tree" \( -name '*.so' -o -name '__pycache__' -o -name '_core.c' \) -prune -exec rm -rf {} +
}
