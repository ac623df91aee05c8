"""Models found by fuzzing (tests/fuzz/), reduced to what triggers the bug and
rebuilt here, so they stay small and readable. Each must either run like
ai-edge-litert or be refused with a message.

    python tests/test_fuzz_regressions.py DIR

writes the fixed cases to DIR/<name>.tflite; tests/fuzz/run_fuzz.sh replays them
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


def input_rewritten():
    """fuzz_model crash-085a6e1d (a mutated transformer_block_float, one
    output index changed to 0): a node writes the subgraph's input tensor
    after an earlier node has read it. RESHAPE's prepare resizes x from
    [1, 64] to [1, 4] after FULLY_CONNECTED was prepared for 64 inputs; the
    arena gives x 16 bytes and FULLY_CONNECTED reads 256 (heap-buffer-overflow
    in tff_f32_gemm_rows). ai-edge-litert refuses the model at allocate; so
    must we."""
    b = ModelBuilder()
    x = b.tensor("x", [1, 64], np.float32)
    w = b.const("w", np.ones((4, 64), np.float32))
    h = b.tensor("h", [1, 4], np.float32)
    shape = b.const("shape", np.array([1, 4], np.int32))
    w2 = b.const("w2", np.ones((2, 4), np.float32))
    y = b.tensor("y", [1, 2], np.float32)
    b.op("FULLY_CONNECTED", [x, w, -1], [h])
    b.op("RESHAPE", [h, shape], [x], newShape=[1, 4])
    b.op("FULLY_CONNECTED", [x, w2, -1], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


def long_name():
    """fuzz_python hang (a mutated model whose strings grew): the model
    reader's bump arena (csrc/runtime/arena.c) opened a chunk of its due size
    (16 KiB first) for a block of up to 256 KiB and wrote past it; glibc then
    aborted in free() and libFuzzer's handler hung. A 40,000-byte tensor name
    is such a block (the sanitized builds give every block its own malloc, so
    only the plain build saw it)."""
    b = ModelBuilder()
    x = b.tensor("x" * 40000, [2, 3], np.float32)
    y = b.tensor("y", [2, 3], np.float32)
    b.op("ABS", [x], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


# name -> (model, what must happen): "oracle" = run and match ai-edge-litert,
# "error" = ValueError at construction or RuntimeError at allocate/invoke.
CASES = {
    "bcast_stride_overflow": (bcast_stride_overflow, "oracle"),
    "input_rewritten": (input_rewritten, "error"),
    "long_name": (long_name, "oracle"),
}
# Cases whose fix is pending, with where it belongs. run_fuzz.sh does not
# replay them; pytest expects the Python-visible ones to fail (strict: the
# fix turns the xfail into a failure, the reminder to delete the entry).
OPEN = {}


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


def _params():
    out = []
    for name, (_, expect) in sorted(CASES.items()):
        open_here = name in OPEN and expect == "error"
        marks = [pytest.mark.xfail(strict=True, reason=OPEN[name])] if open_here else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("mode", ["default", "ref"])
@pytest.mark.parametrize("name", _params())
def test_fuzz_regression(name, mode):
    import tflite_fast.interpreter as ours

    make, expect = CASES[name]
    model = make()
    if expect == "error":
        with pytest.raises((ValueError, RuntimeError)) as e:
            _run(ours, model, mode)
        assert str(e.value)
        return
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
    """Writes the fixed cases (those not in OPEN) for the C harness to replay."""
    os.makedirs(directory, exist_ok=True)
    for name, (make, _) in CASES.items():
        if name not in OPEN:
            with open(os.path.join(directory, name + ".tflite"), "wb") as f:
                f.write(make())


if __name__ == "__main__":
    write_cases(sys.argv[1])
