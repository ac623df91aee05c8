"""Data-movement ops against ai_edge_litert in both numerics modes: EXPAND_DIMS, SQUEEZE,
BROADCAST_TO, TILE, REVERSE_V2, MIRROR_PAD, PADV2, UNPACK, GATHER_ND, EMBEDDING_LOOKUP,
RESIZE_NEAREST_NEIGHBOR, DEPTH_TO_SPACE, SPACE_TO_DEPTH, BATCH_TO_SPACE_ND,
SPACE_TO_BATCH_ND.

Each over every type TFLite's kernel moves and every rank it allows, with the
shape-determining input (axis, multiples, paddings, block shape, ...) a model constant
(output sized at prepare) and, where TFLite allows it, a graph input (dynamic output, sized
at invoke). AUTO hands some of these to XNNPACK (DEPTH_TO_SPACE, SPACE_TO_DEPTH,
EXPAND_DIMS); moved bytes are the same either way, which the default-mode runs check.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

IS_LITERT = oracle.ours_module() is oracle.oracle_module()
tff_only = pytest.mark.skipif(IS_LITERT, reason="tflite_fast's own messages")

DTYPES = [np.float32, np.int8, np.uint8, np.int16, np.int32, np.int64, np.bool_]
QUANT = {np.int8: (0.5, -3), np.uint8: (0.25, 7), np.int16: (0.125, 0)}
shapes = st.lists(st.integers(1, 4), min_size=1, max_size=5)


def values(shape, dtype, seed):
    details = [{"shape": shape, "dtype": dtype, "name": "x"}]
    return oracle.random_inputs(details, np.random.default_rng(seed))[0]


def build(op, x_shape, dtype, extra, out_shape, runtime=False, out_dtype=None, n_out=1,
          quant=None, version=1, **options):
    """Single-op model: x, then the `extra` (name, array) inputs, constants unless
    `runtime` (then graph inputs, and the outputs' shape signature is unknown). Returns the
    model and its input values after x."""
    quant = QUANT if quant is None else quant
    b = ModelBuilder()
    x = b.tensor("x", x_shape, dtype, *quant.get(dtype, (None, None)))
    ins, graph = [x], [x]
    for name, arr in extra:
        if runtime:
            ins.append(b.tensor(name, arr.shape, arr.dtype))
            graph.append(ins[-1])
        else:
            ins.append(b.const(name, arr))
    odt = out_dtype or dtype
    sig = [-1] * len(out_shape) if runtime else None
    ys = [b.tensor(f"y{i}", out_shape, odt, *quant.get(odt, (None, None)), shape_signature=sig)
          for i in range(n_out)]
    b.op(op, ins, ys, version=version, **options)
    b.inputs(graph)
    b.outputs(ys)
    return b.build(), [arr for _, arr in extra] if runtime else []


def run_both(model, inputs, mode, expect_shape=None):
    ours, _ = oracle.check(model, inputs, mode)
    if expect_shape is not None:
        assert list(ours[0].shape) == list(expect_shape)
    return ours


def rejected(model, inputs, message, mode="default"):
    """Both refuse (at allocate or invoke) with RuntimeError; ours names the problem."""
    for module in (oracle.ours_module(), oracle.oracle_module()):
        with pytest.raises((RuntimeError, ValueError)) as e:
            oracle.run_interpreter(oracle.make_interpreter(module, model, mode), inputs)
        if module is oracle.ours_module() and not IS_LITERT:
            assert message in str(e.value), str(e.value)


# ---------------------------------------------------------------- EXPAND_DIMS / SQUEEZE


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=0, max_size=7), dtype=st.sampled_from(DTYPES),
       data=st.data(), runtime=st.booleans(), itype=st.sampled_from([np.int32, np.int64]))
def test_expand_dims(mode, shape, dtype, data, runtime, itype):
    r = len(shape)
    axis = data.draw(st.integers(-r - 1, r))
    a = axis + r + 1 if axis < 0 else axis
    out = shape[:a] + [1] + shape[a:]
    model, extra = build("EXPAND_DIMS", shape, dtype, [("axis", np.array([axis], itype))], out,
                         runtime)
    run_both(model, [values(shape, dtype, a)] + extra, mode, out)


def test_expand_dims_bad_axis():
    model, extra = build("EXPAND_DIMS", [2, 3], np.float32, [("axis", np.array([3], np.int32))],
                         [2, 3, 1])
    rejected(model, [np.zeros([2, 3], np.float32)], "axis 3 is out of range for rank 2")
    model, extra = build("EXPAND_DIMS", [2, 3], np.float32, [("axis", np.array([-4], np.int32))],
                         [2, 3, 1], runtime=True)
    rejected(model, [np.zeros([2, 3], np.float32)] + extra, "axis -4 is out of range")


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=8), dtype=st.sampled_from(DTYPES),
       data=st.data())
def test_squeeze(mode, shape, dtype, data):
    ones = [i for i, d in enumerate(shape) if d == 1]
    picked = data.draw(st.lists(st.sampled_from(ones), unique=True) if ones else st.just([]))
    dims = [i - len(shape) if data.draw(st.booleans()) else i for i in picked]
    drop = set(picked) if picked else set(ones)
    out = [d for i, d in enumerate(shape) if i not in drop]
    model, _ = build("SQUEEZE", shape, dtype, [], out, squeezeDims=dims)
    run_both(model, [values(shape, dtype, len(dims))], mode, out)


def test_squeeze_bad_dim():
    model, _ = build("SQUEEZE", [2, 1], np.float32, [], [2], squeezeDims=[0])
    rejected(model, [np.zeros([2, 1], np.float32)], "squeeze_dims[0] = 0 is not a size-1 dim")


# ---------------------------------------------------------------- UNPACK / REVERSE_V2

UNPACK_DTYPES = [np.float32, np.int8, np.uint8, np.int16, np.int32, np.bool_]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(shape=shapes, dtype=st.sampled_from(UNPACK_DTYPES), data=st.data())
def test_unpack(mode, shape, dtype, data):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    a = axis % len(shape)
    out = shape[:a] + shape[a + 1:]
    model, _ = build("UNPACK", shape, dtype, [], out, n_out=shape[a], num=shape[a], axis=axis)
    run_both(model, [values(shape, dtype, a)], mode, out)


def test_unpack_num_mismatch():
    model, _ = build("UNPACK", [2, 3], np.float32, [], [2], n_out=2, num=2, axis=1)
    rejected(model, [np.zeros([2, 3], np.float32)], "num 2 differs from dimension 1 (3)")


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=8), dtype=st.sampled_from(DTYPES),
       data=st.data(), runtime=st.booleans())
def test_reverse_v2(mode, shape, dtype, data, runtime):
    r = len(shape)
    lo = data.draw(st.integers(0, r - 1))
    hi = data.draw(st.integers(lo, r - 1))
    axes = [a - r if data.draw(st.booleans()) else a for a in range(lo, hi + 1)]
    axes = data.draw(st.permutations(axes))
    model, extra = build("REVERSE_V2", shape, dtype, [("axis", np.array(axes, np.int32))], shape,
                         runtime)
    run_both(model, [values(shape, dtype, lo)] + extra, mode, shape)


def test_reverse_v2_non_contiguous():
    model, extra = build("REVERSE_V2", [2, 3, 4], np.float32, [("axis", np.array([0, 2], np.int32))],
                         [2, 3, 4])
    rejected(model, [np.zeros([2, 3, 4], np.float32)], "non-contiguous axes")


# ---------------------------------------------------------------- TILE / BROADCAST_TO


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 3), min_size=0, max_size=6), dtype=st.sampled_from(DTYPES),
       data=st.data(), runtime=st.booleans(), itype=st.sampled_from([np.int32, np.int64]))
def test_tile(mode, shape, dtype, data, runtime, itype):
    mult = data.draw(st.lists(st.integers(1, 3), min_size=len(shape),
                              max_size=len(shape)))
    out = [d * m for d, m in zip(shape, mult)]
    model, extra = build("TILE", shape, dtype, [("multiples", np.array(mult, itype))], out, runtime)
    run_both(model, [values(shape, dtype, len(shape))] + extra, mode, out)


def test_tile_constant_input():
    """Constant input and multiples: folded at prepare (TFLite does too)."""
    b = ModelBuilder()
    c = b.const("c", np.arange(6, dtype=np.int32).reshape(2, 3))
    x = b.tensor("x", [4, 6], np.int32)
    t = b.tensor("t", [4, 6], np.int32)
    y = b.tensor("y", [4, 6], np.int32)
    b.op("TILE", [c, b.const("m", np.array([2, 2], np.int32))], [t])
    b.op("ADD", [x, t], [y])
    b.inputs([x])
    b.outputs([y])
    for mode in oracle.MODES:
        run_both(b.build(), [values([4, 6], np.int32, 1) // 4], mode)


def test_tile_bad_multiples():
    model, extra = build("TILE", [2, 3], np.float32, [("m", np.array([1, -1], np.int32))], [2, 3],
                         runtime=True)
    rejected(model, [np.zeros([2, 3], np.float32)] + extra, "multiples[1] = -1")
    model, _ = build("TILE", [2, 3], np.float32, [("m", np.array([1, 2, 3], np.int32))], [2, 3])
    rejected(model, [np.zeros([2, 3], np.float32)], "3 multiples for an input of rank 2")


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(out=st.lists(st.integers(1, 3), min_size=0, max_size=8), dtype=st.sampled_from(DTYPES),
       data=st.data(), runtime=st.booleans(), itype=st.sampled_from([np.int32, np.int64]))
def test_broadcast_to(mode, out, dtype, data, runtime, itype):
    r = data.draw(st.integers(0, len(out)))
    shape = [d if data.draw(st.booleans()) else 1 for d in out[len(out) - r:]]
    model, extra = build("BROADCAST_TO", shape, dtype, [("shape", np.array(out, itype))], out,
                         runtime, version=2)
    run_both(model, [values(shape, dtype, r)] + extra, mode, out)


def test_broadcast_to_incompatible():
    model, extra = build("BROADCAST_TO", [2, 3], np.float32, [("s", np.array([4, 3], np.int32))],
                         [4, 3], runtime=True, version=2)
    rejected(model, [np.zeros([2, 3], np.float32)] + extra, "shape[0] = 4; the input dim there is 2")


# ---------------------------------------------------------------- MIRROR_PAD / PADV2


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=5), dtype=st.sampled_from(DTYPES),
       data=st.data(), runtime=st.booleans(), itype=st.sampled_from([np.int32, np.int64]),
       reflect=st.booleans())
def test_mirror_pad(mode, shape, dtype, data, runtime, itype, reflect):
    pads = [[data.draw(st.integers(0, d - reflect)) for _ in range(2)] for d in shape]
    out = [d + a + b for d, (a, b) in zip(shape, pads)]
    m = S.MirrorPadMode.REFLECT if reflect else S.MirrorPadMode.SYMMETRIC
    model, extra = build("MIRROR_PAD", shape, dtype, [("pads", np.array(pads, itype))], out,
                         runtime, mode=m)
    run_both(model, [values(shape, dtype, len(shape))] + extra, mode, out)


def test_mirror_pad_too_large():
    model, extra = build("MIRROR_PAD", [2, 3], np.float32, [("p", np.array([[0, 0], [3, 0]], np.int32))],
                         [2, 6], mode=S.MirrorPadMode.REFLECT)
    rejected(model, [np.zeros([2, 3], np.float32)], "paddings (3, 0) of dim 1 (size 3) must be in [0, 2]")


def padv2_model(shape, dtype, pads, value, runtime, op="PADV2"):
    b = ModelBuilder()
    q = QUANT.get(dtype, (None, None))
    x = b.tensor("x", shape, dtype, *q)
    p = b.tensor("p", [len(shape), 2], pads.dtype) if runtime else b.const("p", pads)
    ins = [x, p]
    if value is not None:
        ins.append(b.const("v", np.array(value, dtype), *q))
    out = [d + a + c for d, (a, c) in zip(shape, pads)]
    y = b.tensor("y", out, dtype, *q, shape_signature=[-1] * len(shape) if runtime else None)
    b.op(op, ins, [y])
    b.inputs([x, p] if runtime else [x])
    b.outputs([y])
    return b.build(), out


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), dtype=st.sampled_from(DTYPES),
       data=st.data(), runtime=st.booleans(), itype=st.sampled_from([np.int32, np.int64]),
       op=st.sampled_from(["PADV2", "PAD"]))
def test_padv2(mode, shape, dtype, data, runtime, itype, op):
    """PADV2 with its constant_values (a code of the output's quantization), and PAD and
    PADV2 with computed paddings (dynamic output)."""
    pads = np.array([[data.draw(st.integers(0, 2)) for _ in range(2)] for _ in shape], itype)
    value = None
    if op == "PADV2":
        value = values([], dtype, int(pads.sum()))
    model, out = padv2_model(shape, dtype, pads, value, runtime, op)
    xs = [values(shape, dtype, len(shape))] + ([pads] if runtime else [])
    run_both(model, xs, mode, out)


def test_padv2_value_quantization_differs():
    b = ModelBuilder()
    x = b.tensor("x", [2, 2], np.int8, 0.5, 1)
    v = b.const("v", np.array(3, np.int8), 0.25, 1)
    y = b.tensor("y", [4, 2], np.int8, 0.5, 1)
    b.op("PADV2", [x, b.const("p", np.array([[1, 1], [0, 0]], np.int32)), v], [y])
    b.inputs([x])
    b.outputs([y])
    rejected(b.build(), [np.zeros([2, 2], np.int8)], "pad value quantization differs")


# ---------------------------------------------------------------- DEPTH_TO_SPACE / SPACE_TO_DEPTH

SPACE_DTYPES = [np.float32, np.uint8, np.int8, np.int32, np.int64]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 2), h=st.integers(1, 3), w=st.integers(1, 3), c=st.integers(1, 3),
       bs=st.integers(1, 3), dtype=st.sampled_from(SPACE_DTYPES))
def test_depth_to_space(mode, n, h, w, c, bs, dtype):
    shape, out = [n, h, w, c * bs * bs], [n, h * bs, w * bs, c]
    model, _ = build("DEPTH_TO_SPACE", shape, dtype, [], out, blockSize=bs)
    run_both(model, [values(shape, dtype, bs)], mode, out)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 2), h=st.integers(1, 3), w=st.integers(1, 3), c=st.integers(1, 3),
       bs=st.integers(1, 3), dtype=st.sampled_from(SPACE_DTYPES))
def test_space_to_depth(mode, n, h, w, c, bs, dtype):
    shape, out = [n, h * bs, w * bs, c], [n, h, w, c * bs * bs]
    model, _ = build("SPACE_TO_DEPTH", shape, dtype, [], out, blockSize=bs)
    run_both(model, [values(shape, dtype, bs)], mode, out)


def test_space_depth_bad_block():
    model, _ = build("DEPTH_TO_SPACE", [1, 2, 2, 6], np.float32, [], [1, 4, 4, 1], blockSize=2)
    rejected(model, [np.zeros([1, 2, 2, 6], np.float32)], "6 channels do not split into blocks")
    model, _ = build("SPACE_TO_DEPTH", [1, 3, 4, 1], np.float32, [], [1, 1, 2, 4], blockSize=2)
    rejected(model, [np.zeros([1, 3, 4, 1], np.float32)], "3 x 4 pixels do not split")


# ---------------------------------------------------------------- GATHER_ND / EMBEDDING_LOOKUP


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=5), dtype=st.sampled_from(DTYPES),
       data=st.data(), itype=st.sampled_from([np.int16, np.int32, np.int64]),
       const=st.booleans())
def test_gather_nd(mode, shape, dtype, data, itype, const):
    nd = data.draw(st.integers(1, len(shape)))
    batch = data.draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    rng = np.random.default_rng(nd)
    idx = np.stack([rng.integers(0, d, size=batch) for d in shape[:nd]], axis=-1).astype(itype)
    out = batch + shape[nd:]
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, *QUANT.get(dtype, (None, None)))
    i = b.const("i", idx) if const else b.tensor("i", idx.shape, itype)
    y = b.tensor("y", out, dtype, *QUANT.get(dtype, (None, None)))
    b.op("GATHER_ND", [x, i], [y])
    b.inputs([x] if const else [x, i])
    b.outputs([y])
    run_both(b.build(), [values(shape, dtype, nd)] + ([] if const else [idx]), mode, out)


@pytest.mark.parametrize("bad", [3, -1])
def test_gather_nd_out_of_range(bad):
    b = ModelBuilder()
    x = b.tensor("x", [3, 2], np.float32)
    i = b.tensor("i", [2, 1], np.int32)
    y = b.tensor("y", [2, 2], np.float32)
    b.op("GATHER_ND", [x, i], [y])
    b.inputs([x, i])
    b.outputs([y])
    rejected(b.build(), [np.zeros([3, 2], np.float32), np.array([[0], [bad]], np.int32)],
             f"index {bad} is out of bounds [0, 3)")


def embedding_model(rows, cols, n, dtype, out_dtype, scale=None, runtime_value=False):
    b = ModelBuilder()
    lk = b.tensor("lookup", [n], np.int32)
    rng = np.random.default_rng(rows * 7 + n)
    table = values([rows] + cols, dtype, rows)
    q = QUANT.get(dtype, (None, None)) if scale is None else (scale, [0] * np.size(scale))
    if runtime_value:
        v = b.tensor("value", [rows] + cols, dtype, *q)
    else:
        v = b.const("value", table, *q)
    y = b.tensor("y", [n] + cols, out_dtype,
                 *(QUANT.get(out_dtype, (None, None)) if out_dtype == dtype else (None, None)))
    b.op("EMBEDDING_LOOKUP", [lk, v], [y])
    b.inputs([lk, v] if runtime_value else [lk])
    b.outputs([y])
    idx = rng.integers(0, rows, size=n).astype(np.int32)
    return b.build(), [idx, table] if runtime_value else [idx]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 5), cols=st.lists(st.integers(1, 4), min_size=1, max_size=3),
       n=st.integers(1, 6), dtype=st.sampled_from(DTYPES), runtime_value=st.booleans())
def test_embedding_lookup(mode, rows, cols, n, dtype, runtime_value):
    model, xs = embedding_model(rows, cols, n, dtype, dtype, runtime_value=runtime_value)
    run_both(model, xs, mode, [n] + cols)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=20, deadline=None)
@given(rows=st.integers(1, 5), cols=st.lists(st.integers(1, 4), min_size=1, max_size=2),
       n=st.integers(1, 6), dtype=st.sampled_from([np.int8, np.uint8]),
       per_row=st.booleans())
def test_embedding_lookup_hybrid(mode, rows, cols, n, dtype, per_row):
    """int8/uint8 table, float32 output: each code (read as int8) times its row's scale."""
    scale = list(np.linspace(0.01, 0.5, rows)) if per_row and rows > 1 else 0.037
    model, xs = embedding_model(rows, cols, n, dtype, np.float32, scale=scale)
    run_both(model, xs, mode, [n] + cols)


def test_embedding_lookup_out_of_range():
    model, _ = embedding_model(3, [2], 2, np.float32, np.float32)
    rejected(model, [np.array([0, 3], np.int32)], "index 3 is out of bounds [0, 3)")


# ---------------------------------------------------------------- RESIZE_NEAREST_NEIGHBOR

RESIZE_DTYPES = [np.float32, np.int8, np.uint8, np.int16, np.int32, np.bool_]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 2), h=st.integers(1, 9), w=st.integers(1, 9), c=st.integers(1, 3),
       oh=st.integers(1, 20), ow=st.integers(1, 20), dtype=st.sampled_from(RESIZE_DTYPES),
       align=st.booleans(), half=st.booleans(), runtime=st.booleans())
