"""RESHAPE, SHAPE, STRIDED_SLICE, PACK, CONCATENATION and PAD against ai_edge_litert in
both numerics modes, over every fixed-size type they move.

Also the shape chains of converted models (SHAPE -> STRIDED_SLICE -> PACK or
CONCATENATION -> RESHAPE): tflite_fast computes those small tensors at prepare, so the
RESHAPE output shape is known before the arena is planned, also after an input resize.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

# With TFF_TEST_IMPL=ai_edge_litert the tests run LiteRT itself: it rejects the same bad
# models, in its own words, and some tests check tflite_fast's own choices.
IS_LITERT = oracle.ours_module() is oracle.oracle_module()
tff_only = pytest.mark.skipif(IS_LITERT, reason="tflite_fast behaviour; LiteRT differs")


def prepare_error(message):
    return pytest.raises(RuntimeError, match=None if IS_LITERT else message)

DTYPES = [np.float32, np.int8, np.int32, np.int64, np.bool_, np.uint8, np.int16]
QUANT = {np.int8: (0.5, -3), np.uint8: (0.25, 7)}


def values(shape, dtype, seed):
    """Full-range integers, 50/50 bools, standard normal floats."""
    details = [{"shape": shape, "dtype": dtype, "name": "x"}]
    return oracle.random_inputs(details, np.random.default_rng(seed))[0]


def activation(b, name, shape, dtype):
    return b.tensor(name, shape, dtype, *QUANT.get(dtype, (None, None)))


def single_op(op, inputs, out_shape, dtype, out_dtype=None, **options):
    """`inputs`: list of (name, shape, dtype, const_value or None); graph inputs are the
    non-constant ones."""
    b = ModelBuilder()
    idx, graph_inputs = [], []
    for name, shape, dt, const in inputs:
        if const is None:
            idx.append(activation(b, name, shape, dt))
            graph_inputs.append(idx[-1])
        else:
            idx.append(b.const(name, np.asarray(const, dt), *QUANT.get(dt, (None, None))))
    y = activation(b, "y", out_shape, out_dtype or dtype)
    b.op(op, idx, [y], **options)
    b.inputs(graph_inputs)
    b.outputs([y])
    return b.build()


shapes = st.lists(st.integers(1, 5), min_size=0, max_size=5)

# ---------------------------------------------------------------- RESHAPE


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def reshape_case(draw):
    shape = draw(shapes)
    total = int(np.prod(shape))
    new_rank = draw(st.integers(0 if total == 1 else 1, 5))
    new, rest = [], total
    for _ in range(new_rank - 1):
        d = draw(st.sampled_from(divisors(rest)))
        new.append(d)
        rest //= d
    if new_rank:
        new.append(rest)
    spec = list(new)
    if new and draw(st.booleans()):
        spec[draw(st.integers(0, len(new) - 1))] = -1
    return shape, new, spec, draw(st.sampled_from(["options", "tensor"]))


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(case=reshape_case(), dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1))
def test_reshape(mode, case, dtype, seed):
    shape, new, spec, source = case
    if source == "options":
        model = single_op("RESHAPE", [("x", shape, dtype, None)], new, dtype, newShape=spec)
    else:
        model = single_op("RESHAPE", [("x", shape, dtype, None), ("s", [len(spec)], np.int32, spec)],
                          new, dtype)
    oracle.check(model, [values(shape, dtype, seed)], mode)


def test_reshape_count_mismatch():
    model = single_op("RESHAPE", [("x", [3, 4], np.float32, None)], [2, 5], np.float32,
                      newShape=[2, 5])
    with prepare_error("12 elements into one of 10 elements"):
        oracle.run_ours(model, [np.zeros([3, 4], np.float32)], "ref")


@tff_only
def test_reshape_dynamic_shape_unsupported():
    b = ModelBuilder()
    x = b.tensor("x", [3, 4], np.float32)
    s = b.tensor("s", [2], np.int32)
    y = b.tensor("y", [4, 3], np.float32)
    b.op("RESHAPE", [x, s], [y])
    b.inputs([x, s])
    b.outputs([y])
    with prepare_error("shape tensor 1 is not constant; dynamic shapes"):
        oracle.run_ours(b.build(), [np.zeros([3, 4], np.float32), np.array([4, 3], np.int32)],
                        "default")


def chain_model(joiner):
    """x [1,4,4,3] -> SHAPE -> STRIDED_SLICE (batch) -> PACK/CONCATENATION with -1 ->
    RESHAPE: [batch, 48], as converters emit for a flatten."""
    b = ModelBuilder()
    x = b.tensor("x", [1, 4, 4, 3], np.int8, 0.5, -3)
    shape = b.tensor("shape", [4], np.int32)
    b.op("SHAPE", [x], [shape], outType=S.TensorType.INT32)
    c = [b.const(n, np.array(v, np.int32)) for n, v in [("b", [0]), ("e", [1]), ("s", [1])]]
    if joiner == "PACK":
        batch = b.tensor("batch", [], np.int32)
        b.op("STRIDED_SLICE", [shape] + c, [batch], shrinkAxisMask=1)
        parts = [batch, b.const("minus1", np.array(-1, np.int32))]
        new = b.tensor("new", [2], np.int32)
        b.op("PACK", parts, [new], valuesCount=2, axis=0)
    else:
        batch = b.tensor("batch", [1], np.int32)
        b.op("STRIDED_SLICE", [shape] + c, [batch])
        new = b.tensor("new", [2], np.int32)
        b.op("CONCATENATION", [batch, b.const("minus1", np.array([-1], np.int32))], [new],
             axis=0)
    y = b.tensor("y", [1, 48], np.int8, 0.5, -3)
    b.op("RESHAPE", [x, new], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("joiner", ["PACK", "CONCATENATION"])
@pytest.mark.parametrize("batch", [1, 3])
def test_reshape_shape_chain(mode, joiner, batch):
    """batch 3 resizes the input: the chain is recomputed at the next prepare."""
    x = values([batch, 4, 4, 3], np.int8, batch)
    ours, _ = oracle.check(chain_model(joiner), [x], mode)
    assert ours[0].shape == (batch, 48)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_reshape_constant_input(mode):
    """A constant input is reshaped at prepare (kTfLitePersistentRo output)."""
    b = ModelBuilder()
    c = b.const("c", np.arange(12, dtype=np.float32).reshape(3, 4))
    y = b.tensor("y", [2, 6], np.float32)
    b.op("RESHAPE", [c], [y], newShape=[2, 6])
    x = b.tensor("x", [2, 6], np.float32)
    z = b.tensor("z", [2, 6], np.float32)
    b.op("ADD", [x, y], [z])
    b.inputs([x])
    b.outputs([z, y])
    oracle.check(b.build(), [values([2, 6], np.float32, 0)], mode)


# ---------------------------------------------------------------- SHAPE


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("out_type", [np.int32, np.int64])
@settings(max_examples=10, deadline=None)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=5), dtype=st.sampled_from(DTYPES))
def test_shape(mode, out_type, shape, dtype):
    # (A scalar's shape is an empty tensor, which ai_edge_litert's get_tensor rejects.)
    tt = S.TensorType.INT64 if out_type == np.int64 else S.TensorType.INT32
    model = single_op("SHAPE", [("x", shape, dtype, None)], [len(shape)], dtype,
                      out_dtype=out_type, outType=tt)
    ours, _ = oracle.check(model, [values(shape, dtype, 0)], mode)
    assert ours[0].tolist() == list(shape)


# ---------------------------------------------------------------- STRIDED_SLICE


@st.composite
def slice_case(draw):
    shape = draw(st.lists(st.integers(1, 6), min_size=1, max_size=5))
    n = draw(st.integers(1, len(shape) + 1))
    bits = st.integers(0, 2**n - 1)
    begin = draw(st.lists(st.integers(-8, 8), min_size=n, max_size=n))
    end = draw(st.lists(st.integers(-8, 8), min_size=n, max_size=n))
    strides = draw(st.lists(st.sampled_from([1, 1, 2, 3, -1, -2]), min_size=n, max_size=n))
    masks = dict(beginMask=draw(bits), endMask=draw(bits), shrinkAxisMask=draw(bits),
                 newAxisMask=draw(bits) if draw(st.booleans()) else 0,
                 ellipsisMask=(1 << draw(st.integers(0, n - 1))) if draw(st.booleans()) else 0,
                 offset=draw(st.booleans()))
    return shape, begin, end, strides, masks


def offset_valid(shape, begin, end, strides, m):
    """TFLite sizes an offset slice from the raw end values (reading past them when
    there are fewer than dims): only in-range, positive-stride, full-rank ones are
    well defined."""
    if len(begin) != len(shape) or m["ellipsisMask"] or m["newAxisMask"] or m["shrinkAxisMask"]:
        return False
    for k, size in enumerate(shape):
        b = 0 if m["beginMask"] >> k & 1 else (begin[k] + size if begin[k] < 0 else begin[k])
        if strides[k] < 0 or m["endMask"] >> k & 1 or b < 0 or end[k] < 0 or b + end[k] > size:
            return False
    return True


def numpy_index(shape, begin, end, strides, m):
    """The numpy index the TFLite semantics agree with, for the declared output shape."""
    idx = []
    for k in range(len(begin)):
        bit = 1 << k
        if m["ellipsisMask"] & bit:
            idx.append(Ellipsis)
        elif m["newAxisMask"] & bit:
            idx.append(None)
        elif m["shrinkAxisMask"] & bit:
            idx.append(0 if m["beginMask"] & bit and strides[k] > 0 else begin[k])
        else:
            b = None if m["beginMask"] & bit else begin[k]
            e = None if m["endMask"] & bit else end[k]
            if m["offset"]:
                b = 0 if b is None else (b + shape[k] if b < 0 else b)
                e = b + e
            idx.append(slice(b, e, strides[k]))
    return tuple(idx)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=60, deadline=None)
@given(case=slice_case(), dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1))
def test_strided_slice(mode, case, dtype, seed):
    shape, begin, end, strides, masks = case
    x = values(shape, dtype, seed)
    # Cases numpy rejects (a shrunk index out of range, too many indices) are invalid
    # models; TFLite leaves their output uninitialized.
    # TFLite writes nothing for a shrunk dim with a negative stride.
    assume(not any(masks["shrinkAxisMask"] >> k & 1 and st_ < 0 for k, st_ in enumerate(strides)))
    assume(not (masks["shrinkAxisMask"] & masks["beginMask"]))
    assume(not masks["offset"] or offset_valid(shape, begin, end, strides, masks))
    try:
        out_shape = list(np.empty(shape)[numpy_index(shape, begin, end, strides, masks)].shape)
    except IndexError:
        assume(False)
    model = single_op("STRIDED_SLICE", [("x", shape, dtype, None), ("b", [len(begin)], np.int32, begin),
                                        ("e", [len(end)], np.int32, end),
                                        ("s", [len(strides)], np.int32, strides)],
                      out_shape, dtype, **masks)
    oracle.check(model, [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.int16])
@pytest.mark.parametrize("begin,end,offset", [([1, 0], [0, 0], False), ([-3, 1], [0, -1], False),
                                              ([0, -2], [0, 2], True)])
def test_strided_slice_end_zero(mode, dtype, begin, end, offset):
    """AUTO's XNNPACK slice (float and quantized 8-bit plain slices) reads an end of 0 as
    the end of the dim, where TFLite's kernel (and AUTO for other types) slices nothing."""
    x = values([4, 5], dtype, 0)
    model = single_op("STRIDED_SLICE", [("x", [4, 5], dtype, None), ("b", [2], np.int32, begin),
                                        ("e", [2], np.int32, end), ("s", [2], np.int32, [1, 1])],
                      [4, 5], dtype, offset=offset)
    oracle.check(model, [x], mode)



