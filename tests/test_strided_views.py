"""Strided views (csrc/runtime/alias.h): a SPLIT_V with rows before its axis offers each
output as every row's chunk of its input, accepted only when every reader reads the rows
where they lie: the int8 depthwise column kernel (a [1, taps, 1, C] window, one output
pixel; default numerics only) directly or through a STRIDED_SLICE of whole rows. okay_nabu
splits its 64 channels into 2 x 32 so (test_views.py).

Every model runs against ai_edge_litert in both numerics modes; the memory plan shows which
tensors became views. Cases: SPLIT_V -> (slice ->) depthwise (views in default mode, copies
in reference mode), an output with another reader (all of the node's outputs copied), a
depthwise that is not one column (padding), a slice of every other row, the profiling loop
(every node called: the SPLIT_V must still move nothing), and a resize after allocate.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

ours = oracle.ours_module()
IS_LITERT = ours is oracle.oracle_module()
SX, ZX = 0.05, 3  # every int8 activation before the depthwise
SY, ZY = 0.1, -5  # after it (XNNPACK concatenates only equal quantizations)


def act(b, name, shape):
    return b.tensor(name, list(shape), np.int8, scale=SX, zero_point=ZX)


def depthwise(b, name, x, rows, c, taps, dil, same, rng):
    """x [1, rows, 1, c] -> [1, out, 1, c]: per-channel int8 weights, int32 bias."""
    out = rows if same else rows - (taps - 1) * dil
    sw = (10.0 ** rng.uniform(-2.5, -1.5, c)).astype(np.float32)
    w = b.const(name + "_w", rng.integers(-127, 128, (1, taps, 1, c)).astype(np.int8), scale=sw,
                zero_point=[0] * c, quantized_dimension=3)
    bias = b.const(name + "_b", rng.integers(-3000, 3000, c).astype(np.int32),
                   scale=(SX * sw).astype(np.float32), zero_point=[0] * c)
    y = b.tensor(name, [1, out, 1, c], np.int8, scale=SY, zero_point=ZY)
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], version=3,
         padding=S.Padding.SAME if same else S.Padding.VALID, strideH=1, strideW=1,
         dilationHFactor=dil, dilationWFactor=1, depthMultiplier=1)
    return y, out


def rows_slice(b, name, x, rows, c, begin, step=1):
    """x[:, begin::step] of a [1, rows, 1, c] tensor."""
    n = len(range(begin, rows, step))
    t = act(b, name, [1, n, 1, c])
    i32 = np.int32
    b.op("STRIDED_SLICE", [x, b.const(name + "_b", np.array([0, begin, 0, 0], i32)),
                           b.const(name + "_e", np.array([1, rows, 1, c], i32)),
                           b.const(name + "_s", np.array([1, step, 1, 1], i32))], [t])
    return t, n


def split_model(rows, sizes, taps, dils, begins, rng, same=False, step=1, other_reader=False):
    """x [1, rows, 1, C] -> u = x + x -> SPLIT_V along the channels into `sizes` -> piece i
    (sliced from row begins[i] by `step` when begins[i] is not None) -> depthwise of
    taps[i] taps dilated dils[i] -> concatenation along the channels. other_reader: piece 0
    is also added to itself as a second output. Returns (model, input shape, pieces)."""
    b = ModelBuilder()
    c = sum(sizes)
    x = act(b, "x", [1, rows, 1, c])
    u = act(b, "u", [1, rows, 1, c])
    b.op("ADD", [x, x], [u])
    pieces = [act(b, f"p{i}", [1, rows, 1, n]) for i, n in enumerate(sizes)]
    b.op("SPLIT_V", [u, b.const("sizes", np.array(sizes, np.int32)),
                     b.const("axis", np.array([-1], np.int32))], pieces, numSplits=len(sizes))
    ys, outs = [], []
    for i, (p, n) in enumerate(zip(pieces, sizes)):
        src, r = p, rows
        if begins[i] is not None:
            src, r = rows_slice(b, f"s{i}", p, rows, n, begins[i], step)
        y, out = depthwise(b, f"d{i}", src, r, n, taps[i], dils[i], same, rng)
        ys.append(y)
        outs.append(out)
    assert len(set(outs)) == 1
    cat = b.tensor("cat", [1, outs[0], 1, c], np.int8, scale=SY, zero_point=ZY)
    b.op("CONCATENATION", ys, [cat], axis=3)
    extra = []
    if other_reader:
        extra = [act(b, "z", [1, rows, 1, sizes[0]])]
        b.op("ADD", [pieces[0], pieces[0]], extra)
    b.inputs([x])
    b.outputs([cat] + extra)
    return b.build(), [1, rows, 1, c], pieces


def planned(model, mode):
    it = oracle.make_interpreter(ours, model, mode)
    it.allocate_tensors()
    return {e["tensor"] for e in it.memory_plan()}


def check(model, shape, mode, seed, views, copies):
    rng = np.random.default_rng(seed)
    oracle.check(model, [rng.integers(-128, 127, size=shape, endpoint=True, dtype=np.int8)], mode)
    if IS_LITERT:
        return
    plan = planned(model, mode)
    assert not set(views) & plan, f"views {sorted(set(views) & plan)} have regions"
    assert set(copies) <= plan, f"copies {sorted(set(copies) - plan)} have no region"


@st.composite
def column(draw, rows):
    """(taps, dilation, slice begin or None) of one depthwise that covers its rows exactly."""
    begin = draw(st.sampled_from([None, None] + list(range(rows - 1))))
    r = rows - (begin or 0)
    divs = [d for d in range(1, r) if (r - 1) % d == 0]
    dil = draw(st.sampled_from(divs))
    return (r - 1) // dil + 1, dil, begin


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=20, deadline=None)
@given(rows=st.integers(2, 9), sizes=st.lists(st.sampled_from([16, 24, 32, 40]), min_size=2,
                                              max_size=3),
       data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_split_to_depthwise_views(mode, rows, sizes, data, seed):
    """Each piece feeds a one-column depthwise: in default mode the pieces (and their
    slices) are strided views of the split's input, in reference mode copies."""
    cols = [data.draw(column(rows)) for _ in sizes]
    model, shape, pieces = split_model(rows, sizes, [t for t, _, _ in cols],
                                       [d for _, d, _ in cols], [b for _, _, b in cols],
                                       np.random.default_rng(seed))
    views = pieces if mode == "default" else []
    check(model, shape, mode, seed, views, [] if views else pieces)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_other_reader_copies_all(mode):
    """Piece 0 is also read by an ADD: it must be a copy, so the split copies every piece
    (its copy would write into the others' base)."""
    model, shape, pieces = split_model(5, [32, 32], [5, 3], [1, 2], [None, None],
                                       np.random.default_rng(3), other_reader=True)
    check(model, shape, mode, 3, [], pieces)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_padded_depthwise_copies(mode):
    """SAME padding: the depthwise is not one column of taps inside the image, so it reads
    dense pieces."""
    model, shape, pieces = split_model(5, [16, 32], [3, 3], [1, 1], [None, None],
                                       np.random.default_rng(4), same=True)
    check(model, shape, mode, 4, [], pieces)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_slice_of_every_other_row_copies(mode):
    """A slice by 2 rows is no view of its piece: that piece is read densely, so every
    piece is a copy."""
    model, shape, pieces = split_model(9, [32, 32], [5, 5], [1, 1], [0, 0],
                                       np.random.default_rng(5), step=2)
    check(model, shape, mode, 5, [], pieces)


