"""The worked example in csrc/include/tflite_fast/delegate.h compiles as it
stands against the installed headers, loads with load_delegate, takes the
float ADD nodes, and the model's outputs equal ai_edge_litert's."""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import oracle
from model_builder import ModelBuilder

import tflite_fast
import tflite_fast.interpreter as tff

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC = shutil.which("gcc") or shutil.which("cc")


def include_dir():
    inc = tflite_fast.get_include()
    return inc if os.path.isdir(inc) else os.path.join(ROOT, "csrc", "include")  # editable install


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    if CC is None:
        pytest.fail("no C compiler to build the delegate.h example")
    header = open(os.path.join(include_dir(), "tflite_fast", "delegate.h")).read()
    m = re.search(r"BEGIN EXAMPLE add_delegate\.c\n(.*?)\n \* END EXAMPLE", header, re.S)
    assert m, "delegate.h lost its worked example"
    d = tmp_path_factory.mktemp("guide")
    (d / "add_delegate.c").write_text(m.group(1))
    out = str(d / "libadd_delegate.so")
    subprocess.run([CC, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                    "-fvisibility=hidden", "-I", include_dir(), str(d / "add_delegate.c"), "-o", out],
                   check=True)
    return out


def chain_model():
    """x + y -> * y -> + x: two ADD partitions around a MUL the delegate leaves."""
    b = ModelBuilder()
    x, y = b.tensor("x", [2, 8], np.float32), b.tensor("y", [2, 8], np.float32)
    s, p, o = (b.tensor(n, [2, 8], np.float32) for n in ("s", "p", "o"))
    b.op("ADD", [x, y], [s])
    b.op("MUL", [s, y], [p])
    b.op("ADD", [p, x], [o])
    b.inputs([x, y])
    b.outputs([o])
    return b.build()


def test_worked_example_delegates_adds_and_matches_the_oracle(example):
    model = chain_model()
    rng = np.random.default_rng(3)
    xs = [rng.standard_normal((2, 8)).astype(np.float32) for _ in range(2)]
    it = tff.Interpreter(model_content=model, experimental_delegates=[tff.load_delegate(example)])
    it.allocate_tensors()
    ops = [d["op_name"] for d in it._get_ops_details()]
    assert ops.count("DELEGATE") == 2 and "MUL" in ops
    for d, v in zip(it.get_input_details(), xs):
        it.set_tensor(d["index"], v)
    it.invoke()
    ours = [it.get_tensor(d["index"]) for d in it.get_output_details()]
    oracle.assert_outputs_match(ours, oracle.run_oracle(model, xs, "default"))
