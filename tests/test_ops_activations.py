"""RELU, RELU6, LOGISTIC and HARD_SWISH against ai_edge_litert in both numerics modes.

float32, int8 and uint8; shapes of rank 0..6. Every quantized input holds all 256 codes
(the 8-bit ops are tables, so this checks every entry), with input/output scales over
five orders of magnitude and zero points including the type's extremes. Modes differ in:
LOGISTIC int8/uint8 (TFLite's table rounds half away from zero, XNNPACK's rounds to even
after adding the zero point) and HARD_SWISH float32 (expression order); quantized RELUs
and HARD_SWISH take TFLite's formulas in both modes.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import oracle
from model_builder import ModelBuilder

OPS = ["RELU", "RELU6", "LOGISTIC", "HARD_SWISH"]
QTYPES = [np.int8, np.uint8]
f32 = np.float32
IS_LITERT = oracle.ours_module() is oracle.oracle_module()
OWN_MESSAGES = pytest.mark.skipif(IS_LITERT, reason="tflite_fast's own messages")


def unary_model(op, shape, dtype, q_in=None, q_out=None, out_dtype=None):
    """One-op model x -> y (y of out_dtype, default dtype); also used by test_ops_quantize."""
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, *(q_in or (None, None)))
    y = b.tensor("y", shape, out_dtype or dtype, *(q_out or (None, None)))
    b.op(op, [x], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


shapes = st.integers(0, 6).flatmap(lambda r: st.lists(st.integers(1, 5), min_size=r, max_size=r))
scales = st.integers(-400, 100).map(lambda k: float(f32(10.0 ** (k / 100))))


def zero_points(dtype):
    info = np.iinfo(dtype)
    return st.one_of(st.integers(int(info.min), int(info.max)),
                     st.sampled_from([int(info.min), int(info.max)]))


def all_codes(shape, dtype, rng):
    """Random codes of `dtype` in `shape`, with every code present when it fits; rank-0
    and small shapes are padded out to a second, flat tensor by the caller."""
    info = np.iinfo(dtype)
    n = int(np.prod(shape))
    codes = np.arange(int(info.min), int(info.max) + 1)
    x = np.concatenate([codes, rng.integers(int(info.min), int(info.max) + 1, max(0, n - 256))])
    return rng.permutation(x)[:n].astype(dtype).reshape(shape)


def check_or_both_fail(model, inputs, mode):
    """Like oracle.check, except that a model the oracle refuses to prepare must be
    refused by ours too."""
    try:
        ref = oracle.run_oracle(model, inputs, mode)
    except (RuntimeError, ValueError):
        with pytest.raises((RuntimeError, ValueError)):
            oracle.run_ours(model, inputs, mode)
        return
    oracle.assert_outputs_match(oracle.run_ours(model, inputs, mode), ref, f"mode={mode}")


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@settings(max_examples=30, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**32 - 1), spread=st.sampled_from([1.0, 4.0, 40.0]))
def test_float(op, mode, shape, seed, spread):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * spread).astype(np.float32)
    oracle.check(unary_model(op, shape, np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
def test_float_specials(op, mode):
    x = np.array([np.inf, -np.inf, np.nan, 3e38, -3e38, -3.0, 3.0, 6.0, -0.0, 0.0, 1e-30,
                  -90.0, 90.0, -3.0000002, 2.9999998], np.float32)
    oracle.check(unary_model(op, [x.size], np.float32), [x], mode)


@st.composite
def quantized(draw, op):
    dtype = draw(st.sampled_from(QTYPES))
    q_in = (draw(scales), draw(zero_points(dtype)))
    if op == "LOGISTIC":
        q_out = (1 / 256, -128 if dtype == np.int8 else 0)
    elif draw(st.integers(0, 4)) == 0:
        q_out = q_in
    else:
        q_out = (draw(scales), draw(zero_points(dtype)))
    return dtype, q_in, q_out


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@settings(max_examples=60, deadline=None)
@given(data=st.data(), shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_quantized(op, mode, data, shape, seed):
    dtype, q_in, q_out = data.draw(quantized(op))
    rng = np.random.default_rng(seed)
    # A second, flat input of 300 codes makes every table entry show up.
    b = ModelBuilder()
    x1 = b.tensor("x1", shape, dtype, *q_in)
    y1 = b.tensor("y1", shape, dtype, *q_out)
    x2 = b.tensor("x2", [300], dtype, *q_in)
    y2 = b.tensor("y2", [300], dtype, *q_out)
    b.op(op, [x1], [y1])
    b.op(op, [x2], [y2])
    b.inputs([x1, x2])
    b.outputs([y1, y2])
    inputs = [all_codes(shape, dtype, rng), all_codes([300], dtype, rng)]
    check_or_both_fail(b.build(), inputs, mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(s_in=scales, z_in=zero_points(np.int8), seed=st.integers(0, 2**32 - 1))
def test_logistic_int8_ties(mode, s_in, z_in, seed):
    """Input scales that are small multiples of 1/256 hit more ties of y*256."""
    assume(s_in < 1.0)
    rng = np.random.default_rng(seed)
    s = float(f32(round(s_in * 256) / 256 or 1 / 256))
    model = unary_model("LOGISTIC", [256], np.int8, (s, z_in), (1 / 256, -128))
    oracle.check(model, [all_codes([256], np.int8, rng)], mode)


# Input quantizations whose TFLite and XNNPACK tables differ (found by search over the
# oracle: about 1 in 400 random ones does).
LOGISTIC_SPLIT = [(np.int8, 0.001953932223841548, -58), (np.int8, 0.46878674626350403, 113),
                  (np.int8, 0.006049282383173704, -20), (np.int8, 0.003535214578732848, -115),
                  (np.int8, 0.0015638420591130853, 10), (np.int8, 0.014460498467087746, -67),
                  (np.uint8, 0.001953932223841548, 70), (np.uint8, 0.006049282383173704, 108)]


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype,s_in,z_in", LOGISTIC_SPLIT)
def test_logistic_tables_differ(mode, dtype, s_in, z_in):
    model = unary_model("LOGISTIC", [256], dtype, (s_in, z_in),
                        (1 / 256, -128 if dtype == np.int8 else 0))
    codes = np.arange(256).astype(np.uint8).view(dtype)
    ref = oracle.run_oracle(model, [codes], "ref")[0]
    assert (ref != oracle.run_oracle(model, [codes], "default")[0]).any()
    oracle.check(model, [codes], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_logistic_other_output_zero_point(mode):
    """TFLite checks only the output scale; the zero point shifts the table."""
    rng = np.random.default_rng(1)
    model = unary_model("LOGISTIC", [256], np.int8, (0.05, 3), (1 / 256, -100))
    oracle.check(model, [all_codes([256], np.int8, rng)], mode)


@OWN_MESSAGES
def test_logistic_bad_output_scale():
    model = unary_model("LOGISTIC", [4], np.int8, (0.05, 0), (1 / 128, -128))
    with pytest.raises((RuntimeError, ValueError), match="LOGISTIC: output scale"):
        oracle.run_ours(model, [np.zeros([4], np.int8)], "ref")


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("q_in,q_out", [
    ((0.02, -128), (0.0002, 127)),  # output multiplier exponent 0, int16 zero-point wrap
    ((3.0, 0), (0.3, -128)),         # relu-ish multiplier exponent > 0 (left shifts)
    ((1e-6, 5), (1e-6, -5)),         # large right shifts
])
def test_hard_swish_extremes(mode, q_in, q_out):
    rng = np.random.default_rng(2)
    oracle.check(unary_model("HARD_SWISH", [256], np.int8, q_in, q_out),
                 [all_codes([256], np.int8, rng)], mode)


@OWN_MESSAGES
def test_hard_swish_output_scale_too_small():
    """TFLite requires s_in/128/s_out < 1 (output multiplier exponent <= 0)."""
    model = unary_model("HARD_SWISH", [4], np.int8, (1.0, 0), (0.001, 0))
    with pytest.raises((RuntimeError, ValueError), match="HARD_SWISH: output scale"):
        oracle.run_ours(model, [np.zeros([4], np.int8)], "ref")


@OWN_MESSAGES
@pytest.mark.parametrize("op", OPS)
def test_unsupported_type(op):
    b = ModelBuilder()
    x = b.tensor("x", [4], np.int32)
    y = b.tensor("y", [4], np.int32)
    b.op(op, [x], [y])
    b.inputs([x])
    b.outputs([y])
    with pytest.raises((RuntimeError, ValueError), match=f"{op}: type INT32"):
        oracle.run_ours(b.build(), [np.zeros([4], np.int32)], "ref")
