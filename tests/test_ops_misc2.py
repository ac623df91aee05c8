"""ARG_MAX, ARG_MIN, CUMSUM, TOPK_V2, WHERE, LOG_SOFTMAX and L2_NORMALIZATION against
ai_edge_litert in both numerics modes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, tensor_type
from test_ops_reduce_softmax import prepare_error


def data(shape, dtype, rng, lo=None, hi=None):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    info = np.iinfo(dt)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return rng.integers(lo, hi, size=shape, endpoint=True, dtype=dt)


@st.composite
def shape_axis(draw, min_rank=1, max_rank=6):
    rank = draw(st.integers(min_rank, max_rank))
    shape = [draw(st.integers(1, 5 if rank <= 4 else 3)) for _ in range(rank)]
    return shape, draw(st.integers(-rank, rank - 1))


# ---------------------------------------------------------------- ARG_MAX / ARG_MIN


def arg_model(op, shape, axis, dtype, out_type, axis_type=np.int32, q=(None, None)):
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, *q)
    ax = b.const("axis", np.array([axis], axis_type))
    a = axis % len(shape)
    y = b.tensor("y", [d for i, d in enumerate(shape) if i != a], out_type)
    b.op(op, [x, ax], [y], outputType=tensor_type(out_type))
    b.inputs([x])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["ARG_MAX", "ARG_MIN"])
@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.int8, np.int32, np.bool_])
@settings(max_examples=8, deadline=None)
@given(case=shape_axis(), out_type=st.sampled_from([np.int32, np.int64]),
       axis_type=st.sampled_from([np.int32, np.int64]), seed=st.integers(0, 2**32 - 1))
def test_arg_min_max(mode, op, dtype, case, out_type, axis_type, seed):
    shape, axis = case
    rng = np.random.default_rng(seed)
    # few distinct values: ties, which must resolve to the first index
    x = data(shape, dtype, rng, 0, 3) if np.dtype(dtype).kind in "iu" else data(shape, dtype, rng)
    if dtype == np.float32:
        x = np.round(x).astype(np.float32)
    q = (0.5, 3) if dtype in (np.int8, np.uint8) else (None, None)
    oracle.check(arg_model(op, shape, axis, dtype, out_type, axis_type, q), [x], mode)


@pytest.mark.parametrize("axis", [2, -3])
def test_arg_max_bad_axis(axis):
    b = ModelBuilder()
    x = b.tensor("x", [2, 3], np.float32)
    ax = b.const("axis", np.array([axis], np.int32))
    y = b.tensor("y", [2], np.int32)
    b.op("ARG_MAX", [x, ax], [y], outputType=tensor_type(np.int32))
    b.inputs([x])
    b.outputs([y])
    with prepare_error(f"axis {axis} out of range"):
        oracle.run_ours(b.build(), [np.zeros([2, 3], np.float32)], "ref")


# ---------------------------------------------------------------- CUMSUM


def cumsum_model(shape, axis, dtype, exclusive, reverse):
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype)
    ax = b.const("axis", np.array(axis, np.int32))
    y = b.tensor("y", shape, dtype)
    b.op("CUMSUM", [x, ax], [y], exclusive=exclusive, reverse=reverse)
    b.inputs([x])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
@settings(max_examples=15, deadline=None)
@given(case=shape_axis(), exclusive=st.booleans(), reverse=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_cumsum(mode, dtype, case, exclusive, reverse, seed):
    shape, axis = case
    x = data(shape, dtype, np.random.default_rng(seed))
    if dtype == np.float32:
        x += 3  # off-centre: no cancellation to near zero
    oracle.check(cumsum_model(shape, axis, dtype, exclusive, reverse), [x], mode)


def test_cumsum_bad_axis():
    with prepare_error("axis -3 out of range"):
        oracle.run_ours(cumsum_model([2, 3], -3, np.float32, False, False),
                        [np.zeros([2, 3], np.float32)], "ref")
