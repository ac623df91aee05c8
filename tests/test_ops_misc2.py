"""ARG_MAX, ARG_MIN, CUMSUM, TOPK_V2, WHERE, LOG_SOFTMAX and L2_NORMALIZATION against
ai_edge_litert in both numerics modes."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, tensor_type
from test_ops_reduce_softmax import prepare_error, tff_only


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


# ---------------------------------------------------------------- TOPK_V2


def topk_model(shape, k, dtype, idx_type=np.int32, k_type=np.int32, k_input=False):
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype)
    kt = b.tensor("k", [1], k_type) if k_input else b.const("k", np.array([k], k_type))
    oshape = shape[:-1] + [max(k, 0)]
    sig = shape[:-1] + [-1] if k_input else None
    v = b.tensor("values", oshape, dtype, shape_signature=sig)
    i = b.tensor("indices", oshape, idx_type, shape_signature=sig)
    b.op("TOPK_V2", [x, kt], [v, i])
    b.inputs([x, kt] if k_input else [x])
    b.outputs([v, i])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.int8, np.int16, np.int32, np.int64])
@settings(max_examples=8, deadline=None)
@given(case=shape_axis(), kf=st.floats(0, 1), k_input=st.booleans(),
       idx_type=st.sampled_from([np.int32, np.int16]), seed=st.integers(0, 2**32 - 1))
def test_topk(mode, dtype, case, kf, k_input, idx_type, seed):
    shape, _ = case
    k = int(round(kf * shape[-1]))
    if k_input:  # LiteRT's get_tensor fails on an empty dynamic output
        k = max(k, 1)
    rng = np.random.default_rng(seed)
    # few distinct values: ties, which keep the lower index first
    x = data(shape, dtype, rng, 0, 3) if np.dtype(dtype).kind in "iu" else \
        np.round(data(shape, dtype, rng)).astype(dtype)
    if dtype == np.float32 and x.size > 2:
        x.flat[::3] = np.nan  # NaN ranks below every number
    inputs = [x, np.array([k], np.int32)] if k_input else [x]
    oracle.check(topk_model(shape, k, dtype, idx_type, k_input=k_input), inputs, mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_topk_int16_k(mode):
    x = data([3, 7], np.float32, np.random.default_rng(3))
    oracle.check(topk_model([3, 7], 4, np.float32, k_type=np.int16), [x], mode)


def test_topk_k_too_large():
    with prepare_error("k = 8 is higher than the last dimension 7"):
        oracle.run_ours(topk_model([3, 7], 8, np.float32), [np.zeros([3, 7], np.float32)], "ref")


# ---------------------------------------------------------------- WHERE


def where_model(shape, dtype):
    b = ModelBuilder()
    c = b.tensor("cond", shape, dtype)
    y = b.tensor("y", [1, len(shape)], np.int64, shape_signature=[-1, len(shape)])
    b.op("WHERE", [c], [y])
    b.inputs([c])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.bool_, np.float32, np.int64, np.int32, np.int8, np.uint8,
                                   np.uint32])
@settings(max_examples=8, deadline=None)
@given(case=shape_axis(), density=st.floats(0, 1), seed=st.integers(0, 2**32 - 1))
def test_where(mode, dtype, case, density, seed):
    """Two invokes of one interpreter with different counts: the output is resized each
    time. Each condition has a true element (LiteRT's get_tensor fails on an empty
    dynamic output)."""
    shape, _ = case
    rng = np.random.default_rng(seed)
    model = where_model(shape, dtype)
    ours = oracle.make_interpreter(oracle.ours_module(), model, mode)
    ref = oracle.make_interpreter(oracle.oracle_module(), model, mode)
    for step in range(2):
        mask = rng.uniform(size=shape) < (density if step == 0 else 1 - density)
        mask.flat[rng.integers(mask.size)] = True
        if np.dtype(dtype).kind in "iu":
            x = (mask * data(shape, dtype, rng, 1, 3)).astype(dtype)
        else:
            x = (mask * -0.5).astype(dtype) if dtype == np.float32 else mask
        if dtype == np.float32 and not mask.flat[0]:
            x.flat[0] = -0.0  # negative zero is false
        oracle.assert_outputs_match(oracle.run_interpreter(ours, [x]),
                                    oracle.run_interpreter(ref, [x]), f"invoke {step}")


def test_where_rank0_refused():
    with prepare_error("rank > 0"):
        oracle.run_ours(where_model([], np.bool_), [np.array(True)], "ref")


# ---------------------------------------------------------------- LOG_SOFTMAX


def unary_model(op, shape, dtype, q_in=(None, None), q_out=(None, None), **options):
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, *q_in)
    y = b.tensor("y", shape, dtype, *q_out)
    b.op(op, [x], [y], **options)
    b.inputs([x])
    b.outputs([y])
    return b.build()


@st.composite
def any_shape(draw, min_rank=1, max_rank=6, max_last=40):
    rank = draw(st.integers(min_rank, max_rank))
    lead = [draw(st.integers(1, 4 if rank <= 4 else 2)) for _ in range(rank - 1)]
    return lead + [draw(st.integers(1, max_last))]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(shape=any_shape(), spread=st.floats(0.1, 20), seed=st.integers(0, 2**32 - 1))
def test_log_softmax_float(mode, shape, spread, seed):
    x = (np.random.default_rng(seed).standard_normal(shape) * spread).astype(np.float32)
    oracle.check(unary_model("LOG_SOFTMAX", shape, np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@settings(max_examples=40, deadline=None)
@given(shape=any_shape(max_last=300), s_in=st.floats(0.001, 1.0), zp=st.integers(-128, 127),
       seed=st.integers(0, 2**32 - 1))
def test_log_softmax_quant(mode, dtype, shape, s_in, zp, seed):
    out_zp = 127 if dtype == np.int8 else 255
    zp = zp if dtype == np.int8 else zp + 128
    model = unary_model("LOG_SOFTMAX", shape, dtype, (s_in, zp), (16.0 / 256, out_zp))
    oracle.check(model, [data(shape, dtype, np.random.default_rng(seed))], mode)


def test_log_softmax_bad_output_quant():
    model = unary_model("LOG_SOFTMAX", [2, 5], np.int8, (0.1, 0), (0.1, 127))
    with prepare_error("output needs scale 16/256 and zero point 127"):
        oracle.run_ours(model, [np.zeros([2, 5], np.int8)], "ref")


# ---------------------------------------------------------------- L2_NORMALIZATION


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=20, deadline=None)
@given(shape=any_shape(), seed=st.integers(0, 2**32 - 1))
def test_l2norm_float(mode, shape, seed):
    x = data(shape, np.float32, np.random.default_rng(seed))
    oracle.check(unary_model("L2_NORMALIZATION", shape, np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@settings(max_examples=30, deadline=None)
@given(shape=any_shape(max_last=300), s_in=st.floats(0.001, 10.0), zp=st.integers(-128, 127),
       spread=st.integers(0, 128), seed=st.integers(0, 2**32 - 1))
def test_l2norm_quant(mode, dtype, shape, s_in, zp, spread, seed):
    """Codes near the zero point too: tiny sums of squares (0 and 1 are special)."""
    off = 0 if dtype == np.int8 else 128
    zp += off
    lo, hi = max(zp - spread, -128 + off), min(zp + spread, 127 + off)
    x = data(shape, dtype, np.random.default_rng(seed), lo, hi)
    model = unary_model("L2_NORMALIZATION", shape, dtype, (s_in, zp), (1 / 128, off))
    oracle.check(model, [x], mode)


def test_l2norm_bad_output_quant():
    model = unary_model("L2_NORMALIZATION", [2, 5], np.int8, (0.1, 0), (0.1, 0))
    with prepare_error("output needs scale 1/128 and zero point 0"):
        oracle.run_ours(model, [np.zeros([2, 5], np.int8)], "ref")


# ---------------------------------------------------------------- COMPLEX_ABS, RFFT2D


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@settings(max_examples=10, deadline=None)
@given(shape=any_shape(min_rank=0), seed=st.integers(0, 2**32 - 1))
def test_complex_abs(mode, dtype, shape, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    b = ModelBuilder()
    xi = b.tensor("x", shape, dtype)
    y = b.tensor("y", shape, np.float32 if dtype == np.complex64 else np.float64)
    b.op("COMPLEX_ABS", [xi], [y])
    b.inputs([xi])
    b.outputs([y])
    oracle.check(b.build(), [x], mode)


def rfft2d_model(shape, fft_length):
    b = ModelBuilder()
    x = b.tensor("x", shape, np.float32)
    n = b.const("fft_length", np.array(fft_length, np.int32))
    y = b.tensor("y", shape[:-2] + [fft_length[0], fft_length[1] // 2 + 1], np.complex64)
    b.op("RFFT2D", [x, n], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=20, deadline=None)
@given(lead=st.lists(st.integers(1, 3), max_size=2), hw=st.tuples(st.integers(1, 20),
       st.integers(1, 20)), log_len=st.tuples(st.integers(1, 5), st.integers(1, 6)),
       seed=st.integers(0, 2**32 - 1))
def test_rfft2d(mode, lead, hw, log_len, seed):
    """Inputs cropped and zero-padded to fft_length (powers of two)."""
    shape = lead + list(hw)
    fft_length = [2 ** log_len[0], 2 ** log_len[1]]
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    oracle.check(rfft2d_model(shape, fft_length), [x], mode)


def test_rfft2d_not_power_of_two():
    with prepare_error("must be powers of two"):
        oracle.run_ours(rfft2d_model([4, 6], [4, 6]), [np.zeros([4, 6], np.float32)], "ref")


@tff_only
def test_rfft2d_too_large():
    with prepare_error("is too large"):
        oracle.run_ours(rfft2d_model([4, 6], [1 << 14, 1 << 12]), [np.zeros([4, 6], np.float32)],
                        "ref")