@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.int32])
@pytest.mark.parametrize("shape,begin,end,strides", [
    ([1, 15, 1, 64], [0, 1, 0, 0], [1, 15, 1, 64], [1, 1, 1, 1]),   # a streaming state's tail
    ([2, 5, 3, 4], [1, 1, 0, 0], [2, 4, 3, 4], [1, 2, 1, 1]),        # whole rows, strided outer
    ([2, 5, 3, 4], [0, 1, 0, 1], [2, 4, 3, 4], [1, 1, 1, 1]),        # inner dim not whole
    ([2, 5, 3, 4], [0, 1, 1, 0], [2, 4, 3, 4], [1, 1, 1, 1]),        # middle dim not whole
    ([3, 4, 5], [0, 0, 0], [3, 4, 5], [1, 1, 1]),                    # everything: one copy
    ([3, 4, 5], [2, 0, 0], [0, 4, 5], [-1, 1, 1]),                   # reversed outer, whole rows
])
def test_strided_slice_whole_rows(mode, dtype, shape, begin, end, strides):
    """Inner dims taken whole merge into one copy per outer index (merge_rows)."""
    x = values(shape, dtype, 3)
    out_shape = list(np.empty(shape)[tuple(slice(b, e, s) for b, e, s in zip(begin, end, strides))].shape)
    n = len(shape)
    model = single_op("STRIDED_SLICE", [("x", shape, dtype, None), ("b", [n], np.int32, begin),
                                        ("e", [n], np.int32, end), ("s", [n], np.int32, strides)],
                      out_shape, dtype)
    oracle.check(model, [x], mode)

