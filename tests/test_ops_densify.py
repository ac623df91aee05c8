"""DENSIFY (sparse weights) against ai_edge_litert in both numerics modes.

Hypothesis draws dense weights with random zeros, encodes them in TFLite's sparsity format
(a traversal order, DENSE or SPARSE_CSR levels with int32/uint16/uint8 index vectors,
optionally 1x4 or 4x1 blocks) and feeds DENSIFY's output to FULLY_CONNECTED or CONV_2D,
float32 and int8, as converters emit for pruned models. The DENSIFY output alone is checked
too. Malformed sparsity must be refused cleanly, at load or at prepare.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder

tff_only = pytest.mark.skipif(oracle.ours_module() is oracle.oracle_module(),
                              reason="checks tflite_fast's own validation and messages")


def encode(dense, order, csr_levels, block_map=(), block_sizes=()):
    """TFLite's sparse encoding of `dense`: levels follow `order` (tensor dims, then block
    dims); levels listed in csr_levels are SPARSE_CSR and keep only the indices whose
    sub-block has a non-zero. Returns (values, dim_metadata without index dtypes)."""
    rank = dense.ndim
    shape, axes = [], [[] for _ in range(rank)]
    for d in range(rank):
        if d in block_map:
            bs = block_sizes[list(block_map).index(d)]
            axes[d] = [len(shape), len(shape) + 1]
            shape += [dense.shape[d] // bs, bs]
        else:
            axes[d] = [len(shape)]
            shape.append(dense.shape[d])
    split = dense.reshape(shape)
    # Axes of `split` for tensor dims 0..rank-1 (outer parts) then block dims.
    expanded = split.transpose([a[0] for a in axes] + [axes[d][1] for d in block_map])
    levels = expanded.transpose(order)
    nodes, metadata = [()], []
    for level, size in enumerate(levels.shape):
        if level not in csr_levels:
            nodes = [p + (i,) for p in nodes for i in range(size)]
            metadata.append(size)
            continue
        segments, indices, kept = [0], [], []
        for p in nodes:
            for i in range(size):
                if np.any(levels[p + (i,)] != 0):
                    kept.append(p + (i,))
                    indices.append(i)
            segments.append(len(kept))
        nodes = kept
        metadata.append((segments, indices))
    return np.array([levels[p] for p in nodes], dtype=dense.dtype), metadata


def with_index_types(metadata, draw):
    """Gives each CSR level an index vector type wide enough for its values."""
    out = []
    for level in metadata:
        if isinstance(level, int):
            out.append(level)
            continue
        top = max(level[0] + level[1] + [0])
        fits = [t for t in (np.int32, np.uint16, np.uint8) if top <= np.iinfo(t).max]
        out.append((level[0], level[1], draw(st.sampled_from(fits))))
    return out


def pruned(rng, shape, dtype, density, blocks=None):
    """Random weights with about 1 - density of them (or of their blocks) zero."""
    if dtype == np.int8:
        w = rng.integers(-127, 128, shape).astype(np.int8)
    else:
        w = (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)
    keep = rng.random(shape) < density
    if blocks is not None:  # zero whole blocks of `blocks` shape
        coarse = rng.random([s // b for s, b in zip(shape, blocks)]) < density
        for ax, bsz in enumerate(blocks):
            coarse = np.repeat(coarse, bsz, axis=ax)
        keep = coarse
    return np.where(keep, w, np.zeros_like(w))


# (traversal order, CSR levels, block_map, block sizes) for 2-D [n, k] weights.
LAYOUTS_2D = [
    ([0, 1], {1}, (), ()),
    ([0, 1], {0, 1}, (), ()),
    ([0, 1], {0}, (), ()),
    ([1, 0], {1}, (), ()),
    ([0, 1, 2], {1}, (1,), (4,)),       # 1x4 blocks along k
    ([0, 1, 2], {0, 1}, (0,), (4,)),    # 4x1 blocks along n
    ([1, 0, 2], {1}, (1,), (2,)),
]
# For 4-D [O, H, W, I] conv filters.
LAYOUTS_4D = [
    ([0, 1, 2, 3], {3}, (), ()),
    ([0, 1, 2, 3], {1, 3}, (), ()),
    ([0, 1, 2, 3, 4], {3}, (3,), (4,)),
    ([0, 1, 2, 3, 4], {0}, (0,), (4,)),
]


def sparse_weights(b, rng, draw, dense, layout, dtype, scales, as_dense=False):
    """DENSIFY of `dense` encoded as `layout`, or (as_dense) the same weights as a plain
    constant."""
    quant = {} if dtype == np.float32 else dict(scale=scales, zero_point=[0] * len(scales))
    if as_dense:
        return b.const("w", dense, **quant)
    order, csr, block_map, block_sizes = layout
    values, metadata = encode(dense, order, csr, block_map, block_sizes)
    ws = b.sparse_const("w_sparse", dense.shape, values, order, with_index_types(metadata, draw),
                        block_map=list(block_map) if block_map else None, **quant)
    w = b.tensor("w", dense.shape, dtype, **quant)
    b.op("DENSIFY", [ws], [w])
    return w


def block_shape(rank, layout):
    blocks = [1] * rank
    for d, s in zip(layout[2], layout[3]):
        blocks[d] = s
    return blocks


def check_both(build, dtype):
    """Both modes. ai_edge_litert's default interpreter cannot run int8 DENSIFY -> FC/CONV
    (XNNPACK claims the node, then fails to prepare it), so in default mode our int8 result
    is compared with its answer for the same weights stored dense."""
    model, inputs = build(False)
    oracle.check(model, inputs, "ref")
    if dtype == np.float32:
        oracle.check(model, inputs, "default")
    elif oracle.ours_module() is not oracle.oracle_module():  # LiteRT fails here, see above
        ours = oracle.run_ours(model, inputs, "default")
        ref = oracle.run_oracle(build(True)[0], inputs, "default")
        oracle.assert_outputs_match(ours, ref, context="mode=default, dense weights")


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from([np.float32, np.int8]), layout=st.sampled_from(LAYOUTS_2D),
       n4=st.integers(1, 6), k4=st.integers(1, 10), batch=st.integers(1, 3),
       density=st.sampled_from([0.0, 0.3, 0.7, 1.0]), data=st.data(),
       seed=st.integers(0, 2**32 - 1))
def test_densify_fully_connected(dtype, layout, n4, k4, batch, density, data, seed):
    n, k = 4 * n4, 4 * k4

    def build(as_dense):
        return fc_model(dtype, layout, n, k, batch, density, seed, data.draw, as_dense)

    check_both(build, dtype)


def fc_model(dtype, layout, n, k, batch, density, seed, draw, as_dense):
    rng = np.random.default_rng(seed)
    dense = pruned(rng, [n, k], dtype, density, block_shape(2, layout))
    b = ModelBuilder()
    if dtype == np.int8:
        sw = (10.0 ** rng.uniform(-3, -1, n)).astype(np.float32)
        x = b.tensor("x", [batch, k], np.int8, scale=0.05, zero_point=3)
        y = b.tensor("y", [batch, n], np.int8, scale=float(0.05 * np.median(sw) * k), zero_point=-2)
        inputs = [rng.integers(-128, 128, [batch, k]).astype(np.int8)]
    else:
        sw = None
        x, y = b.tensor("x", [batch, k], np.float32), b.tensor("y", [batch, n], np.float32)
        inputs = [rng.standard_normal([batch, k]).astype(np.float32)]
    w = sparse_weights(b, rng, draw, dense, layout, dtype, sw, as_dense)
    b.op("FULLY_CONNECTED", [x, w, -1], [y], version=5 if dtype == np.int8 else 1)
    b.inputs([x])
    b.outputs([y])
    return b.build(), inputs


@settings(max_examples=25, deadline=None)
@given(dtype=st.sampled_from([np.float32, np.int8]), layout=st.sampled_from(LAYOUTS_4D),
       o4=st.integers(1, 3), kh=st.integers(1, 3), kw=st.integers(1, 3), i4=st.integers(1, 3),
       density=st.sampled_from([0.0, 0.4, 1.0]), data=st.data(),
       seed=st.integers(0, 2**32 - 1))
def test_densify_conv_2d(dtype, layout, o4, kh, kw, i4, density, data, seed):
    def build(as_dense):
        return conv_model(dtype, layout, o4, kh, kw, i4, density, seed, data.draw, as_dense)

    check_both(build, dtype)


def conv_model(dtype, layout, o4, kh, kw, i4, density, seed, draw, as_dense):
    rng = np.random.default_rng(seed)
    o, i, h = 4 * o4, 4 * i4, 6
    dense = pruned(rng, [o, kh, kw, i], dtype, density, block_shape(4, layout))
    b = ModelBuilder()
    out_shape = [1, h - kh + 1, h - kw + 1, o]
    if dtype == np.int8:
        sw = (10.0 ** rng.uniform(-3, -1, o)).astype(np.float32)
        x = b.tensor("x", [1, h, h, i], np.int8, scale=0.05, zero_point=-1)
        y = b.tensor("y", out_shape, np.int8, scale=float(0.05 * np.median(sw) * kh * kw * i),
                     zero_point=4)
        inputs = [rng.integers(-128, 128, [1, h, h, i]).astype(np.int8)]
    else:
        sw = None
        x, y = b.tensor("x", [1, h, h, i], np.float32), b.tensor("y", out_shape, np.float32)
        inputs = [rng.standard_normal([1, h, h, i]).astype(np.float32)]
    w = sparse_weights(b, rng, draw, dense, layout, dtype, sw, as_dense)
    if dtype == np.int8:
        bias_scale = (0.05 * sw).astype(np.float32)
        bt = b.const("b", rng.integers(-3000, 3000, o).astype(np.int32), scale=bias_scale,
                     zero_point=[0] * o)
    else:
        bt = b.const("b", rng.standard_normal(o).astype(np.float32))
    b.op("CONV_2D", [x, w, bt], [y], version=3 if dtype == np.int8 else 1,
         padding=1, strideW=1, strideH=1)
    b.inputs([x])
    b.outputs([y])
    return b.build(), inputs


@pytest.mark.parametrize("layout", LAYOUTS_2D)
def test_densify_output(layout):
    """DENSIFY's own output, added to a run-time input so the graph has one."""
    rng = np.random.default_rng(7)
    dense = pruned(rng, [8, 12], np.float32, 0.5, block_shape(2, layout))
    b = ModelBuilder()
    x, y = b.tensor("x", [8, 12], np.float32), b.tensor("y", [8, 12], np.float32)
    w = sparse_weights(b, rng, lambda s: np.int32, dense, layout, np.float32, None)
    b.op("ADD", [x, w], [y])
    b.inputs([x])
    b.outputs([y])
    zeros = np.zeros([8, 12], np.float32)
    ours, _ = oracle.check(b.build(), [zeros], "default")
    np.testing.assert_array_equal(ours[0], dense)