def test_resize_nearest_neighbor(mode, n, h, w, c, oh, ow, dtype, align, half, runtime):
    """Every flag combination (TFLite accepts both at once here); 1-byte types without
    flags take the optimized kernel's fixed-point indices in default mode."""
    shape, out = [n, h, w, c], [n, oh, ow, c]
    model, extra = build("RESIZE_NEAREST_NEIGHBOR", shape, dtype,
                         [("size", np.array([oh, ow], np.int32))], out, runtime,
                         alignCorners=align, halfPixelCenters=half)
    run_both(model, [values(shape, dtype, oh * ow)] + extra, mode, out)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_resize_nearest_neighbor_large_ratios(mode, dtype):
    """Scales where the 16.16 fixed-point index and the float one could part ways."""
    for h, oh in [(97, 13), (13, 97), (2, 82), (3, 100), (300, 7), (7, 300)]:
        model, _ = build("RESIZE_NEAREST_NEIGHBOR", [1, h, 3, 1], dtype,
                         [("size", np.array([oh, 5], np.int32))], [1, oh, 5, 1])
        run_both(model, [values([1, h, 3, 1], dtype, h)], mode, [1, oh, 5, 1])


def test_resize_nearest_neighbor_bad_size():
    model, extra = build("RESIZE_NEAREST_NEIGHBOR", [1, 2, 2, 1], np.float32,
                         [("size", np.array([0, 3], np.int32))], [1, 1, 3, 1])
    with pytest.raises(RuntimeError, match=None if IS_LITERT else "size 0 x 3 must be positive"):
        oracle.run_ours(model, [np.zeros([1, 2, 2, 1], np.float32)], "default")