@tff_only
@pytest.mark.parametrize("mode", oracle.MODES)
def test_strided_slice_int64_indices(mode):
    """int64 begin/end/strides, which LiteRT rejects, slice like their int32 values."""
    def model(itype):
        return single_op("STRIDED_SLICE", [("x", [5, 6], np.float32, None),
                                           ("b", [2], itype, [4, 1]), ("e", [2], itype, [0, -1]),
                                           ("s", [2], itype, [-2, 2])], [2, 3], np.float32)
    x = values([5, 6], np.float32, 2)
    ref = oracle.run_oracle(model(np.int32), [x], mode)
    oracle.assert_outputs_match(oracle.run_ours(model(np.int64), [x], mode), ref)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_strided_slice_constant_input(mode):
    b = ModelBuilder()
    c = b.const("c", np.arange(24, dtype=np.int32).reshape(2, 3, 4))
    idx = [b.const(n, np.array(v, np.int32)) for n, v in [("b", [1, -1, 3]), ("e", [2, 0, 0]),
                                                          ("s", [1, -1, -2])]]
    y = b.tensor("y", [1, 2, 2], np.int32)
    b.op("STRIDED_SLICE", [c] + idx, [y])
    x = b.tensor("x", [1, 2, 2], np.int32)
    z = b.tensor("z", [1, 2, 2], np.int32)
    b.op("ADD", [x, y], [z])
    b.inputs([x])
    b.outputs([z])
    oracle.check(b.build(), [values([1, 2, 2], np.int32, 1)], mode)