def densify_model(dtype=np.float32, metadata=None, order=(0, 1), block_map=None,
                  dense_shape=(2, 3), values=None, sparse=True):
    b = ModelBuilder()
    if values is None:
        values = np.arange(1, 4, dtype=dtype)
    if metadata is None:
        metadata = [2, ([0, 1, 3], [2, 0, 1], np.int32)]
    ws = (b.sparse_const("w_sparse", dense_shape, values, order, metadata, block_map=block_map)
          if sparse else b.const("w_sparse", np.zeros(dense_shape, dtype)))
    x, y = b.tensor("x", dense_shape, dtype), b.tensor("y", dense_shape, dtype)
    w = b.tensor("w", dense_shape, dtype)
    b.op("DENSIFY", [ws], [w])
    b.op("ADD", [x, w], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


def test_small_by_hand():
    """[[0, 0, 1], [2, 3, 0]] as dense rows of CSR columns."""
    ours, _ = oracle.check(densify_model(), [np.zeros((2, 3), np.float32)], "ref")
    np.testing.assert_array_equal(ours[0], [[0, 0, 1], [2, 3, 0]])


def test_not_sparse_rejected():
    for mode in oracle.MODES:
        oracle.check_rejected(densify_model(sparse=False), mode)


MALFORMED = [
    ("segments not sorted", dict(metadata=[2, ([0, 2, 1], [0, 1, 2], np.int32)]), "sorted"),
    ("index out of range", dict(metadata=[2, ([0, 1, 3], [3, 0, 1], np.int32)]), "out of range"),
    ("too few segments", dict(metadata=[2, ([0, 3], [2, 0, 1], np.int32)]), "array_segments"),
    ("segments past indices", dict(metadata=[2, ([0, 1, 4], [2, 0, 1], np.int32)]), "ends at"),
    ("negative segment", dict(metadata=[2, ([-1, 1, 3], [2, 0, 1], np.int32)]), "non-negative"),
    ("wrong dense size", dict(metadata=[3, ([0, 1, 3], [2, 0, 1], np.int32)]), "dense_size"),
    ("order not a permutation", dict(order=(0, 0)), "permutation"),
    ("missing level", dict(metadata=[2]), "dim_metadata"),
    ("too few values", dict(values=np.arange(1, 3, dtype=np.float32)), "buffer"),
    ("block map missing", dict(order=(0, 1, 2), metadata=[2, 3, 1]), "block_map"),
    ("block not dividing", dict(order=(0, 1, 2), block_map=[1], metadata=[2, 1, 2],
                                values=np.ones(4, np.float32)), "divide"),
    ("blocks out of order", dict(dense_shape=(4, 4), order=(0, 1, 3, 2), block_map=[0, 1],
                                 metadata=[2, 2, 2, 2], values=np.ones(16, np.float32)),
     "out of order"),
    ("int32 weights", dict(dtype=np.int32, values=np.arange(1, 4, dtype=np.int32)),
     "not supported"),
]


@tff_only
@pytest.mark.parametrize("case,kwargs,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_sparsity(case, kwargs, message):
    model = densify_model(**kwargs)
    module = oracle.ours_module()
    with pytest.raises((ValueError, RuntimeError), match=message):
        interp = module.Interpreter(model_content=model)
        interp.allocate_tensors()


def same_structure(a, b):
    """Equality of nested dicts/lists of arrays and numbers, dtypes included."""
    if isinstance(b, dict):
        return isinstance(a, dict) and list(a) == list(b) and all(
            same_structure(a[k], b[k]) for k in b)
    if isinstance(b, list):
        return len(a) == len(b) and all(same_structure(x, y) for x, y in zip(a, b))
    if isinstance(b, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("index_dtype", [np.int32, np.uint16, np.uint8])
@pytest.mark.parametrize("layout", LAYOUTS_2D + LAYOUTS_4D)
def test_sparsity_parameters(layout, index_dtype):
    """get_tensor_details() reports the sparse tensor's encoding as the oracle does."""
    rng = np.random.default_rng(11)
    shape = [8, 12] if len(layout[0]) - len(layout[2]) == 2 else [4, 2, 3, 8]
    dense = pruned(rng, shape, np.float32, 0.5, block_shape(len(shape), layout))
    b = ModelBuilder()
    x, y = b.tensor("x", shape, np.float32), b.tensor("y", shape, np.float32)
    w = sparse_weights(b, rng, lambda s: index_dtype, dense, layout, np.float32, None)
    b.op("ADD", [x, w], [y])
    b.inputs([x])
    b.outputs([y])
    model = b.build()
    details = [[d for d in oracle.make_interpreter(m, model, "ref").get_tensor_details()
                if d["name"] == "w_sparse"][0]["sparsity_parameters"]
               for m in (oracle.ours_module(), oracle.oracle_module())]
    assert details[1], "the oracle reports no sparsity"
    assert same_structure(details[0], details[1]), details


@pytest.mark.parametrize("layout", LAYOUTS_2D)
def test_float16_weights(layout):
    """Float16 sparse weights: DENSIFY -> DEQUANTIZE -> FULLY_CONNECTED, as converters
    emit them."""
    rng = np.random.default_rng(5)
    n, k = 8, 12
    dense = pruned(rng, [n, k], np.float32, 0.5, block_shape(2, layout)).astype(np.float16)
    b = ModelBuilder()
    x, y = b.tensor("x", [2, k], np.float32), b.tensor("y", [2, n], np.float32)
    order, csr, block_map, block_sizes = layout
    values, metadata = encode(dense, order, csr, block_map, block_sizes)
    ws = b.sparse_const("w_sparse", dense.shape, values, order,
                        with_index_types(metadata, lambda s: np.uint16),
                        block_map=list(block_map) if block_map else None)
    w16, w = b.tensor("w16", [n, k], np.float16), b.tensor("w", [n, k], np.float32)
    b.op("DENSIFY", [ws], [w16])
    b.op("DEQUANTIZE", [w16], [w])
    b.op("FULLY_CONNECTED", [x, w, -1], [y])
    b.inputs([x])
    b.outputs([y])
    check_both(lambda as_dense: (b.build(), [rng.standard_normal([2, k]).astype(np.float32)]),
               np.float32)
