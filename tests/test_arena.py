"""The model reader's bump arena (csrc/runtime/arena.c) through tests/c/test_arena.c:
blocks aligned and disjoint in the plain build and under ASan+UBSan, and under ASan a
write one byte past any block (alignment padding, the next block, a chunk of its own)
is reported: the arena keeps bumping there and poisons what lies between blocks."""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC = shutil.which("gcc") or shutil.which("cc")
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]


def build(tmp_path, name, flags):
    exe = str(tmp_path / name)
    subprocess.run([CC, "-std=c11", "-g", "-Wall", "-Wextra", "-Werror", *flags,
                    "-I", os.path.join(ROOT, "csrc/runtime"),
                    os.path.join(ROOT, "csrc/runtime/arena.c"),
                    os.path.join(ROOT, "tests/c/test_arena.c"), "-o", exe], check=True)
    return exe


def run(exe, *args):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1")
    env.pop("LD_PRELOAD", None)  # the sanitized pytest run preloads libasan
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.skipif(CC is None, reason="no C compiler")
@pytest.mark.parametrize("flags", [["-O2"], ["-O1", *SAN]], ids=["plain", "asan"])
def test_arena_blocks(tmp_path, flags):
    r = run(build(tmp_path, "test_arena", flags), "ok")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


@pytest.mark.skipif(CC is None, reason="no C compiler")
def test_arena_overflow_is_reported_under_asan(tmp_path):
    exe = build(tmp_path, "test_arena_asan", ["-O1", *SAN])
    # padding inside a granule, padding after one, the redzone, a block bigger
    # than the first chunk (the stop-13 heap overflow), a chunk of its own
    for n in (5, 12, 16, 40000, 300000):
        r = run(exe, "overflow", str(n))
        assert r.returncode != 0 and "AddressSanitizer" in r.stderr, (n, r.stdout, r.stderr[-2000:])