# ---------------------------------------------------------------- PACK / CONCATENATION


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=0, max_size=4), n=st.integers(1, 4),
       dtype=st.sampled_from([d for d in DTYPES if d is not np.bool_]), data=st.data())
def test_pack(mode, shape, n, dtype, data):
    r = len(shape) + 1
    axis = data.draw(st.integers(-r, r - 1))
    out = list(shape)
    out.insert(axis % r, n)
    model = single_op("PACK", [(f"x{i}", shape, dtype, None) for i in range(n)], out, dtype,
                      valuesCount=n, axis=axis)
    oracle.check(model, [values(shape, dtype, i) for i in range(n)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), n=st.integers(1, 4),
       dtype=st.sampled_from(DTYPES), data=st.data())
def test_concatenation(mode, shape, n, dtype, data):
    r = len(shape)
    axis = data.draw(st.integers(-r, r - 1))
    shapes_ = []
    for _ in range(n):
        s = list(shape)
        s[axis % r] = data.draw(st.integers(1, 4))
        shapes_.append(s)
    const = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(const):
        const[0] = False
    out = list(shape)
    out[axis % r] = sum(s[axis % r] for s in shapes_)
    ins = [(f"x{i}", s, dtype, values(s, dtype, 10 + i) if c else None)
           for i, (s, c) in enumerate(zip(shapes_, const))]
    model = single_op("CONCATENATION", ins, out, dtype, axis=axis)
    oracle.check(model, [values(s, dtype, i) for i, (s, c) in enumerate(zip(shapes_, const)) if not c],
                 mode)


