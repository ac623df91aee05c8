"""SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_PROD against ai_edge_litert in both numerics modes.

Axes are drawn with negative and repeated entries, over ranks 0 to 6, keep_dims both
ways. Quantized SUM runs XNNPACK's formula when AUTO delegates it (model-constant axes,
int8/uint8), TFLite's optimized formula when the axes are computed by another op (PACK,
which tflite_fast computes at prepare and LiteRT does not) and for int16, and the
reference formula in 'ref'.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder

from test_ops_reduce_softmax import IS_LITERT, prepare_error, reduce_model


@st.composite
def reduce_case(draw, max_rank=6, min_axes=1):
    rank = draw(st.integers(0, max_rank))
    if rank == 0:
        return [], [0], draw(st.booleans())
    shape = [draw(st.integers(1, 5 if rank <= 4 else 3)) for _ in range(rank)]
    axes = draw(st.lists(st.integers(-rank, rank - 1), min_size=min_axes, max_size=rank + 1))
    return shape, axes, draw(st.booleans())


def data(shape, dtype, seed, lo=None, hi=None):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dt.kind == "f":
        if lo is not None:
            return rng.uniform(lo, hi, size=shape).astype(dt)
        return (rng.standard_normal(shape) + 3).astype(dt)
    info = np.iinfo(dt)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return rng.integers(lo, hi, size=shape, endpoint=True, dtype=dt)


QTYPES = {np.int8: (-128, 127), np.uint8: (0, 255), np.int16: (-32768, 32767)}


@st.composite
def quant(draw, dtype, same=False, ratio=(0.05, 40.0)):
    s_in = draw(st.floats(1e-3, 10.0))
    lo, hi = QTYPES[dtype]
    zp = (lambda: 0) if dtype == np.int16 else (lambda: draw(st.integers(lo, hi)))
    q_in = (s_in, zp())
    if same:
        return q_in, q_in
    return q_in, (s_in * draw(st.floats(*ratio)), zp())


# ---------------------------------------------------------------- SUM


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
@settings(max_examples=20, deadline=None)
@given(case=reduce_case(), seed=st.integers(0, 2**32 - 1))
def test_sum_plain(mode, dtype, case, seed):
    shape, axes, keep = case
    oracle.check(reduce_model("SUM", shape, axes, keep, dtype), [data(shape, dtype, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("packed", [False, True])
@settings(max_examples=20, deadline=None)
@given(data_=st.data(), case=reduce_case(), seed=st.integers(0, 2**32 - 1))
def test_sum_quant8(mode, dtype, packed, data_, case, seed):
    shape, axes, keep = case
    if packed and not shape:
        packed = False
    q_in, q_out = data_.draw(quant(dtype))
    model = reduce_model("SUM", shape, axes, keep, dtype, q_in, q_out, packed=packed)
    oracle.check(model, [data(shape, dtype, seed)], mode)


@settings(max_examples=25, deadline=None)
@given(data_=st.data(), case=reduce_case(), seed=st.integers(0, 2**32 - 1))
def test_sum_int16(data_, case, seed):
    shape, axes, keep = case
    q_in, q_out = data_.draw(quant(np.int16))
    model = reduce_model("SUM", shape, axes, keep, np.int16, q_in, q_out)
    oracle.check(model, [data(shape, np.int16, seed)], "default")


def test_sum_int16_ref_refused():
    """TFLite's reference SUM reads int16 tensors as uint8: no defined result to match."""
    model = reduce_model("SUM", [2, 3], [1], False, np.int16, (0.1, 0), (0.2, 0))
    with prepare_error("int16 is not supported in reference numerics"):
        oracle.run_ours(model, [np.zeros([2, 3], np.int16)], "ref")


@pytest.mark.parametrize("mode", oracle.MODES)
def test_sum_empty_axes(mode):
    """No axes: XNNPACK declines; every element is requantized on its own."""
    model = reduce_model("SUM", [3, 4], [], False, np.int8, (0.05, 1), (0.02, -2))
    oracle.check(model, [data([3, 4], np.int8, 6)], mode)


# ---------------------------------------------------------------- REDUCE_MAX / MIN