# ---------------------------------------------------------------- SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND


@st.composite
def space_batch_case(draw):
    rank = draw(st.sampled_from([3, 4]))
    block = [draw(st.integers(1, 3)) for _ in range(rank - 2)]
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    # (padded) spatial sizes, multiples of the block, and (before, after) counts within them
    full = [b * draw(st.integers(1, 3)) for b in block]
    counts = [[draw(st.integers(0, 2)) for _ in range(2)] for _ in block]
    return rank, block, n, c, full, counts


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(case=space_batch_case(), dtype=st.sampled_from(DTYPES), runtime=st.booleans())
def test_space_to_batch_nd(mode, case, dtype, runtime):
    """Padding fills with the output zero point (int8/uint8) or 0."""
    rank, block, n, c, full, pads = case
    spatial = [f + b for f, b in zip(full, block)]  # h, w before padding, then pad to a multiple
    pads = [[p[0], (-(s + p[0])) % b] for s, p, b in zip(spatial, pads, block)]
    shape = [n] + spatial + [c]
    out = [n * int(np.prod(block))] + [(s + a + z) // b for s, (a, z), b in
                                       zip(spatial, pads, block)] + [c]
    model, extra = build("SPACE_TO_BATCH_ND", shape, dtype,
                         [("block", np.array(block, np.int32)), ("pads", np.array(pads, np.int32))],
                         out, runtime)
    run_both(model, [values(shape, dtype, n)] + extra, mode, out)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(case=space_batch_case(), dtype=st.sampled_from(DTYPES), runtime=st.booleans())
