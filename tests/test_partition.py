"""The epoch partitioner (csrc/runtime/partition.c) through its C test
tests/c/test_partition.c: doc §4.4 worked examples, side-effect ordering,
invalid claims and cycles; built with the system compiler under ASan/UBSan."""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC = shutil.which("gcc") or shutil.which("cc")


@pytest.mark.skipif(CC is None, reason="no C compiler")
def test_partition_c(tmp_path):
    exe = str(tmp_path / "test_partition")
    src = [os.path.join(ROOT, p) for p in
           ("csrc/runtime/partition.c", "csrc/runtime/common.c", "tests/c/test_partition.c")]
    subprocess.run([CC, "-std=c11", "-g", "-O1", "-Wall", "-Wextra", "-Werror",
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    "-I", os.path.join(ROOT, "csrc/include"), "-I", os.path.join(ROOT, "csrc/runtime"),
                    *src, "-o", exe], check=True)
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
