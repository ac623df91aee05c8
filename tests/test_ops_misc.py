"""SPLIT, SPLIT_V, SLICE, GATHER, LESS, LOGICAL_AND and TANH against ai_edge_litert in both
numerics modes.

The data-movement ops (SPLIT, SPLIT_V, SLICE, GATHER) are checked over every type TFLite
gives them, with their shape inputs constant (shaped at prepare) and computed at run time
(dynamic outputs, shaped at invoke; the interpreter prepares the ops after them then).
LESS covers the quantized comparison, which rescales each input by its own scale, so
differently quantized inputs compare by real value. TANH's int8/uint8 tables follow
XNNPACK in default mode and TFLite's LUT in reference mode (docs/numerics.md §1.9).
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import oracle
from model_builder import ModelBuilder

# Tests of tflite_fast's own validation: skipped when TFF_TEST_IMPL=ai_edge_litert runs the
# suite against LiteRT (whose messages differ, or which does not check at all).
tff_only = pytest.mark.skipif(oracle.ours_module() is oracle.oracle_module(),
                              reason="checks tflite_fast's own validation and messages")

COPY_DTYPES = [np.float32, np.int8, np.uint8, np.int16, np.int32, np.int64]
QUANT = {np.int8: (0.5, -3), np.uint8: (0.25, 7), np.int16: (0.125, 0)}


def values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dt)


def activation(b, name, shape, dtype, shape_signature=None):
    return b.tensor(name, shape, dtype, *QUANT.get(dtype, (None, None)),
                    shape_signature=shape_signature)


shapes = st.lists(st.integers(1, 5), min_size=1, max_size=5)

# ---------------------------------------------------------------- SPLIT / SPLIT_V


@st.composite
def split_case(draw):
    shape = draw(shapes)
    axis = draw(st.integers(0, len(shape) - 1))
    n = draw(st.sampled_from([d for d in range(1, shape[axis] + 1) if shape[axis] % d == 0]))
    shape[axis] *= draw(st.integers(1, 2))  # sometimes a split of 2 per output
    neg = draw(st.booleans())
    return shape, axis, n, axis - len(shape) if neg else axis


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(case=split_case(), dtype=st.sampled_from(COPY_DTYPES), const_axis=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_split(mode, case, dtype, const_axis, seed):
    shape, axis, n, axis_value = case
    b = ModelBuilder()
    x = activation(b, "x", shape, dtype)
    out_shape = list(shape)
    out_shape[axis] //= n
    ys = [activation(b, f"y{i}", out_shape, dtype) for i in range(n)]
    a = (b.const("axis", np.array(axis_value, np.int32)) if const_axis
         else b.tensor("axis", [], np.int32))
    b.op("SPLIT", [a, x], ys, numSplits=n)
    b.inputs([x] if const_axis else [a, x])
    b.outputs(ys)
    xs = [values(shape, dtype, seed)]
    if not const_axis:
        xs = [np.array(axis_value, np.int32)] + xs
    oracle.check(b.build(), xs, mode)


@st.composite
def split_v_case(draw):
    shape = draw(shapes)
    axis = draw(st.integers(0, len(shape) - 1))
    n = draw(st.integers(1, 4))
    cuts = sorted(draw(st.lists(st.integers(0, shape[axis]), min_size=n - 1, max_size=n - 1)))
    sizes = np.diff([0] + cuts + [shape[axis]]).tolist()
    if draw(st.booleans()):
        sizes[draw(st.integers(0, n - 1))] = -1
    return shape, axis, sizes, draw(st.booleans())


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(case=split_v_case(), dtype=st.sampled_from(COPY_DTYPES),
       size_type=st.sampled_from([np.int32, np.int64]), seed=st.integers(0, 2**32 - 1))
def test_split_v(mode, case, dtype, size_type, seed):
    shape, axis, sizes, neg_axis = case
    known = sum(s for s in sizes if s >= 0)
    full = [shape[axis] - known if s == -1 else s for s in sizes]
    b = ModelBuilder()
    x = activation(b, "x", shape, dtype)
    ys = []
    for i, s in enumerate(full):
        out_shape = list(shape)
        out_shape[axis] = s
        ys.append(activation(b, f"y{i}", out_shape, dtype))
    ss = b.const("sizes", np.array(sizes, size_type))
    a = b.const("axis", np.array(axis - len(shape) if neg_axis else axis, np.int32))
    b.op("SPLIT_V", [x, ss, a], ys, numSplits=len(sizes))
    b.inputs([x])
    b.outputs(ys)
    # ai_edge_litert's get_tensor refuses empty outputs: only compare non-empty models.
    assume(all(s > 0 for s in full))
    oracle.check(b.build(), [values(shape, dtype, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_split_v_runtime_sizes(mode):
    """size_splits a graph input: the outputs are dynamic, shaped at invoke, and the ADD
    after them is prepared then."""
    b = ModelBuilder()
    x = b.tensor("x", [2, 7], np.float32)
    ss = b.tensor("sizes", [2], np.int32)
    a = b.const("axis", np.array(1, np.int32))
    y0 = b.tensor("y0", [2, 3], np.float32, shape_signature=[2, -1])
    y1 = b.tensor("y1", [2, 4], np.float32, shape_signature=[2, -1])
    b.op("SPLIT_V", [x, ss, a], [y0, y1], numSplits=2)
    z = b.tensor("z", [2, 3], np.float32, shape_signature=[2, -1])
    b.op("ADD", [y0, y0], [z])
    b.inputs([x, ss])
    b.outputs([z, y1])
    model = b.build()
    xv = values([2, 7], np.float32, 1)
    for sizes in ([3, 4], [5, -1]):
        ours, _ = oracle.check(model, [xv, np.array(sizes, np.int32)], mode)
    assert ours[0].shape == (2, 5) and ours[1].shape == (2, 2)


@tff_only
def test_split_rejects_uneven():
    b = ModelBuilder()
    x = b.tensor("x", [2, 5], np.float32)
    ys = [b.tensor(f"y{i}", [2, 2], np.float32) for i in range(2)]
    b.op("SPLIT", [b.const("axis", np.array(1, np.int32)), x], ys, numSplits=2)
    b.inputs([x])
    b.outputs(ys)
    with pytest.raises(RuntimeError, match="not an even split"):
        oracle.run_ours(b.build(), [np.zeros([2, 5], np.float32)], "default")


@tff_only
def test_split_v_rejects_bad_sizes():
    b = ModelBuilder()
    x = b.tensor("x", [2, 5], np.float32)
    ys = [b.tensor(f"y{i}", [2, 2], np.float32) for i in range(2)]
    b.op("SPLIT_V", [x, b.const("s", np.array([2, 2], np.int32)),
                     b.const("axis", np.array(1, np.int32))], ys, numSplits=2)
    b.inputs([x])
    b.outputs(ys)
    with pytest.raises(RuntimeError, match="sum to 4, dimension 1 is 5"):
        oracle.run_ours(b.build(), [np.zeros([2, 5], np.float32)], "default")


# ---------------------------------------------------------------- SLICE


@st.composite
def slice_case(draw):
    shape = draw(shapes)
    begin, size = [], []
    for d in shape:
        bgn = draw(st.integers(0, d - 1))
        begin.append(bgn)
        size.append(draw(st.sampled_from([-1, draw(st.integers(1, d - bgn))])))
    return shape, begin, size


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(case=slice_case(), dtype=st.sampled_from(COPY_DTYPES + [np.bool_]),
       index_type=st.sampled_from([np.int32, np.int64]), runtime=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_slice(mode, case, dtype, index_type, runtime, seed):
    """runtime: begin and size are graph inputs and the output's signature is unknown, so
    the output is dynamic (TFLite's rule) and shaped at invoke."""
    shape, begin, size = case
    out_shape = [d - bg if s == -1 else s for d, bg, s in zip(shape, begin, size)]
    b = ModelBuilder()
    x = activation(b, "x", shape, dtype)
    if runtime:
        bt = b.tensor("begin", [len(shape)], index_type)
        st_ = b.tensor("size", [len(shape)], index_type)
        y = activation(b, "y", [1] * len(shape), dtype, shape_signature=[-1] * len(shape))
    else:
        bt = b.const("begin", np.array(begin, index_type))
        st_ = b.const("size", np.array(size, index_type))
        y = activation(b, "y", out_shape, dtype)
    b.op("SLICE", [x, bt, st_], [y])
    b.inputs([x, bt, st_] if runtime else [x])
    b.outputs([y])
    xs = [values(shape, dtype, seed)]
    if runtime:
        xs += [np.array(begin, index_type), np.array(size, index_type)]
    ours, _ = oracle.check(b.build(), xs, mode)
    assert list(ours[0].shape) == out_shape


def runtime_begin_model():
    b = ModelBuilder()
    x = b.tensor("x", [4, 6], np.float32)
    bt = b.tensor("begin", [2], np.int32)
    y = b.tensor("y", [2, 3], np.float32)
    b.op("SLICE", [x, bt, b.const("size", np.array([2, 3], np.int32))], [y])
    b.inputs([x, bt])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
def test_slice_runtime_static_output(mode):
    """Computed bounds but a static output shape in the model: the output stays in the
    arena (TFLite keeps it too) and invoke checks the computed shape against it."""
    xv = values([4, 6], np.float32, 3)
    for begin in ([0, 0], [2, 3], [1, 2]):
        oracle.check(runtime_begin_model(), [xv, np.array(begin, np.int32)], mode)


@tff_only
def test_slice_runtime_bounds_checked():
    """Computed bounds outside the input: an invoke error, not an out-of-bounds read
    (TFLite does not check)."""
    xs = [np.zeros([4, 6], np.float32), np.array([5, 0], np.int32)]
    with pytest.raises(RuntimeError, match=r"begin\[0\] = 5 is outside \[0, 4\]"):
        oracle.run_ours(runtime_begin_model(), xs, "default")


@tff_only
def test_slice_rejects_out_of_range():
    b = ModelBuilder()
    x = b.tensor("x", [4, 6], np.float32)
    y = b.tensor("y", [3, 3], np.float32)
    b.op("SLICE", [x, b.const("b", np.array([2, 0], np.int32)),
                   b.const("s", np.array([3, 3], np.int32))], [y])
    b.inputs([x])
    b.outputs([y])
    with pytest.raises(RuntimeError, match=r"size\[0\] = 3 with begin 2 exceeds dimension 4"):
        oracle.run_ours(b.build(), [np.zeros([4, 6], np.float32)], "default")


# ---------------------------------------------------------------- GATHER


@st.composite
def gather_case(draw):
    shape = draw(shapes)
    axis = draw(st.integers(0, len(shape) - 1))
    batch_dims = draw(st.integers(0, axis))
    pos_shape = shape[:batch_dims] + draw(st.lists(st.integers(1, 4), min_size=0, max_size=2))
    return shape, axis, batch_dims, pos_shape, draw(st.booleans())


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(case=gather_case(), dtype=st.sampled_from(COPY_DTYPES + [np.bool_]),
       pos_type=st.sampled_from([np.int32, np.int64]), const_pos=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_gather(mode, case, dtype, pos_type, const_pos, seed):
    shape, axis, batch_dims, pos_shape, neg_axis = case
    rng = np.random.default_rng(seed)
    pos = rng.integers(0, shape[axis], size=pos_shape).astype(pos_type)
    out_shape = shape[:axis] + pos_shape[batch_dims:] + shape[axis + 1:]
    b = ModelBuilder()
    x = activation(b, "x", shape, dtype)
    p = b.const("pos", pos) if const_pos else b.tensor("pos", pos_shape, pos_type)
    y = activation(b, "y", out_shape, dtype)
    b.op("GATHER", [x, p], [y], axis=axis - len(shape) if neg_axis else axis,
         batchDims=batch_dims)
    b.inputs([x] if const_pos else [x, p])
    b.outputs([y])
    xs = [values(shape, dtype, seed)] + ([] if const_pos else [pos])
    oracle.check(b.build(), xs, mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_gather_constant_folded(mode):
    """Constant params and positions: computed at prepare (kTfLitePersistentRo)."""
    b = ModelBuilder()
    c = b.const("table", np.arange(12, dtype=np.float32).reshape(4, 3))
    g = b.tensor("g", [2, 3], np.float32)
    b.op("GATHER", [c, b.const("pos", np.array([3, 1], np.int32))], [g], axis=0)
    x = b.tensor("x", [2, 3], np.float32)
    y = b.tensor("y", [2, 3], np.float32)
    b.op("ADD", [x, g], [y])
    b.inputs([x])
    b.outputs([y])
    oracle.check(b.build(), [values([2, 3], np.float32, 0)], mode)


@tff_only
def test_gather_index_out_of_bounds():
    b = ModelBuilder()
    x = b.tensor("x", [4, 3], np.float32)
    p = b.tensor("pos", [2], np.int32)
    y = b.tensor("y", [2, 3], np.float32)
    b.op("GATHER", [x, p], [y], axis=0)
    b.inputs([x, p])
    b.outputs([y])
    xs = [np.zeros([4, 3], np.float32), np.array([1, 4], np.int32)]
    with pytest.raises(RuntimeError, match=r"index 4 is out of bounds \[0, 4\)"):
        oracle.run_ours(b.build(), xs, "default")
    xs[1] = np.array([-1, 0], np.int32)
    with pytest.raises(RuntimeError, match=r"index -1 is out of bounds"):
        oracle.run_ours(b.build(), xs, "default")


# ---------------------------------------------------------------- LESS / LOGICAL_AND


def broadcast_pair(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=0, max_size=4))
    other = [draw(st.sampled_from([d, 1])) for d in shape]
    other = other[draw(st.integers(0, len(other))):]  # maybe fewer dims
    return (shape, other) if draw(st.booleans()) else (other, shape)


@st.composite
def less_case(draw):
    a, b = broadcast_pair(draw)
    dtype = draw(st.sampled_from([np.float32, np.int32, np.int64, np.int16, np.int8, np.uint8]))
    quant = None
    if dtype in (np.int8, np.uint8):
        lo, hi = (-128, 127) if dtype == np.int8 else (0, 255)
        quant = [(draw(st.sampled_from([0.5, 0.25, 0.1, 0.0157, 0.75])),
                  draw(st.integers(lo, hi))) for _ in range(2)]
    return a, b, dtype, quant


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(case=less_case(), seed=st.integers(0, 2**32 - 1))
def test_less(mode, case, seed):
    sa, sb, dtype, quant = case
    out_shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
    bld = ModelBuilder()
    q = quant or [(None, None)] * 2
    a = bld.tensor("a", sa, dtype, *q[0])
    b = bld.tensor("b", sb, dtype, *q[1])
    y = bld.tensor("y", out_shape, np.bool_)
    bld.op("LESS", [a, b], [y])
    bld.inputs([a, b])
    bld.outputs([y])
    xa, xb = values(sa, dtype, seed), values(sb, dtype, seed + 1)
    if dtype not in (np.int8, np.uint8):  # make equal values likely
        xb = np.where(values(sb, np.bool_, seed + 2), np.resize(xa, xb.shape), xb).astype(dtype)
    oracle.check(bld.build(), [xa, xb], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_less_quantized_compares_real_values(mode):
    """a = 0.5·(qa − 2), b = 0.25·(qb + 4): equal reals must not compare less."""
    bld = ModelBuilder()
    a = bld.tensor("a", [256], np.int8, 0.5, 2)
    b = bld.tensor("b", [256], np.int8, 0.25, -4)
    y = bld.tensor("y", [256], np.bool_)
    bld.op("LESS", [a, b], [y])
    bld.inputs([a, b])
    bld.outputs([y])
    qa = np.arange(-128, 128).astype(np.int8)
    qb = np.clip(2 * (qa.astype(np.int32) - 2) - 4 + np.arange(256) % 3 - 1, -128, 127)
    ours, _ = oracle.check(bld.build(), [qa, qb.astype(np.int8)], mode)
    real_a, real_b = 0.5 * (qa.astype(float) - 2), 0.25 * (qb + 4.0)
    np.testing.assert_array_equal(ours[0], real_a < real_b)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=15, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_logical_and(mode, data, seed):
    sa, sb = broadcast_pair(data.draw)
    out_shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
    bld = ModelBuilder()
    a = bld.tensor("a", sa, np.bool_)
    b = bld.tensor("b", sb, np.bool_)
    y = bld.tensor("y", out_shape, np.bool_)
    bld.op("LOGICAL_AND", [a, b], [y])
    bld.inputs([a, b])
    bld.outputs([y])
    oracle.check(bld.build(), [values(sa, np.bool_, seed), values(sb, np.bool_, seed + 1)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_less_logical_and_constant_folded(mode):
    """Constant inputs: both ops run at prepare."""
    bld = ModelBuilder()
    c = bld.tensor("c", [3], np.bool_)
    bld.op("LESS", [bld.const("p", np.array([1, 5, 3], np.int32)),
                    bld.const("q", np.array([2, 5, 1], np.int32))], [c])
    x = bld.tensor("x", [3], np.bool_)
    y = bld.tensor("y", [3], np.bool_)
    bld.op("LOGICAL_AND", [x, c], [y])
    bld.inputs([x])
    bld.outputs([y])
    ours, _ = oracle.check(bld.build(), [np.array([True, True, False])], mode)
    assert ours[0].tolist() == [True, False, False]


# ---------------------------------------------------------------- TANH


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(dtype=st.sampled_from([np.float32, np.int8, np.uint8]),
       in_scale=st.sampled_from([0.01, 0.02, 0.05, 0.1, 0.3, 1 / 32]),
       in_zp=st.integers(-20, 20), out_q=st.sampled_from(["canonical", "other"]),
       shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_tanh(mode, dtype, in_scale, in_zp, out_q, shape, seed):
    """int8 output (1/128, 0) is what the converter emits; "other" output quantization is
    allowed by TFLite's LUT too."""
    b = ModelBuilder()
    if dtype == np.float32:
        x = b.tensor("x", shape, dtype)
        y = b.tensor("y", shape, dtype)
        xv = (3 * values(shape, dtype, seed)).astype(np.float32)
    else:
        off = 128 if dtype == np.uint8 else 0
        x = b.tensor("x", shape, dtype, in_scale, in_zp + off)
        oq = (1 / 128, off) if out_q == "canonical" else (1 / 100, off - 5)
        y = b.tensor("y", shape, dtype, *oq)
        xv = values(shape, dtype, seed)
    b.op("TANH", [x], [y])
    b.inputs([x])
    b.outputs([y])
    oracle.check(b.build(), [xv], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_tanh_every_code(mode, dtype):
    """All 256 codes through the table, for a few quantizations."""
    off = 128 if dtype == np.uint8 else 0
    codes = np.arange(256).astype(np.uint8).view(np.int8 if dtype == np.int8 else np.uint8)
    for in_scale, in_zp in [(0.0235, 3), (0.06, -7), (0.125, 0), (0.0039, 11)]:
        b = ModelBuilder()
        x = b.tensor("x", [256], dtype, in_scale, in_zp + off)
        y = b.tensor("y", [256], dtype, 1 / 128, off)
        b.op("TANH", [x], [y])
        b.inputs([x])
        b.outputs([y])
        oracle.check(b.build(), [codes.astype(dtype)], mode)