def test_batch_to_space_nd(mode, case, dtype, runtime):
    rank, block, n, c, full, crops = case
    crops = [[min(a, f // 2), min(z, f - f // 2 - 1)] for (a, z), f in zip(crops, full)]
    shape = [n * int(np.prod(block))] + [f // b for f, b in zip(full, block)] + [c]
    out = [n] + [f - a - z for f, (a, z) in zip(full, crops)] + [c]
    model, extra = build("BATCH_TO_SPACE_ND", shape, dtype,
                         [("block", np.array(block, np.int32)), ("crops", np.array(crops, np.int32))],
                         out, runtime)
    run_both(model, [values(shape, dtype, n)] + extra, mode, out)


def test_space_batch_bad_block():
    model, extra = build("BATCH_TO_SPACE_ND", [3, 2, 2, 1], np.float32,
                         [("block", np.array([2, 1], np.int32)),
                          ("crops", np.array([[0, 0], [0, 0]], np.int32))], [1, 4, 2, 1])
    rejected(model, [np.zeros([3, 2, 2, 1], np.float32)], "batch 3 is not a multiple of block 2 x 1")
    model, extra = build("SPACE_TO_BATCH_ND", [1, 3, 2, 1], np.float32,
                         [("block", np.array([2, 1], np.int32)),
                          ("pads", np.array([[0, 0], [0, 0]], np.int32))], [2, 1, 2, 1],
                         runtime=True)
    rejected(model, [np.zeros([1, 3, 2, 1], np.float32)] + extra,
             "padded 3 x 2 is not a multiple of block 2 x 1")


# ---------------------------------------------------------------- dynamic outputs downstream


@pytest.mark.parametrize("mode", oracle.MODES)
def test_dynamic_output_feeds_next_op_across_invokes(mode):
    """TILE with computed multiples -> ADD of a constant: the dynamic
    output is resized at each invoke and the op after it follows, on one interpreter."""
    b = ModelBuilder()
    x = b.tensor("x", [2, 3], np.float32)
    m = b.tensor("m", [2], np.int32)
    t = b.tensor("t", [2, 3], np.float32, shape_signature=[-1, -1])
    y = b.tensor("y", [2, 3], np.float32, shape_signature=[-1, -1])
    b.op("TILE", [x, m], [t])
    b.op("ADD", [t, b.const("one", np.array([1.0], np.float32))], [y])
    b.inputs([x, m])
    b.outputs([y])
    model = b.build()
    xv = values([2, 3], np.float32, 5)
    runs = {}
    for module in (oracle.ours_module(), oracle.oracle_module()):
        it = oracle.make_interpreter(module, model, mode)
        it.allocate_tensors()
        outs = []
        for mult in ([1, 1], [3, 2], [2, 1], [3, 2]):
            it.set_tensor(it.get_input_details()[0]["index"], xv)
            it.set_tensor(it.get_input_details()[1]["index"], np.array(mult, np.int32))
            it.invoke()
            outs.append(it.get_tensor(it.get_output_details()[0]["index"]))
        runs[module] = outs
    ours, ref = runs[oracle.ours_module()], runs[oracle.oracle_module()]
    for k, (o, r) in enumerate(zip(ours, ref)):
        oracle.assert_outputs_match([o], [r], context=f"invoke {k}")
    assert ours[1].shape == (6, 6)


@pytest.mark.parametrize("op", ["DEPTH_TO_SPACE", "SPACE_TO_DEPTH"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_space_depth_requantizing_output(op, dtype):
    """Output quantized unlike the input: reference mode copies the codes (TFLite's
    kernel does not look), default mode fails as AUTO does (XNNPACK takes the node and
    refuses it)."""
    shape, out = ([1, 2, 2, 4], [1, 4, 4, 1]) if op == "DEPTH_TO_SPACE" else ([1, 4, 4, 1], [1, 2, 2, 4])
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, 0.5, 1)
    y = b.tensor("y", out, dtype, 0.25, 1)
    b.op(op, [x], [y], blockSize=2)
    b.inputs([x])
    b.outputs([y])
    model = b.build()
    xv = values(shape, dtype, 2)
    run_both(model, [xv], "ref", out)
    rejected(model, [xv], "quantization differ", mode="default")
