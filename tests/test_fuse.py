"""Activation fusion (csrc/runtime/fuse.h): a float32 op whose output only a RELU/RELU6
reads takes the activation, and the RELU's output shares the op's buffer.

Every model runs against ai_edge_litert in both numerics modes (the oracle runs the graph
as written). On tflite_fast the memory plan also shows whether a pair was fused: a fused
RELU output has no arena region of its own. Cases: each producer op with each RELU, a
RELU input read by another node too, a RELU input that is a graph output, a RELU output
read by later ops, preserve_all_tensors (every tensor observable: no fusion), and a
resize after the first allocate.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

ours = oracle.ours_module()
IS_LITERT = ours is oracle.oracle_module()
ACT = {"RELU": S.ActivationFunctionType.RELU, "RELU6": S.ActivationFunctionType.RELU6}
NONE = S.ActivationFunctionType.NONE
PRODUCERS = ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL"]


def producer(b, op, shape, act, rng):
    """Adds graph inputs and `op` writing a new tensor t; returns (inputs, t, arrays)."""
    f32 = np.float32
    if op in ("ADD", "SUB", "MUL"):
        x1, x2 = b.tensor("x1", shape, f32), b.tensor("x2", shape, f32)
        t = b.tensor("t", shape, f32)
        b.op(op, [x1, x2], [t], fusedActivationFunction=act)
        arrays = [(rng.standard_normal(shape) * 4).astype(f32) for _ in range(2)]
        return [x1, x2], t, arrays
    x = b.tensor("x", shape, f32)
    arrays = [(rng.standard_normal(shape) * 4).astype(f32)]
    c = shape[-1]
    if op == "FULLY_CONNECTED":
        t = b.tensor("t", shape[:-1] + [c + 3], f32)
        w = b.const("w", rng.standard_normal((c + 3, c)).astype(f32))
        bias = b.const("b", rng.standard_normal(c + 3).astype(f32))
        b.op(op, [x, w, bias], [t], fusedActivationFunction=act, keepNumDims=True)
        return [x], t, arrays
    if op == "CONV_2D":
        w = b.const("w", rng.standard_normal((c + 3, 3, 3, c)).astype(f32))
        bias = b.const("b", rng.standard_normal(c + 3).astype(f32))
        t = b.tensor("t", shape[:-1] + [c + 3], f32)
        b.op(op, [x, w, bias], [t], padding=S.Padding.SAME, strideH=1, strideW=1,
             fusedActivationFunction=act)
    else:
        w = b.const("w", rng.standard_normal((1, 3, 3, c)).astype(f32))
        bias = b.const("b", rng.standard_normal(c).astype(f32))
        t = b.tensor("t", shape, f32)
        b.op(op, [x, w, bias], [t], padding=S.Padding.SAME, strideH=1, strideW=1,
             depthMultiplier=1, fusedActivationFunction=act)
    return [x], t, arrays


def tensor_shape(b, t):
    return list(b._sg.tensors[t].shape)


def chain_model(op, relu, act=NONE, shape=(1, 5, 6, 4), seed=0, t_also_read=False,
                t_is_output=False, y_read_after=False):
    """inputs -> op -> t -> relu -> y, variants on who else sees t and y. Returns
    (model, inputs, t, y)."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    ins, t, arrays = producer(b, op, list(shape), act, rng)
    ts = tensor_shape(b, t)
    y = b.tensor("y", ts, np.float32)
    b.op(relu, [t], [y])
    outs = [y]
    if t_also_read:
        z = b.tensor("z", ts, np.float32)
        b.op("ADD", [t, t], [z])
        outs.append(z)
    if y_read_after:
        z2 = b.tensor("z2", ts, np.float32)
        b.op("ADD", [y, y], [z2])
        outs = [z2]
    if t_is_output:
        outs.append(t)
    b.inputs(ins)
    b.outputs(outs)
    return b.build(), arrays, t, y


def planned(model, mode, **kwargs):
    """Tensors with an arena region of their own in tflite_fast's plan."""
    it = oracle.make_interpreter(ours, model, mode, **kwargs)
    it.allocate_tensors()
    return {e["tensor"] for e in it.memory_plan()}


