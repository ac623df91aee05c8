"""Every ISA level gives the same integer bits and float outputs within the
oracle's tolerance, and every thread count the same bits: shared models run in
subprocesses with TFLITE_FAST_DISABLE_ISA in {"", "avx512vnni",
"avx512vnni,avx2", "all"} (best ISA, AVX2, SSE4.1, scalar twins; AVX2 only on
a CPU with AVX-512 VNNI, else it is the best), their outputs compared with the oracle and, integer
ones, bit-exactly across levels, and the kernels prepare chose checked against
the level. Float bits differ per level: the avx2 float GEMM/depthwise kernels
fuse multiply-adds (SSE4.1 and plain scalar do not), and in default numerics
float SOFTMAX, RSQRT and innermost MEAN follow XNNPACK's kernel for the ISA
(its summation order, FMA or not, the CPU's RSQRTPS estimate).

Adding a case is one line in CASES: (model stem, numerics mode).
"""
import functools
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import model_path
from oracle import (assert_outputs_match, call_in_subprocess, input_details, random_inputs,
                    run_oracle)

CASES = [
    ("small_cnn_int8", "default"),
    ("small_cnn_float", "default"),
    ("small_cnn_float", "ref"),
    ("kws_dscnn_int8", "default"),
    ("kws_dscnn_int8", "ref"),
    ("kws_dscnn_float", "default"),
    ("seed_dense_int8", "default"),
    ("seed_dense_float", "default"),
    ("mobilenet_v2_int8", "default"),
    ("mobilenet_v2_float", "default"),
]

# TFLITE_FAST_DISABLE_ISA value -> the ISAs its ukernels may have (None: any;
# a family without an SSE4.1 kernel falls back to its scalar twin).
LEVELS = {"": None, "avx512vnni": ("avx2", "sse41", "scalar"),
          "avx512vnni,avx2": ("sse41", "scalar"), "all": ("scalar",)}


def isa_of(kernel):
    """A ukernel name's ISA: tff_..._ukernel_1x64c4__avx2_sign -> avx2."""
    return kernel.rsplit("__", 1)[1].split("_")[0]


def child_run(model, inputs, mode):
    """In the child: outputs and the kernel names of every op that has one."""
    from oracle import run_interpreter, make_interpreter, ours_module

    it = make_interpreter(ours_module(), model, mode)
    outs = run_interpreter(it, inputs)
    kernels = {d["op_name"] + ":" + str(d["index"]): d["kernel"]
               for d in it._get_ops_details() if d.get("kernel")}
    return outs, kernels


@functools.lru_cache(None)
def _cpu_has(isa):
    out = subprocess.run([sys.executable, "-c", "import tflite_fast; tflite_fast.show_config()"],
                         capture_output=True, text=True).stdout
    line = [ln for ln in out.splitlines() if "detected ISAs" in ln]
    return bool(line) and isa in line[0]


@pytest.mark.parametrize("name,mode", CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_levels_agree(name, mode):
    model = model_path(name).read_bytes()
    inputs = random_inputs(input_details(model), np.random.default_rng(7))
    ref = run_oracle(model, inputs, mode)
    results = {}
    for level, isas in LEVELS.items():
        if level == "avx512vnni" and not _cpu_has("avx512vnni"):
            continue
        if level == "avx512vnni,avx2" and not _cpu_has("sse41"):
            continue
        env = dict(os.environ, TFLITE_FAST_DISABLE_ISA=level)
        outs, kernels = call_in_subprocess("test_isa_levels", "child_run", model, inputs, mode,
                                           env=env)
        assert any("_ukernel_" in k for k in kernels.values()), f"{name}: no ukernel ran"
        for node, k in kernels.items():
            if isas and "_ukernel_" in k:
                assert isa_of(k) in isas, f"{name} {node} with DISABLE_ISA={level!r}: {k}"
        assert_outputs_match(outs, ref, context=f"{name} DISABLE_ISA={level!r}")
        results[level] = outs
    base = results[""]
    for level, outs in results.items():
        for a, b in zip(outs, base):
            assert a.dtype == b.dtype
            if a.dtype.kind == "f":
                continue  # checked against the oracle above
            assert a.tobytes() == b.tobytes(), \
                f"{name}: DISABLE_ISA={level!r} differs from the best ISA"


@pytest.mark.parametrize("name", ["mobilenet_v2_int8", "mobilenet_v2_float", "seed_dense_float"])
def test_threads_agree(name):
    """The GEMMs split output tiles (and channel blocks when there are few
    tiles) over threads, never a sum: any thread count gives the same bits."""
    from oracle import ours_module, run_interpreter

    model = model_path(name).read_bytes()
    inputs = random_inputs(input_details(model), np.random.default_rng(3))
    outs = {}
    for threads in (1, 3, 4):
        it = ours_module().Interpreter(model_content=model, num_threads=threads)
        outs[threads] = run_interpreter(it, inputs)
    for threads, o in outs.items():
        for a, b in zip(o, outs[1]):
            assert a.tobytes() == b.tobytes(), f"{name}: {threads} threads differ from 1"