MINMAX_TYPES = [np.float32, np.int32, np.int64, np.int8, np.uint8, np.int16]


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["REDUCE_MAX", "REDUCE_MIN"])
@pytest.mark.parametrize("dtype", MINMAX_TYPES)
@settings(max_examples=10, deadline=None)
@given(data_=st.data(), case=reduce_case(), packed=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_minmax(mode, op, dtype, data_, case, packed, seed):
    shape, axes, keep = case
    q = data_.draw(quant(dtype, same=True)) if dtype in QTYPES else ((None, None),) * 2
    model = reduce_model(op, shape, axes, keep, dtype, *q, packed=packed and bool(shape))
    oracle.check(model, [data(shape, dtype, seed)], mode)


@pytest.mark.parametrize("op", ["REDUCE_MAX", "REDUCE_MIN", "SUM", "REDUCE_PROD"])
@settings(max_examples=10, deadline=None)
@given(case=reduce_case(), seed=st.integers(0, 2**32 - 1))
def test_bool_ref(op, case, seed):
    """bool: MAX and SUM are any, MIN and PROD all; TFLite's optimized kernels fail on
    bool, so only 'ref' runs them."""
    shape, axes, keep = case
    model = reduce_model(op, shape, axes, keep, np.bool_)
    oracle.check(model, [data(shape, np.bool_, seed)], "ref")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_max_xnn_ignores_quantization(dtype):
    """AUTO's XNNPACK compares codes even when the output quantization differs."""
    lo, hi = QTYPES[dtype]
    model = reduce_model("REDUCE_MAX", [2, 3, 4], [1, -1], True, dtype, (0.1, lo + 2),
                         (0.3, hi - 5))
    oracle.check(model, [data([2, 3, 4], dtype, 1)], "default")


def test_max_quantization_mismatch_refused():
    model = reduce_model("REDUCE_MAX", [2, 3], [1], False, np.int8, (0.1, 2), (0.2, 3))
    with prepare_error("output quantization"):
        oracle.run_ours(model, [np.zeros([2, 3], np.int8)], "ref")


@pytest.mark.parametrize("op", ["REDUCE_MAX", "REDUCE_MIN", "SUM", "REDUCE_PROD"])
def test_bool_default_refused(op):
    model = reduce_model(op, [2, 3], [1], False, np.bool_)
    with pytest.raises(RuntimeError, match=None if IS_LITERT else "reference numerics only"):
        oracle.run_ours(model, [np.zeros([2, 3], np.bool_)], "default")


# ---------------------------------------------------------------- REDUCE_PROD


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.int8, np.uint8, np.int16])
@settings(max_examples=10, deadline=None)
@given(case=reduce_case(), seed=st.integers(0, 2**32 - 1))
def test_prod_plain(mode, dtype, case, seed):
    shape, axes, keep = case
    x = data(shape, dtype, seed, *((0.5, 1.6) if dtype == np.float32 else (None, None)))
    oracle.check(reduce_model("REDUCE_PROD", shape, axes, keep, dtype), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.int16])
@settings(max_examples=20, deadline=None)
@given(case=reduce_case(), s_in=st.floats(0.004, 0.05), s_out=st.floats(0.004, 0.1),
       zp=st.integers(-20, 20), seed=st.integers(0, 2**32 - 1))
def test_prod_quant(mode, dtype, case, s_in, s_out, zp, seed):
    shape, axes, keep = case
    if dtype == np.int16:  # int16 zero points are 0; values around ±1
        q_in, q_out, x = (s_in / 256, 0), (s_out / 256, 0), data(shape, dtype, seed, -300, 300)
    else:
        q_in, q_out, x = (s_in, zp), (s_out, -zp), data(shape, dtype, seed)
    model = reduce_model("REDUCE_PROD", shape, axes, keep, dtype, q_in, q_out)
    oracle.check(model, [x], mode)


def test_prod_quant_uint8_refused():
    model = reduce_model("REDUCE_PROD", [2, 3], [1], False, np.uint8, (0.1, 2), (0.2, 3))
    with prepare_error("quantized type UINT8 not supported"):
        oracle.run_ours(model, [np.zeros([2, 3], np.uint8)], "ref")


# ---------------------------------------------------------------- bad axes


@pytest.mark.parametrize("op", ["SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD"])
@pytest.mark.parametrize("axis", [2, -3, 7])
def test_bad_axis(op, axis):
    b = ModelBuilder()
    x = b.tensor("x", [2, 3], np.float32)
    ax = b.const("axes", np.array([0, axis], np.int32))
    y = b.tensor("y", [3], np.float32)
    b.op(op, [x, ax], [y], keepDims=False)
    b.inputs([x])
    b.outputs([y])
    with prepare_error(f"axis {axis} out of range"):
        oracle.run_ours(b.build(), [np.zeros([2, 3], np.float32)], "ref")
