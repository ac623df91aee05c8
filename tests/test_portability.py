"""Beyond this Linux box: the cibuildwheel matrix, the C sources compiled for
Windows (mingw-w64) and ARM (clang). The one-caller-per-interpreter guard that
also serves free-threaded Python: tests/test_concurrency.py."""
import fnmatch
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHONS = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp314", "cp314t"]
ARCHS = {
    "linux": ["manylinux_x86_64", "manylinux_aarch64", "manylinux_armv7l",
              "musllinux_x86_64", "musllinux_aarch64"],
    "macos": ["macosx_x86_64", "macosx_arm64"],
    "windows": ["win_amd64"],
}


def _cibuildwheel_ids(plat):
    r = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers",
                        "--platform", plat], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return set(r.stdout.split())


@pytest.mark.parametrize("plat", sorted(ARCHS))
def test_cibuildwheel_identifiers(plat):
    pytest.importorskip("cibuildwheel")
    want = {f"{py}-{arch}" for py in PYTHONS for arch in ARCHS[plat]}
    assert _cibuildwheel_ids(plat) == want


def test_cibuildwheel_build_selectors_all_match():
    """A build selector matching no identifier is an error in a real
    cibuildwheel run (4.x: "cp313t-*"), though --print-build-identifiers
    does not say so."""
    pytest.importorskip("cibuildwheel")
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        build = tomllib.load(f)["tool"]["cibuildwheel"]["build"]
    ids = set().union(*(_cibuildwheel_ids(p) for p in ARCHS))
    for selector in build:
        assert fnmatch.filter(ids, selector), selector


@pytest.mark.slow
@pytest.mark.parametrize("cc,platform,extra", [
    ("x86_64-w64-mingw32-gcc", "win-amd64", []),
    ("clang", "linux-aarch64", ["--target=aarch64-linux-gnu"]),
])
def test_csrc_compiles_for(cc, platform, extra):
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} not installed")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "wheels", "compile_check.py"), cc,
                        platform, *extra], capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
