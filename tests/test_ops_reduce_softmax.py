"""MEAN and SOFTMAX against ai_edge_litert in both numerics modes.

MEAN int8 runs one of three formulas (docs/numerics.md §1.11): XNNPACK's when AUTO
delegates it (model-constant axes), TFLite's optimized 4-D H,W mean when the axes are
computed by another op (here PACK, which tflite_fast computes at prepare but LiteRT does
not), and the reference formula otherwise. SOFTMAX int8 is the fixed-point reference in
'ref' and the float table in 'default'. The inputs where LiteRT's reference softmax
aborts the process are checked against the float ideal instead (the oracle runs in a
child process there).
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder

# With TFF_TEST_IMPL=ai_edge_litert the tests run LiteRT itself: it rejects the same bad
# models, in its own words, and some tests check tflite_fast's own choices.
IS_LITERT = oracle.ours_module() is oracle.oracle_module()
tff_only = pytest.mark.skipif(IS_LITERT, reason="tflite_fast behaviour; LiteRT differs")


def prepare_error(message):
    return pytest.raises(RuntimeError, match=None if IS_LITERT else message)

# ---------------------------------------------------------------- MEAN


def norm_axes(axes, rank):
    out = []
    for a in axes:
        a = a + rank if a < 0 else a
        if a not in out:
            out.append(a)
    return out


def reduce_model(op, shape, axes, keep, dtype, q_in=(None, None), q_out=(None, None),
                 packed=False):
    """A single reduction (MEAN, SUM, REDUCE_MAX, ...) over `axes`; `packed` computes the
    axes with PACK instead of a model constant."""
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, *q_in)
    if packed:  # axes computed by an op: not a model constant
        scalars = [b.const(f"a{i}", np.array(a, np.int32)) for i, a in enumerate(axes)]
        ax = b.tensor("axes", [len(axes)], np.int32)
        b.op("PACK", scalars, [ax], valuesCount=len(axes), axis=0)
    else:
        ax = b.const("axes", np.array(axes, np.int32))
    red = norm_axes(axes, len(shape))
    oshape = [1 if i in red else d for i, d in enumerate(shape)] if keep else \
        [d for i, d in enumerate(shape) if i not in red]
    y = b.tensor("y", oshape, dtype, *q_out)
    b.op(op, [x, ax], [y], keepDims=keep)
    b.inputs([x])
    b.outputs([y])
    return b.build()


def mean_model(*args, **kwargs):
    return reduce_model("MEAN", *args, **kwargs)


@st.composite
def mean_case(draw, max_rank=5):
    rank = draw(st.integers(1, max_rank))
    shape = [draw(st.integers(1, 6)) for _ in range(rank)]
    axes = draw(st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank + 1))
    return shape, axes, draw(st.booleans())


def int8_data(shape, seed):
    return np.random.default_rng(seed).integers(-128, 128, size=shape).astype(np.int8)


@st.composite
def int8_quant(draw):
    s_in = draw(st.floats(0.001, 1.0))
    s_out = s_in * draw(st.floats(0.2, 3.0))
    return (s_in, draw(st.integers(-128, 127))), (s_out, draw(st.integers(-128, 127)))


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(case=mean_case(), seed=st.integers(0, 2**32 - 1))
def test_mean_float(mode, case, seed):
    shape, axes, keep = case
    # Off-centre data: a mean that cancels to ~0 carries the summation-order error of
    # each implementation (XNNPACK's is not TFLite's) far above 1e-5 of its value.
    x = (np.random.default_rng(seed).standard_normal(shape) + 3).astype(np.float32)
    oracle.check(mean_model(shape, axes, keep, np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=15, deadline=None)
@given(b=st.integers(1, 3), h=st.integers(1, 7), w=st.integers(1, 7), c=st.integers(1, 200),
       spatial=st.booleans(), keep=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_mean_float_wide(mode, b, h, w, c, spatial, keep, seed):
    """Many kept channels after the reduced dims (MobileNet's 7x7x1280 head): XNNPACK's
    strided reduction, computed 64 channels at a time (partial runs, several lines)."""
    shape = [b, h, w, c]
    x = (np.random.default_rng(seed).standard_normal(shape) + 3).astype(np.float32)
    oracle.check(mean_model(shape, [1, 2] if spatial else [0, 2], keep, np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(case=mean_case(), q=int8_quant(), seed=st.integers(0, 2**32 - 1))
def test_mean_int8(mode, case, q, seed):
    shape, axes, keep = case
    oracle.check(mean_model(shape, axes, keep, np.int8, *q), [int8_data(shape, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(case=mean_case(max_rank=4), q=int8_quant(), seed=st.integers(0, 2**32 - 1))
def test_mean_int8_computed_axes(mode, case, q, seed):
    shape, axes, keep = case
    model = mean_model(shape, axes, keep, np.int8, *q, packed=True)
    oracle.check(model, [int8_data(shape, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("channels", [7, 16, 40])
@pytest.mark.parametrize("packed", [False, True])
def test_mean_int8_spatial(mode, channels, packed):
    """The global average of classifier heads: 4-D, axes [1, 2], keep_dims. Computed axes
    take TFLite's optimized kernel: NEON rounding for blocks of 16 channels, scalar for
    the rest."""
    shape = [2, 7, 5, channels]
    model = mean_model(shape, [1, 2], True, np.int8, (0.07, -3), (0.031, 5), packed=packed)
    oracle.check(model, [int8_data(shape, 5)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_mean_int8_empty_axes(mode):
    """No axes: XNNPACK declines, the reference formula requantizes every element."""
    model = mean_model([3, 4], [], False, np.int8, (0.05, 1), (0.02, -2))
    oracle.check(model, [int8_data([3, 4], 6)], mode)


def test_mean_bad_axis():
    b = ModelBuilder()
    x = b.tensor("x", [2, 3], np.float32)
    ax = b.const("axes", np.array([2], np.int32))
    y = b.tensor("y", [2, 3], np.float32)
    b.op("MEAN", [x, ax], [y], keepDims=True)
    b.inputs([x])
    b.outputs([y])
    with prepare_error("axis 2 out of range"):
        oracle.run_ours(b.build(), [np.zeros([2, 3], np.float32)], "ref")


@tff_only
def test_mean_dynamic_axes_unsupported():
    b = ModelBuilder()
    x = b.tensor("x", [2, 3], np.float32)
    ax = b.tensor("axes", [1], np.int32)
    y = b.tensor("y", [2], np.float32)
    b.op("MEAN", [x, ax], [y], keepDims=False)
    b.inputs([x, ax])
    b.outputs([y])
    with prepare_error("axis tensor 1 is not constant; dynamic shapes"):
        oracle.run_ours(b.build(), [np.zeros([2, 3], np.float32), np.array([1], np.int32)], "ref")


# ---------------------------------------------------------------- SOFTMAX


def softmax_model(shape, beta, dtype, q_in=(None, None)):
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, *q_in)
    q_out = (1 / 256, -128) if dtype == np.int8 else (None, None)
    y = b.tensor("y", shape, dtype, *q_out)
    b.op("SOFTMAX", [x], [y], beta=beta)
    b.inputs([x])
    b.outputs([y])
    return b.build()


@st.composite
def softmax_shape(draw, max_depth=300):
    rank = draw(st.integers(1, 4))
    outer = [draw(st.integers(1, 3)) for _ in range(rank - 1)]
    return outer + [draw(st.integers(1, max_depth))]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shape=softmax_shape(), beta=st.sampled_from([1.0, 0.5, 2.0, 0.1]),
       seed=st.integers(0, 2**32 - 1))
def test_softmax_float(mode, shape, beta, seed):
    x = (np.random.default_rng(seed).standard_normal(shape) * 3).astype(np.float32)
    oracle.check(softmax_model(shape, beta, np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=50, deadline=None)
@given(shape=softmax_shape(), beta=st.sampled_from([1.0, 0.5, 2.0]),
       scale=st.floats(1e-3, 1.0), zp=st.integers(-128, 127), seed=st.integers(0, 2**32 - 1))
def test_softmax_int8(mode, shape, beta, scale, zp, seed):
    """Rows shorter than 512 and beta*scale*2^26 > 1: inside what LiteRT's reference runs."""
    model = softmax_model(shape, beta, np.int8, (scale, zp))
    oracle.check(model, [int8_data(shape, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_softmax_int8_large_scale(mode):
    """beta*scale*2^26 above 2^31-1: the reference caps the multiplier; only the row max
    survives the input radius."""
    model = softmax_model([4, 10], 1.0, np.int8, (100.0, 0))
    oracle.check(model, [int8_data([4, 10], 7)], mode)


def float_softmax_q(x, scale, zp, beta):
    v = (x.astype(np.float64) - zp) * scale * beta
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * 256 - 128


def assert_close_to_ideal(q, ideal):
    assert np.all(np.abs(q.astype(np.float64) - ideal) <= 1.0), np.abs(q - ideal).max()


@tff_only
@pytest.mark.parametrize("shape,scale,beta,fill", [
    ([1, 1000], 7.843332e-09, 1.0, "random"),  # mobilenet_v2_int8's classifier logits
    ([2, 10], 1.4901161e-08, 1.0, "random"),   # beta*scale*2^26 == 1 exactly
    ([2, 10], 0.1, 0.0, "random"),             # beta 0: SoftmaxOptions missing
    ([1, 1000], 0.1, 1.0, "zeros"),            # the exp sum of a row reaches 512
    ([3, 512], 0.05, 1.0, "zeros"),
])
def test_softmax_int8_where_litert_ref_aborts(shape, scale, beta, fill):
    """LiteRT's BUILTIN_REF aborts the process on these (QuantizeMultiplierGreaterThanOne
    check in prepare; the exponent check in invoke). tflite_fast's reference mode computes
    the formula's natural answer: within 1 LSB of the float ideal and of the default
    mode, which matches AUTO exactly."""
    x = int8_data(shape, 8) if fill == "random" else np.zeros(shape, np.int8)
    model = softmax_model(shape, beta, np.int8, (scale, 0))
    with pytest.raises(oracle.ChildCrashed):
        oracle.run_oracle_subprocess(model, [x], "ref")
    ours_ref = oracle.run_ours(model, [x], "ref")
    ours_default, _ = oracle.check(model, [x], "default")
    assert_close_to_ideal(ours_ref[0], float_softmax_q(x, scale, 0, beta))
    oracle.assert_outputs_match(ours_ref, ours_default, max_lsb=1)


def test_softmax_int8_bad_output_quantization():
    b = ModelBuilder()
    x = b.tensor("x", [1, 8], np.int8, 0.1, 0)
    y = b.tensor("y", [1, 8], np.int8, 1 / 128, 0)
    b.op("SOFTMAX", [x], [y], beta=1.0)
    b.inputs([x])
    b.outputs([y])
    with prepare_error("scale 1/256 and zero point -128"):
        oracle.run_ours(b.build(), [np.zeros([1, 8], np.int8)], "default")
