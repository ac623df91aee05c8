"""Models found by fuzzing (tests/fuzz/), reduced to what triggers the bug and
rebuilt here, so they stay small and readable. Each must load, allocate and
invoke like ai-edge-litert does.

    python tests/test_fuzz_regressions.py DIR

writes every case to DIR/<name>.tflite; tests/fuzz/run_fuzz.sh replays them
through the libFuzzer harness (clang's UBSan checks signed overflow there;
the Python extension is built with Python's -fwrapv, under which neither
compiler checks it).
"""
import os
import sys

import numpy as np
import pytest

from model_builder import ModelBuilder


def bcast_stride_overflow():
    """fuzz_model crash-9dfdce90 (a mutated face_detection_short_range): ADD
    broadcasting a tensor whose dims multiply past INT_MAX. tff_bcast_prepare
    (csrc/ops/kernel_util.c) accumulates the element strides in int
    (`sa *= da`), which overflows before the zero dim is reached. A zero-size
    batch keeps the tensors empty, so the case is cheap."""
    b = ModelBuilder()
    x = b.tensor("x", [0, 65536, 65536], np.float32)
    y = b.tensor("y", [1, 1, 65536], np.float32)
    o = b.tensor("o", [0, 65536, 65536], np.float32)
    b.op("ADD", [x, y], [o])
    b.inputs([x, y])
    b.outputs([o])
    return b.build()


CASES = {"bcast_stride_overflow": bcast_stride_overflow}


def _run(module, model, mode):
    kw = {}
    if mode == "ref":
        kw["experimental_op_resolver_type"] = module.OpResolverType.BUILTIN_REF
    it = module.Interpreter(model_content=model, **kw)
    it.allocate_tensors()
    for d in it.get_input_details():
        it.set_tensor(d["index"], np.zeros([int(s) for s in d["shape"]], d["dtype"]))
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


@pytest.mark.parametrize("mode", ["default", "ref"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_fuzz_regression(name, mode):
    import tflite_fast.interpreter as ours

    model = CASES[name]()
    got = _run(ours, model, mode)
    try:
        from ai_edge_litert import interpreter as litert
    except ImportError:
        return
    want = _run(litert, model, mode)
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def write_cases(directory):
    os.makedirs(directory, exist_ok=True)
    for name, make in CASES.items():
        with open(os.path.join(directory, name + ".tflite"), "wb") as f:
            f.write(make())


if __name__ == "__main__":
    write_cases(sys.argv[1])
