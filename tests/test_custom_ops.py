"""InterpreterWithCustomOps: custom ops from a C library ('[NAME=]lib.so:symbol')
and from Python (a CustomOpResolver registerer), checked against ai_edge_litert
running the same computation as builtin ops, plus the error paths."""

import ctypes
import os
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
RNG = np.random.default_rng(7)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """Path of the fixture library tests/custom_op/test_custom_op.c."""
    if CC is None:
        pytest.fail("no C compiler to build the custom-op fixture")
    inc = tflite_fast.get_include()
    if not os.path.isdir(inc):  # editable install: headers not copied
        inc = os.path.join(ROOT, "csrc", "include")
    out = str(tmp_path_factory.mktemp("custom_op") / "libtest_custom_op.so")
    subprocess.run([CC, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                    "-fvisibility=hidden", "-I", inc,
                    os.path.join(ROOT, "tests", "custom_op", "test_custom_op.c"), "-o", out], check=True)
    return out


def two_input_model(op, shape=(2, 3), custom=None, out_shape=None):
    """x, y -> op -> out; op a builtin name or, with custom=name, a custom op."""
    b = ModelBuilder()
    x = b.tensor("x", list(shape), np.float32)
    y = b.tensor("y", list(shape), np.float32)
    z = b.tensor("z", list(out_shape or shape), np.float32)
    if custom:
        b.op("CUSTOM", [x, y], [z], custom_code=custom, custom_options=b"\x01\x02")
    else:
        b.op(op, [x, y], [z])
    b.inputs([x, y])
    b.outputs([z])
    return b.build()


def run(interp, *inputs):
    interp.allocate_tensors()
    for d, v in zip(interp.get_input_details(), inputs):
        interp.set_tensor(d["index"], v)
    interp.invoke()
    return [interp.get_tensor(d["index"]) for d in interp.get_output_details()]


def inputs(shape=(2, 3)):
    return [RNG.standard_normal(shape).astype(np.float32) for _ in range(2)]


def live_nodes(lib):
    return ctypes.CDLL(lib).live_node_count()


@pytest.mark.parametrize("spec", ["{lib}:register_tff_add", "TffAdd={lib}:register_unnamed_add"])
def test_c_custom_op_matches_builtin_add(lib, spec):
    xs = inputs()
    want = oracle.run_oracle(two_input_model("ADD"), xs, "default")
    it = tff.InterpreterWithCustomOps(custom_op_registerers=[spec.format(lib=lib)],
                                      model_content=two_input_model(None, custom="TffAdd"))
    oracle.assert_outputs_match(run(it, *xs), want)
    assert live_nodes(lib) == 1
    it._close()
    assert live_nodes(lib) == 0  # free ran for the node init made


def test_c_custom_op_in_both_numerics_modes(lib):
    xs = inputs((4, 5))
    model = two_input_model(None, (4, 5), custom="TffAdd")
    for mode, resolver in (("default", tff.OpResolverType.AUTO), ("ref", tff.OpResolverType.BUILTIN_REF)):
        want = oracle.run_oracle(two_input_model("ADD", (4, 5)), xs, mode)
        it = tff.InterpreterWithCustomOps(custom_op_registerers=[lib + ":register_tff_add"],
                                          model_content=model, experimental_op_resolver_type=resolver)
        oracle.assert_outputs_match(run(it, *xs), want)


class PyAdd:
    """A Python custom op: out = x + y."""

    def __init__(self, options):
        assert options == b"\x01\x02"  # the node's custom options reach the factory

    def invoke(self, x, y):
        return x + y


class PyConcat:
    """out = concat(x, y) on axis 0, the output shape set in prepare."""

    def __init__(self, options):
        pass

    def prepare(self, ins):
        (sx, tx), (sy, ty) = ins
        assert tx is np.float32 and ty is np.float32
        return [(sx[0] + sy[0],) + tuple(sx[1:])]

    def invoke(self, x, y):
        return np.concatenate([x, y], axis=0)


def test_python_custom_op_matches_builtin_add():
    xs = inputs()
    want = oracle.run_oracle(two_input_model("ADD"), xs, "default")
    it = tff.InterpreterWithCustomOps(custom_op_registerers=[lambda r: r.add_custom("PyAdd", PyAdd)],
                                      model_content=two_input_model(None, custom="PyAdd"))
    oracle.assert_outputs_match(run(it, *xs), want)


