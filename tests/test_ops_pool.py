"""AVERAGE_POOL_2D and MAX_POOL_2D against ai_edge_litert in both numerics modes.

Shapes, filter, strides, padding and fused activation are drawn by hypothesis; int8
draws include scales whose activation bounds fall on .5 ties (6/4, 1/2), where the
default mode's XNNPACK max pool rounds to even and the builtin kernels away from zero,
and even window counts, where the int8 average rounds half away from zero.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

# With TFF_TEST_IMPL=ai_edge_litert the tests run LiteRT itself: it rejects the same bad
# models, in its own words.
IS_LITERT = oracle.ours_module() is oracle.oracle_module()


def prepare_error(message):
    return pytest.raises(RuntimeError, match=None if IS_LITERT else message)

ACT = S.ActivationFunctionType
ACTS = [ACT.NONE, ACT.RELU, ACT.RELU6, ACT.RELU_N1_TO_1]
OPS = ["AVERAGE_POOL_2D", "MAX_POOL_2D"]
# Scales with .5 ties in the RELU6 / RELU_N1_TO_1 bounds, and ordinary ones.
SCALES = [4.0, 2.0, 0.5, 0.25, 0.05, 0.0173]


def out_size(padding, n, f, s):
    return (n + s - 1) // s if padding == S.Padding.SAME else (n - f + s) // s


def pool_model(op, shape, fh, fw, sh, sw, padding, act, dtype, q_in=None, q_out=None):
    b = ModelBuilder()
    n, h, w, c = shape
    x = b.tensor("x", shape, dtype, *(q_in or (None, None)))
    y = b.tensor("y", [n, out_size(padding, h, fh, sh), out_size(padding, w, fw, sw), c], dtype,
                 *(q_out or q_in or (None, None)))
    b.op(op, [x], [y], padding=padding, strideH=sh, strideW=sw, filterHeight=fh,
         filterWidth=fw, fusedActivationFunction=act)
    b.inputs([x])
    b.outputs([y])
    return b.build()


@st.composite
def geometry(draw):
    padding = draw(st.sampled_from([S.Padding.SAME, S.Padding.VALID]))
    fh, fw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    h, w = draw(st.integers(fh, 9)), draw(st.integers(fw, 9))
    shape = [draw(st.integers(1, 2)), h, w, draw(st.integers(1, 20))]
    return shape, fh, fw, sh, sw, padding


def data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.float32:
        return rng.standard_normal(shape).astype(np.float32) * 4
    return rng.integers(-128, 128, size=shape).astype(np.int8)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@settings(max_examples=25, deadline=None)
@given(geom=geometry(), act=st.sampled_from(ACTS), seed=st.integers(0, 2**32 - 1))
def test_pool_float(op, mode, geom, act, seed):
    shape, fh, fw, sh, sw, padding = geom
    model = pool_model(op, shape, fh, fw, sh, sw, padding, act, np.float32)
    oracle.check(model, [data(shape, np.float32, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=20, deadline=None)
@given(fh=st.integers(1, 3), fw=st.integers(1, 3), stride=st.integers(1, 2),
       padding=st.sampled_from([S.Padding.SAME, S.Padding.VALID]), h=st.integers(3, 10),
       w=st.integers(3, 10), c=st.integers(1, 45), act=st.sampled_from(ACTS),
       seed=st.integers(0, 2**32 - 1))
def test_max_pool_float_whole_windows(mode, fh, fw, stride, padding, h, w, c, act, seed):
    """Float max pooling over whole windows (the interior of SAME, all of VALID) and cut
    ones, over channel counts around the kernels' 4- and 8-lane vectors and 4-vector blocks."""
    shape = [1, h, w, c]
    model = pool_model("MAX_POOL_2D", shape, fh, fw, stride, stride, padding, act, np.float32)
    oracle.check(model, [data(shape, np.float32, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@settings(max_examples=30, deadline=None)
@given(geom=geometry(), act=st.sampled_from(ACTS), scale=st.sampled_from(SCALES),
       zp=st.integers(-5, 5), seed=st.integers(0, 2**32 - 1))
def test_pool_int8(op, mode, geom, act, scale, zp, seed):
    shape, fh, fw, sh, sw, padding = geom
    model = pool_model(op, shape, fh, fw, sh, sw, padding, act, np.int8, (scale, zp))
    oracle.check(model, [data(shape, np.int8, seed)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("strides", [(2, 2), (3, 3)])
@pytest.mark.parametrize("scale,zp,act", [(4.0, 1, ACT.RELU6), (4.0, -1, ACT.RELU6),
                                          (2.0, 0, ACT.RELU_N1_TO_1), (2.0, 1, ACT.RELU_N1_TO_1)])
def test_pool_int8_activation_ties(op, mode, strides, scale, zp, act):
    """Bounds on a .5 tie: XNNPACK (AUTO's max pool when no stride exceeds the filter)
    rounds them to even, the builtin kernels away from zero."""
    shape = [1, 8, 8, 4]
    model = pool_model(op, shape, 2, 2, *strides, S.Padding.SAME, act, np.int8, (scale, zp))
    oracle.check(model, [data(shape, np.int8, 4)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_avg_pool_int8_mismatched_quantization(mode):
    """TFLite only DCHECKs that int8 pooling keeps the quantization: it pools raw codes
    and clamps with the output's activation bounds."""
    shape = [1, 7, 7, 5]
    model = pool_model("AVERAGE_POOL_2D", shape, 3, 3, 2, 2, S.Padding.SAME, ACT.RELU,
                       np.int8, (0.5, 3), (0.25, -5))
    oracle.check(model, [data(shape, np.int8, 1)], mode)


def test_max_pool_int8_mismatched_quantization_ref():
    # (AUTO's XNNPACK delegate fails to prepare on this node, so only ref is compared.)
    shape = [1, 7, 7, 5]
    model = pool_model("MAX_POOL_2D", shape, 3, 3, 2, 2, S.Padding.SAME, ACT.RELU6,
                       np.int8, (0.5, 3), (0.5, 1))
    oracle.check(model, [data(shape, np.int8, 2)], "ref")


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
def test_pool_global_window(op, mode):
    """The 7x7 global pooling of classifier heads, int8 with a tie-prone window of 49."""
    shape = [1, 7, 7, 64]
    model = pool_model(op, shape, 7, 7, 1, 1, S.Padding.VALID, ACT.NONE, np.int8, (0.02, -128))
    oracle.check(model, [data(shape, np.int8, 3)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", [np.float32, np.int8])
@pytest.mark.parametrize("c", [67, 131])
def test_pool_wide_channels(op, dtype, c, mode):
    """Channel counts past the widest ukernel block (4 vectors of 32 int8 codes), not a
    multiple of any vector: whole blocks, single vectors and the overlapping last one."""
    shape = [2, 9, 9, c]
    q = (0.05, -3) if dtype == np.int8 else None
    model = pool_model(op, shape, 3, 3, 2, 2, S.Padding.SAME, ACT.RELU, dtype, q)
    oracle.check(model, [data(shape, dtype, c)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_pool_filter_larger_than_image(op, dtype, mode):
    """SAME padding with a 40x30 filter over a 4x5 image: every window is cut to the
    image, so the tap pointers are sized by the image, not by the filter."""
    shape = [1, 4, 5, 3]
    q = (0.05, -3) if dtype == np.int8 else None
    model = pool_model(op, shape, 40, 30, 2, 1, S.Padding.SAME, ACT.NONE, dtype, q)
    oracle.check(model, [data(shape, dtype, 7)], mode)


@pytest.mark.parametrize("field,value,message", [
    ("strideW", 0, "strides must be positive"),
    # LiteRT runs a 0-row filter (over empty windows); tflite_fast rejects it.
    pytest.param("filterHeight", 0, "filter size must be positive",
                 marks=pytest.mark.skipif(IS_LITERT, reason="LiteRT accepts it")),
])
def test_pool_bad_params(field, value, message):
    params = dict(padding=S.Padding.SAME, strideH=1, strideW=1, filterHeight=2, filterWidth=2,
                  fusedActivationFunction=ACT.NONE)
    params[field] = value
    b = ModelBuilder()
    x = b.tensor("x", [1, 4, 4, 1], np.float32)
    y = b.tensor("y", [1, 4, 4, 1], np.float32)
    b.op("MAX_POOL_2D", [x], [y], **params)
    b.inputs([x])
    b.outputs([y])
    with prepare_error(message):
        oracle.run_ours(b.build(), [np.zeros([1, 4, 4, 1], np.float32)], "ref")