def test_concatenation_int8_requires_same_quantization():
    b = ModelBuilder()
    x0 = b.tensor("x0", [1, 2], np.int8, 0.5, 1)
    x1 = b.tensor("x1", [1, 2], np.int8, 0.25, 1)
    y = b.tensor("y", [1, 4], np.int8, 0.5, 1)
    b.op("CONCATENATION", [x0, x1], [y], axis=1)
    b.inputs([x0, x1])
    b.outputs([y])
    with prepare_error(r"input 1 quantization \(0.25, 1\) differs"):
        oracle.run_ours(b.build(), [np.zeros([1, 2], np.int8)] * 2, "ref")


@pytest.mark.parametrize("mode", oracle.MODES)
def test_concatenation_constant_scalars(mode):
    """Constant scalars concatenate into a 1-D tensor at prepare (TFLite's special case)."""
    b = ModelBuilder()
    parts = [b.const(f"c{i}", np.array(v, np.int32)) for i, v in enumerate([4, -1, 7])]
    s = b.tensor("s", [3], np.int32)
    b.op("CONCATENATION", parts, [s], axis=0)
    x = b.tensor("x", [3], np.int32)
    y = b.tensor("y", [3], np.int32)
    b.op("ADD", [x, s], [y])
    b.inputs([x])
    b.outputs([y])
    oracle.check(b.build(), [np.array([1, 2, 3], np.int32)], mode)


# ---------------------------------------------------------------- PAD


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=5), dtype=st.sampled_from(DTYPES),
       ptype=st.sampled_from([np.int32, np.int64]), data=st.data())
def test_pad(mode, shape, dtype, ptype, data):
    pads = [[data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))] for _ in shape]
    out = [d + a + b for d, (a, b) in zip(shape, pads)]
    model = single_op("PAD", [("x", shape, dtype, None), ("p", [len(shape), 2], ptype, pads)],
                      out, dtype)
    oracle.check(model, [values(shape, dtype, data.draw(st.integers(0, 2**32 - 1)))], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_pad_value_input(mode):
    """A third input gives the pad value (TFLite's PAD kernel accepts it)."""
    model = single_op("PAD", [("x", [2, 3], np.int8, None), ("p", [2, 2], np.int32, [[1, 0], [2, 1]]),
                              ("v", [], np.int8, 9)], [3, 6], np.int8)
    oracle.check(model, [values([2, 3], np.int8, 3)], mode)


def test_pad_negative():
    model = single_op("PAD", [("x", [2, 3], np.float32, None), ("p", [2, 2], np.int32, [[1, -1], [0, 0]])],
                      [2, 3], np.float32)
    with prepare_error(r"paddings \(1, -1\) of dim 0"):
        oracle.run_ours(model, [np.zeros([2, 3], np.float32)], "ref")