def test_python_custom_op_prepare_sets_output_shape():
    xs = inputs()
    b = ModelBuilder()
    x, y = b.tensor("x", [2, 3], np.float32), b.tensor("y", [2, 3], np.float32)
    z = b.tensor("z", [4, 3], np.float32)
    b.op("CONCATENATION", [x, y], [z], axis=0)
    b.inputs([x, y])
    b.outputs([z])
    want = oracle.run_oracle(b.build(), xs, "default")
    model = two_input_model(None, custom="PyConcat", out_shape=(1, 1))  # wrong until prepare
    it = tff.InterpreterWithCustomOps(custom_op_registerers=[lambda r: r.add_custom("PyConcat", PyConcat)],
                                      model_content=model)
    out = run(it, *xs)
    assert out[0].shape == (4, 3)
    oracle.assert_outputs_match(out, want)


def test_registration_address_from_a_python_registerer(lib):
    fn = getattr(ctypes.CDLL(lib), "register_unnamed_add")
    fn.restype = ctypes.c_void_p
    xs = inputs()
    want = oracle.run_oracle(two_input_model("ADD"), xs, "default")
    it = tff.InterpreterWithCustomOps(custom_op_registerers=[lambda r: r.add_custom("TffAdd", fn())],
                                      model_content=two_input_model(None, custom="TffAdd"))
    oracle.assert_outputs_match(run(it, *xs), want)


def test_unresolved_custom_op_fails_at_allocate():
    it = tff.Interpreter(model_content=two_input_model(None, custom="Nobody"))
    with pytest.raises(RuntimeError, match="Encountered unresolved custom op: Nobody"):
        it.allocate_tensors()


@pytest.mark.parametrize("spec, message", [
    ("JustASymbol", "path/to/lib.so:symbol"),
    ("/nonexistent/lib.so:register", "nonexistent"),
    ("{lib}:no_such_symbol", "no_such_symbol"),
    ("{lib}:register_null", "returned NULL"),
    ("{lib}:register_unnamed_add", "has no custom_name"),
])
def test_bad_c_registerers(lib, spec, message):
    with pytest.raises(ValueError, match=message):
        tff.InterpreterWithCustomOps(custom_op_registerers=[spec.format(lib=lib)],
                                     model_content=two_input_model(None, custom="TffAdd"))


class NoInvoke:
    def __init__(self, options):
        pass


class Raises(PyAdd):
    def invoke(self, x, y):
        raise ArithmeticError("boom")


class WrongDtype(PyAdd):
    def invoke(self, x, y):
        return (x + y).astype(np.float64)


class WrongCount(PyAdd):
    def invoke(self, x, y):
        return x, y


def test_python_op_without_invoke_is_refused():
    with pytest.raises(ValueError, match="invoke"):
        tff.InterpreterWithCustomOps(custom_op_registerers=[lambda r: r.add_custom("PyAdd", NoInvoke)],
                                     model_content=two_input_model(None, custom="PyAdd"))


@pytest.mark.parametrize("cls, message", [(Raises, "ArithmeticError: boom"),
                                          (WrongDtype, "must be float32"),
                                          (WrongCount, "returned 2 values for 1 outputs")])
def test_python_op_errors_become_runtime_errors(cls, message):
    it = tff.InterpreterWithCustomOps(custom_op_registerers=[lambda r: r.add_custom("PyAdd", cls)],
                                      model_content=two_input_model(None, custom="PyAdd"))
    with pytest.raises(RuntimeError, match=message):
        run(it, *inputs())
    # the interpreter stays usable after a failed invoke
    with pytest.raises(RuntimeError, match=message):
        it.invoke()


def test_bad_registerer_values():
    with pytest.raises(ValueError, match="str or a callable"):
        tff.InterpreterWithCustomOps(custom_op_registerers=[42],
                                     model_content=two_input_model(None, custom="PyAdd"))
    with pytest.raises(ValueError, match="non-empty str"):
        tff.InterpreterWithCustomOps(custom_op_registerers=[lambda r: r.add_custom("", PyAdd)],
                                     model_content=two_input_model(None, custom="PyAdd"))


def test_register_after_allocate_is_refused(lib):
    it = tff.InterpreterWithCustomOps(custom_op_registerers=[lib + ":register_tff_add"],
                                      model_content=two_input_model(None, custom="TffAdd"))
    it.allocate_tensors()
    with pytest.raises(ValueError, match="before delegates are applied and tensors are allocated"):
        it._register_custom_py("TffAdd", PyAdd)
