"""Smoke test of bench/bench_ukernels.py: it builds its C driver warning-free
and prints a table with a row per family. Timings are never asserted."""
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import model_path

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "bench_ukernels.py"
# one small model per family: int8 and float gemm + pooling, int8 and float dwconv
MODELS = ["small_cnn_int8", "small_cnn_float", "kws_dscnn_int8", "kws_dscnn_float"]
FAMILIES = ["qs8-qc8w-gemm", "f32-gemm", "qs8-qc8w-dwconv", "f32-dwconv", "qs8-maxpool",
            "qs8-avgpool", "f32-maxpool", "f32-avgpool"]


@pytest.mark.skipif(platform.machine() != "x86_64" or shutil.which("gcc") is None,
                    reason="the driver is built for an x86-64 host with gcc")
def test_bench_ukernels_smoke():
    paths = [str(model_path(m)) for m in MODELS]
    r = subprocess.run([sys.executable, str(SCRIPT), *paths, "--reps", "1", "--seconds", "0.001"],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr, r.stderr
    tables = {}  # family: its rows
    for line in r.stdout.splitlines():
        words = line.split()
        if words and words[0] in FAMILIES and words[1].startswith("("):  # a table's title
            family = words[0]
            tables[family] = []
        elif words and ":" in words[0]:  # "model:node ..."
            tables[family].append(line)
    assert sorted(tables) == sorted(FAMILIES)
    for family, rows in tables.items():
        assert rows, family
        assert all(len(row.split()) >= 5 for row in rows), rows