@pytest.mark.skipif(IS_LITERT, reason="profiling and resize of tflite_fast's plan loop")
@pytest.mark.parametrize("mode", oracle.MODES)
def test_profiling_and_resize(mode):
    """The profiling loop calls every node but the no-ops: the views' outputs match the
    oracle's with profiling on, and again after the input is resized to its own shape
    and allocated anew."""
    model, shape, pieces = split_model(9, [32, 32], [5, 9], [2, 1], [None, None],
                                       np.random.default_rng(6))
    rng = np.random.default_rng(6)
    xs = [rng.integers(-128, 127, size=shape, endpoint=True, dtype=np.int8) for _ in range(3)]
    ref = [oracle.run_oracle(model, [x], mode) for x in xs]
    it = oracle.make_interpreter(ours, model, mode)
    it.allocate_tensors()
    it._interpreter._set_profiling(True)
    for x, r in zip(xs, ref):
        oracle.assert_outputs_match(oracle.run_interpreter(it, [x]), r, context="profiling")
    assert any(name == "DEPTHWISE_CONV_2D" for _, name, _, _ in it._interpreter._profile())
    it._interpreter._set_profiling(False)
    it.resize_tensor_input(0, shape)
    it.allocate_tensors()
    for x, r in zip(xs, ref):
        oracle.assert_outputs_match(oracle.run_interpreter(it, [x]), r, context="resized")
    if mode == "default":
        assert not set(pieces) & {e["tensor"] for e in it.memory_plan()}