def check_fused(model, y, mode, fused):
    if not IS_LITERT:
        assert (y not in planned(model, mode)) == fused


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(op=st.sampled_from(PRODUCERS), relu=st.sampled_from(list(ACT)),
       already=st.booleans(), seed=st.integers(0, 2**31 - 1),
       shape=st.sampled_from([(1, 5, 6, 4), (2, 3, 7, 9), (1, 1, 1, 17), (1, 9, 9, 1)]),
       after=st.booleans())
def test_chain_fused(mode, op, relu, already, seed, shape, after):
    """The op with activation NONE (or already the RELU's own) is fused with the RELU."""
    model, inputs, _, y = chain_model(op, relu, ACT[relu] if already else NONE, shape, seed,
                                      y_read_after=after)
    oracle.check(model, inputs, mode)
    check_fused(model, y, mode, True)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["CONV_2D", "ADD"])
def test_other_activation_not_fused(mode, op):
    """RELU after an op fused with RELU6 (or RELU6 after RELU) keeps its own node."""
    for act, relu in ((ACT["RELU6"], "RELU"), (ACT["RELU"], "RELU6")):
        model, inputs, _, y = chain_model(op, relu, act)
        oracle.check(model, inputs, mode)
        check_fused(model, y, mode, False)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", PRODUCERS)
def test_relu_input_read_elsewhere(mode, op):
    """t is read by the RELU and by an ADD: the ADD must see t unclamped."""
    model, inputs, _, y = chain_model(op, "RELU", t_also_read=True, seed=3)
    ours_out, _ = oracle.check(model, inputs, mode)
    assert (ours_out[1] < 0).any()  # t+t: the negatives of t were seen
    check_fused(model, y, mode, False)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["CONV_2D", "SUB"])
def test_relu_input_is_graph_output(mode, op):
    model, inputs, _, y = chain_model(op, "RELU6", t_is_output=True, seed=4)
    ours_out, _ = oracle.check(model, inputs, mode)
    assert (ours_out[1] < 0).any() and (ours_out[1] > 6).any()  # t itself, unclamped
    check_fused(model, y, mode, False)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["DEPTHWISE_CONV_2D", "FULLY_CONNECTED"])
def test_relu_output_read_after(mode, op):
    """y is not a graph output: its consumer reads the op's buffer."""
    model, inputs, _, y = chain_model(op, "RELU", y_read_after=True, seed=5)
    oracle.check(model, inputs, mode)
    check_fused(model, y, mode, True)


@pytest.mark.filterwarnings("ignore:Warning. Enabling `experimental_preserve_all_tensors`")
@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["CONV_2D", "ADD"])
def test_preserve_all_tensors(mode, op):
    """Every intermediate stays observable: t holds the op's unclamped output."""
    model, inputs, t, y = chain_model(op, "RELU", y_read_after=True, seed=6)
    got = {}
    for module in (ours, oracle.oracle_module()):
        it = oracle.make_interpreter(module, model, mode, experimental_preserve_all_tensors=True)
        oracle.run_interpreter(it, inputs)
        got[module] = [it.get_tensor(t), it.get_tensor(y)]
    assert (got[ours][0] < 0).any()
    oracle.assert_outputs_match(got[ours], got[oracle.oracle_module()], f"mode={mode}")
    if not IS_LITERT:
        assert y in planned(model, mode, experimental_preserve_all_tensors=True)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_resize_after_allocate(mode):
    """A second allocate (new input shape) fuses again on the new shapes."""
    model, _, _, y = chain_model("CONV_2D", "RELU", shape=(1, 4, 4, 3))
    rng = np.random.default_rng(7)
    it = oracle.make_interpreter(ours, model, mode)
    for shape in [(1, 4, 4, 3), (2, 7, 5, 3), (1, 3, 9, 3)]:
        x = (rng.standard_normal(shape) * 4).astype(np.float32)
        got = oracle.run_interpreter(it, [x])
        oracle.assert_outputs_match(got, oracle.run_oracle(model, [x], mode), f"mode={mode}")
        if not IS_LITERT:
            assert y not in {e["tensor"] for e in it.memory_plan()}
