"""The built-in MediaPipe custom ops (csrc/ops/mediapipe/), which every Interpreter
resolves by name at load.

ai_edge_litert has none of them, so each is checked against what the oracle does have:
Convolution2DTransposeBias against a builtin TRANSPOSE_CONV with the bias input (same
weights, output shape as MediaPipe derives it), MaxPoolingWithArgmax2D's values against
MAX_POOL_2D. Where the oracle has no equivalent (the argmax indices, MaxUnpooling2D) the
expected values come from numpy implementations of MediaPipe's definitions written here.
Options are raw C structs (TfLiteTransposeConvParams / TfLitePoolParams prefixes), packed
here with struct.pack. Also: a user registration of the same name replaces the built-in,
and malformed options or shapes fail prepare cleanly.

The Transform* ops resolve by name and version as MediaPipe names them: TransformLandmarks
v2 (3-D) and v1 (4-D, FlexBuffer options dimensions / scale), TransformTensorBilinear v2
and its v1 "TransformTensor" (no align-corners shift, option mode). TransformLandmarks is
checked against a RESHAPE / BATCH_MATMUL / ADD graph in the oracle, integer-translation
crops against PAD + SLICE, and both against numpy formulations of MediaPipe's code.

Landmarks2TransformMatrix (v1: [1,1,1,C] landmarks, v2: 3-D) has no oracle equivalent: it
is checked against float64 numpy formulations of its definition over drawn landmarks and
options (FlexBuffer maps with typed int vectors, as MediaPipe reads them), a known
geometry, and rejections of every option and shape MediaPipe refuses or would read out of
bounds with.
"""

import json
import struct

import numpy as np
import pytest
from flatbuffers import flexbuffers
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

import tflite_fast.interpreter as tff
from tflite_fast import cli
from test_custom_ops import lib, run, two_input_model  # noqa: F401 (lib is a fixture)

pytestmark = pytest.mark.skipif(oracle.ours_module() is oracle.oracle_module(),
                                reason="MediaPipe ops are tflite_fast built-ins")

SAME, VALID = 1, 2  # TfLitePadding
ACTS = {0: (-np.inf, np.inf), 1: (0, np.inf), 2: (-1, 1), 3: (0, 6)}  # TfLiteFusedActivation
F32 = np.float32


def rand(rng, shape):
    return rng.standard_normal(shape).astype(F32)


def ours(model, inputs, mode="default"):
    return oracle.run_ours(model, inputs, mode)


def rejected(model, inputs):
    """Our error message for a model that must fail allocate_tensors()."""
    it = tff.Interpreter(model_content=model)
    with pytest.raises(RuntimeError) as e:
        it.allocate_tensors()
    return str(e.value)


def pool_options(padding, sh, sw, fh, fw, act=0):
    """TfLitePoolParams without its computed tail: padding, stride_w, stride_h, filter_w,
    filter_h, activation."""
    return struct.pack("<6i", padding, sw, sh, fw, fh, act)


def out_size(padding, n, f, s):
    return (n + s - 1) // s if padding == SAME else max(0, (n - f + s) // s)


def pool_pad(n, f, s, out):
    return max(0, ((out - 1) * s + f - n) // 2)


# --- Convolution2DTransposeBias ------------------------------------------------------


def tconv_out(padding, n, k, s):
    p = max(0, k - (n - 1) % s - 1) if padding == SAME else 0
    return s * (n - 1) + k - p


def tconv_models(c, rng):
    """(custom model, builtin TRANSPOSE_CONV model, inputs) for case c."""
    n, h, w, cin, cout, kh, kw, sh, sw, pad = (c[k] for k in "n h w cin cout kh kw sh sw pad"
                                               .split())
    oshape = [n, tconv_out(pad, h, kh, sh), tconv_out(pad, w, kw, sw), cout]
    wv, bv = rand(rng, [cout, kh, kw, cin]), rand(rng, [cout])
    models = []
    for custom in (True, False):
        b = ModelBuilder()
        x = b.tensor("x", [n, h, w, cin], F32)
        filt, bias = b.const("w", wv), b.const("b", bv)
        y = b.tensor("y", oshape, F32)
        if custom:
            opts = struct.pack("<3i", pad, sw, sh) + (struct.pack("<i", 0) if c["act"] else b"")
            b.op("CUSTOM", [x, filt, bias], [y], custom_code="Convolution2DTransposeBias",
                 custom_options=opts)
        else:
            shape = b.const("output_shape", np.array(oshape, np.int32))
            b.op("TRANSPOSE_CONV", [shape, filt, x, bias], [y],
                 padding=S.Padding.SAME if pad == SAME else S.Padding.VALID,
                 strideH=sh, strideW=sw)
        b.inputs([x])
        b.outputs([y])
        models.append(b.build())
    return models[0], models[1], [rand(rng, [n, h, w, cin])]


@st.composite
def tconv_case(draw):
    i = st.integers
    return dict(n=draw(i(1, 2)), h=draw(i(1, 6)), w=draw(i(1, 6)), cin=draw(i(1, 9)),
                cout=draw(st.sampled_from([1, 3, 8, 17])), kh=draw(i(1, 4)), kw=draw(i(1, 4)),
                sh=draw(i(1, 3)), sw=draw(i(1, 3)), pad=draw(st.sampled_from([SAME, VALID])),
                act=draw(st.booleans()))


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(c=tconv_case(), seed=st.integers(0, 2**32 - 1))
def test_transpose_conv_bias_matches_builtin(mode, c, seed):
    """Options of 12 bytes (MediaPipe's converter) or 16 (with an activation field)."""
    custom, builtin, inputs = tconv_models(c, np.random.default_rng(seed))
    oracle.assert_outputs_match(ours(custom, inputs, mode), oracle.run_oracle(builtin, inputs, mode))


def test_transpose_conv_bias_rejects():
    rng = np.random.default_rng(1)

    def model(opts, wshape=(4, 3, 3, 2), bshape=(4,), btype=F32):
        b = ModelBuilder()
        x = b.tensor("x", [1, 5, 5, 2], F32)
        y = b.tensor("y", [1, 10, 10, 4], F32)
        b.op("CUSTOM", [x, b.const("w", rand(rng, wshape)),
                        b.const("b", rand(rng, bshape).astype(btype))], [y],
             custom_code="Convolution2DTransposeBias", custom_options=opts)
        b.inputs([x])
        b.outputs([y])
        return b.build()

    ok = struct.pack("<3i", SAME, 2, 2)
    assert "custom options hold 8 bytes, need 12" in rejected(model(ok[:8]), None)
    assert "unknown padding 0" in rejected(model(struct.pack("<3i", 0, 2, 2)), None)
    assert "strides must be positive, got 0x2" in rejected(model(struct.pack("<3i", SAME, 2, 0)),
                                                           None)
    assert "weights take 3 input channels, input has 2" in rejected(model(ok, (4, 3, 3, 3)), None)
    assert "weights have 4 output channels, bias 5" in rejected(model(ok, bshape=(5,)), None)
    assert "only float32" in rejected(model(ok, btype=np.int32), None)
    assert "too large" in rejected(model(struct.pack("<3i", VALID, 2**30, 1)), None)
    assert "Node number 0 (Convolution2DTransposeBias) failed to prepare" in rejected(
        model(ok[:4]), None)


# --- MaxPoolingWithArgmax2D / MaxUnpooling2D -----------------------------------------


def np_pool_argmax(x, pad, sh, sw, fh, fw, act):
    """MediaPipe's MaxPoolArgmax: first maximum in the window, index counted from the window
    origin (padding included) plus 0.1, -FLT_MAX start, clamp to finite activation bounds."""
    n, h, w, ch = x.shape
    oh, ow = out_size(pad, h, fh, sh), out_size(pad, w, fw, sw)
    ph, pw = pool_pad(h, fh, sh, oh), pool_pad(w, fw, sw, ow)
    lo = max(ACTS[act][0], -np.finfo(F32).max)
    hi = min(ACTS[act][1], np.finfo(F32).max)
    out = np.zeros((n, oh, ow, ch), F32)
    idx = np.zeros((n, oh, ow, ch), F32)
    for b in range(n):
        for oy in range(oh):
            for ox in range(ow):
                for c in range(ch):
                    m, at = -np.finfo(F32).max, 0
                    for fy in range(fh):
                        for fx in range(fw):
                            iy, ix = oy * sh - ph + fy, ox * sw - pw + fx
                            if 0 <= iy < h and 0 <= ix < w and x[b, iy, ix, c] > m:
                                m, at = x[b, iy, ix, c], fy * fw + fx
                    out[b, oy, ox, c] = min(max(m, lo), hi)
                    idx[b, oy, ox, c] = F32(at) + F32(0.1)
    return out, idx


def np_unpool(x, idx, sh, sw, fh, fw):
    """MediaPipe's MaxUnpooling: zeros, then each value written where its truncated index
    points (row-major order, later wins); indices outside the window or the output skipped."""
    n, h, w, ch = x.shape
    oh, ow = h * fh, w * fw
    ph, pw = pool_pad(oh, fh, sh, h), pool_pad(ow, fw, sw, w)
    out = np.zeros((n, oh, ow, ch), F32)
    for b in range(n):
        for iy in range(h):
            for ix in range(w):
                for c in range(ch):
                    v = idx[b, iy, ix, c]
                    if not (0 <= v < fh * fw):
                        continue
                    k = int(v)
                    oy, ox = iy * sh - ph + k // fw, ix * sw - pw + k % fw
                    if 0 <= oy < oh and 0 <= ox < ow:
                        out[b, oy, ox, c] = x[b, iy, ix, c]
    return out


def pool_model(shape, opts, pool_shape):
    b = ModelBuilder()
    x = b.tensor("x", list(shape), F32)
    y = b.tensor("y", list(pool_shape), F32)
    i = b.tensor("indices", list(pool_shape), F32)
    b.op("CUSTOM", [x], [y, i], custom_code="MaxPoolingWithArgmax2D", custom_options=opts)
    b.inputs([x])
    b.outputs([y, i])
    return b.build()


def builtin_max_pool(shape, pad, sh, sw, fh, fw, act, pool_shape):
    b = ModelBuilder()
    x = b.tensor("x", list(shape), F32)
    y = b.tensor("y", list(pool_shape), F32)
    b.op("MAX_POOL_2D", [x], [y], padding=S.Padding.SAME if pad == SAME else S.Padding.VALID,
         strideH=sh, strideW=sw, filterHeight=fh, filterWidth=fw, fusedActivationFunction=act)
    b.inputs([x])
    b.outputs([y])
    return b.build()


@st.composite
def pool_case(draw):
    i = st.integers
    pad = draw(st.sampled_from([SAME, VALID]))
    fh, fw = draw(i(1, 4)), draw(i(1, 4))
    h, w = draw(i(fh if pad == VALID else 1, 8)), draw(i(fw if pad == VALID else 1, 8))
    return dict(shape=(draw(i(1, 2)), h, w, draw(i(1, 5))), pad=pad, sh=draw(i(1, 3)),
                sw=draw(i(1, 3)), fh=fh, fw=fw, act=draw(st.sampled_from([0, 1, 2, 3])))


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(c=pool_case(), seed=st.integers(0, 2**32 - 1), ties=st.booleans())
def test_max_pool_argmax(mode, c, seed, ties):
    """Values against the oracle's MAX_POOL_2D; indices against np_pool_argmax (ties: few
    distinct values, so the first-maximum rule matters)."""
    rng = np.random.default_rng(seed)
    x = rand(rng, c["shape"])
    if ties:
        x = np.round(x).astype(F32)
    n, h, w, ch = c["shape"]
    geo = (c["pad"], c["sh"], c["sw"], c["fh"], c["fw"], c["act"])
    want, want_idx = np_pool_argmax(x, *geo)
    pool_shape = want.shape
    got, got_idx = ours(pool_model(c["shape"], pool_options(*geo), pool_shape), [x], mode)
    ref = oracle.run_oracle(builtin_max_pool(c["shape"], *geo, pool_shape), [x], mode)
    oracle.assert_outputs_match([got], ref)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_idx, want_idx)


def unpool_model(shape, opts, indices_shape=None, itype=F32):
    b = ModelBuilder()
    x = b.tensor("x", list(shape), F32)
    i = b.tensor("indices", list(indices_shape or shape), itype)
    n, h, w, c = shape
    fw, fh = struct.unpack("<6i", opts[:24])[3:5] if len(opts) >= 24 else (1, 1)
    y = b.tensor("y", [n, h * fh, w * fw, c], F32)
    b.op("CUSTOM", [x, i], [y], custom_code="MaxUnpooling2D", custom_options=opts)
    b.inputs([x, i])
    b.outputs([y])
    return b.build()


@settings(max_examples=30, deadline=None)
@given(c=pool_case(), seed=st.integers(0, 2**32 - 1), wild=st.booleans())
def test_max_unpooling(c, seed, wild):
    """Against np_unpool; wild indices (negative, NaN, past the window) are skipped, never
    written out of bounds."""
    rng = np.random.default_rng(seed)
    x = rand(rng, c["shape"])
    k = c["fh"] * c["fw"]
    idx = (rng.integers(0, k, c["shape"]) + 0.1).astype(F32)
    if wild:
        idx = rng.choice(np.array([-1.0, np.nan, np.inf, k, k + 0.5, 2.0**40, 0.1, 1.1], F32),
                         c["shape"])
    geo = (c["pad"], c["sh"], c["sw"], c["fh"], c["fw"], c["act"])
    got, = ours(unpool_model(c["shape"], pool_options(*geo)), [x, idx])
    np.testing.assert_array_equal(got, np_unpool(x, idx, c["sh"], c["sw"], c["fh"], c["fw"]))


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("shape", [(1, 6, 8, 3), (2, 4, 4, 1)])
def test_unpool_of_pool_round_trip(mode, shape):
    """SegNet-style 2x2/2 pool then unpool in one graph: each window keeps its maximum in
    place and zeros elsewhere (distinct values: the maximum is unique)."""
    rng = np.random.default_rng(3)
    x = rng.permutation(np.prod(shape)).reshape(shape).astype(F32)
    opts = pool_options(SAME, 2, 2, 2, 2)
    n, h, w, c = shape
    b = ModelBuilder()
    xi = b.tensor("x", list(shape), F32)
    p = b.tensor("p", [n, h // 2, w // 2, c], F32)
    i = b.tensor("i", [n, h // 2, w // 2, c], F32)
    y = b.tensor("y", list(shape), F32)
    b.op("CUSTOM", [xi], [p, i], custom_code="MaxPoolingWithArgmax2D", custom_options=opts)
    b.op("CUSTOM", [p, i], [y], custom_code="MaxUnpooling2D", custom_options=opts)
    b.inputs([xi])
    b.outputs([y])
    got, = ours(b.build(), [x], mode)
    win = x.reshape(n, h // 2, 2, w // 2, 2, c)
    keep = win == win.max(axis=(2, 4), keepdims=True)
    np.testing.assert_array_equal(got, np.where(keep, win, 0).reshape(shape))


def test_pool_ops_reject():
    ok = pool_options(SAME, 2, 2, 2, 2)
    shape, pshape = (1, 4, 4, 2), (1, 2, 2, 2)
    assert "custom options hold 20 bytes, need 24" in rejected(
        pool_model(shape, ok[:20], pshape), None)
    assert "unknown padding 3" in rejected(pool_model(shape, pool_options(3, 2, 2, 2, 2), pshape),
                                           None)
    assert "strides must be positive, got -1x2" in rejected(
        pool_model(shape, pool_options(SAME, -1, 2, 2, 2), pshape), None)
    assert "filter size must be positive, got 2x0" in rejected(
        pool_model(shape, pool_options(SAME, 2, 2, 2, 0), pshape), None)
    assert "too large for float32 indices" in rejected(
        pool_model(shape, pool_options(SAME, 1, 1, 2**13, 2**13), pshape), None)
    assert "unknown activation 9" in rejected(
        pool_model(shape, pool_options(SAME, 2, 2, 2, 2, 9), pshape), None)
    assert "input must be 4-D" in rejected(pool_model((4, 4, 2), ok, (2, 2, 2)), None)
    assert "indices dim 2 is 3, input's 4" in rejected(
        unpool_model(shape, ok, (1, 4, 3, 2)), None)
    assert "must be float32" in rejected(unpool_model(shape, ok, itype=np.int32), None)
    assert "custom options hold 0 bytes" in rejected(unpool_model(shape, b""), None)
    assert "is too large" in rejected(
        unpool_model((1, 200, 1, 1), pool_options(SAME, 2**24, 1, 1, 1)), None)
    assert "strides 33554432x1 are too large" in rejected(
        unpool_model(shape, pool_options(SAME, 2**25, 1, 1, 1)), None)


# --- resolution ----------------------------------------------------------------------


def test_user_registration_overrides_builtin(lib):  # noqa: F811
    """A user op named like a built-in replaces it (the built-in's node state is freed):
    the fixture's add under the name Convolution2DTransposeBias adds its two inputs, where
    the built-in would refuse two inputs."""
    model = two_input_model(None, custom="Convolution2DTransposeBias")
    assert "Node number 0 (Convolution2DTransposeBias) failed to prepare" in rejected(model, None)
    xs = [rand(np.random.default_rng(4), (2, 3)) for _ in range(2)]
    it = tff.InterpreterWithCustomOps(
        custom_op_registerers=[f"Convolution2DTransposeBias={lib}:register_unnamed_add"],
        model_content=model)
    got, = run(it, *xs)
    np.testing.assert_array_equal(got, xs[0] + xs[1])


# --- TransformTensorBilinear ---------------------------------------------------------


def np_transform_bilinear(img, m, oh, ow, align_corners=True):
    """MediaPipe's TransformTensorBilinearV2 (align_corners) or V1 with its float / double
    mix: f32 dot products, the align-corners shift and the interpolation weights in double,
    stored as float."""
    f32, f64 = F32, np.float64
    _, h, w, ch = img.shape
    xs, ys = [f32(v) for v in m[:4]], [f32(v) for v in m[4:8]]
    if align_corners:
        xs[3] = f32(f64(xs[3]) + (f64(xs[0]) * 0.5 + f64(xs[1]) * 0.5 - 0.5))
        ys[3] = f32(f64(ys[3]) + (f64(ys[0]) * 0.5 + f64(ys[1]) * 0.5 - 0.5))
    out = np.zeros((1, oh, ow, ch), F32)

    def px(r, c):
        return img[0, r, c] if 0 <= r < h and 0 <= c < w else np.zeros(ch, F32)

    with np.errstate(invalid="ignore", over="ignore"):
        for oy in range(oh):
            for ox in range(ow):
                fx, fy = f32(ox), f32(oy)
                u = xs[0] * fx + xs[1] * fy + xs[2] * f32(0) + xs[3] * f32(1)
                v = ys[0] * fx + ys[1] * fy + ys[2] * f32(0) + ys[3] * f32(1)
                if not (0 <= u <= w - 1 and 0 <= v <= h - 1):
                    continue
                u0, v0 = np.floor(u), np.floor(v)
                c0, r0 = int(u0), int(v0)
                right, lower = f32(u - u0), f32(v - v0)
                top = ((1.0 - f64(right)) * px(r0, c0).astype(f64)
                       + (right * px(r0, c0 + 1)).astype(f64)).astype(F32)
                bot = ((1.0 - f64(right)) * px(r0 + 1, c0).astype(f64)
                       + (right * px(r0 + 1, c0 + 1)).astype(f64)).astype(F32)
                out[0, oy, ox] = ((lower * bot).astype(f64)
                                  + (1.0 - f64(lower)) * top.astype(f64)).astype(F32)
    return out


def transform_tensor_model(ishape, oshape, mshape=(1, 4, 4), mtype=F32, version=2,
                           name=None, options=None):
    """Version 2 (TransformTensorBilinear) or 1 (TransformTensor, FlexBuffer options {mode,
    output_size} unless `options` are given)."""
    b = ModelBuilder()
    x = b.tensor("image", list(ishape), F32)
    m = b.tensor("matrix", list(mshape), mtype)
    y = b.tensor("crop", list(oshape), F32)
    if options is None:
        # v2's flexbuffer options {output_height, output_width} are not read (the kernel
        # reads the output tensor's shape instead), so any bytes do
        options = (flexbuffers.Dumps({"mode": "bilinear", "output_size": list(oshape[1:3])})
                   if version == 1 else b"\x00")
    name = name or ("TransformTensor" if version == 1 else "TransformTensorBilinear")
    b.op("CUSTOM", [x, m], [y], custom_code=name, version=version, custom_options=options)
    b.inputs([x, m])
    b.outputs([y])
    return b.build()


@st.composite
def crop_case(draw):
    i = st.integers
    h, w, oh, ow, ch = draw(i(1, 9)), draw(i(1, 9)), draw(i(1, 7)), draw(i(1, 7)), draw(i(1, 4))
    angle = draw(st.floats(-np.pi, np.pi))
    sx, sy = draw(st.floats(0.1, 2.0)), draw(st.floats(0.1, 2.0))
    tx, ty = draw(st.floats(-3, w + 2)), draw(st.floats(-3, h + 2))
    m = np.eye(4)
    m[0, :2] = [sx * np.cos(angle), -sy * np.sin(angle)]
    m[1, :2] = [sx * np.sin(angle), sy * np.cos(angle)]
    m[0, 3], m[1, 3] = tx, ty
    if draw(st.booleans()):  # pixel-aligned: integer coordinates, edges exactly reached
        m[:2, :2], m[0, 3], m[1, 3] = np.eye(2), draw(i(-1, 2)) + 0.5, draw(i(-1, 2)) + 0.5
    return (1, h, w, ch), (1, oh, ow, ch), m.astype(F32)


@settings(max_examples=40, deadline=None)
@given(c=crop_case(), seed=st.integers(0, 2**32 - 1), version=st.sampled_from([1, 2]))
def test_transform_tensor_bilinear(c, seed, version):
    ishape, oshape, m = c
    img = rand(np.random.default_rng(seed), ishape)
    got = ours(transform_tensor_model(ishape, oshape, version=version), [img, m[None]])
    oracle.assert_outputs_match(got, [np_transform_bilinear(img, m.ravel(), *oshape[1:3],
                                                            align_corners=version == 2)])


def crop_by_pad_slice(ishape, oshape, tx, ty):
    """The builtin graph of a pixel-aligned crop: PAD with zeros, then SLICE at (ty, tx)."""
    p = max(abs(tx), abs(ty)) + max(oshape[1:3])
    b = ModelBuilder()
    x = b.tensor("image", list(ishape), F32)
    padded = b.tensor("padded", [1, ishape[1] + 2 * p, ishape[2] + 2 * p, ishape[3]], F32)
    y = b.tensor("crop", list(oshape), F32)
    b.op("PAD", [x, b.const("pads", np.array([[0, 0], [p, p], [p, p], [0, 0]], np.int32))],
         [padded])
    b.op("SLICE", [padded, b.const("begin", np.array([0, ty + p, tx + p, 0], np.int32)),
                   b.const("size", np.array(oshape, np.int32))], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("tx,ty", [(0, 0), (1, 2), (-2, 1), (3, -1), (-4, -4)])
def test_transform_tensor_translation_matches_builtin(version, tx, ty):
    """An integer translation samples pixels exactly: the same as PAD + SLICE in the oracle
    (v2's align-corners shift cancels for a unit scale, so both versions agree)."""
    ishape, oshape = (1, 5, 6, 3), (1, 4, 3, 3)
    img = rand(np.random.default_rng([tx + 10, ty + 10]), ishape)
    m = np.eye(4, dtype=F32)
    m[0, 3], m[1, 3] = tx, ty
    got = ours(transform_tensor_model(ishape, oshape, version=version), [img, m[None]])
    ref = oracle.run_oracle(crop_by_pad_slice(ishape, oshape, tx, ty), [img], "default")
    np.testing.assert_array_equal(got[0], ref[0])


def test_transform_tensor_bilinear_nonfinite_matrix():
    """NaN / inf coordinates count as outside: zeros, no out-of-bounds read."""
    img = rand(np.random.default_rng(2), (1, 4, 4, 2))
    for bad in (np.nan, np.inf, -np.inf, 1e30):
        m = np.eye(4, dtype=F32)
        m[0, 3] = bad
        got, = ours(transform_tensor_model((1, 4, 4, 2), (1, 3, 3, 2)), [img, m[None]])
        np.testing.assert_array_equal(got, np.zeros((1, 3, 3, 2), F32))


def test_transform_tensor_bilinear_rejects():
    assert "output has 3 channels, image 2" in rejected(
        transform_tensor_model((1, 4, 4, 2), (1, 3, 3, 3)), None)
    assert "batch must be 1, got image 2" in rejected(
        transform_tensor_model((2, 4, 4, 2), (1, 3, 3, 2)), None)
    assert "the matrix needs 8 values (two rows of 4x4), has 4" in rejected(
        transform_tensor_model((1, 4, 4, 2), (1, 3, 3, 2), mshape=(1, 4)), None)
    assert "the matrix must be float32, got INT32" in rejected(
        transform_tensor_model((1, 4, 4, 2), (1, 3, 3, 2), mtype=np.int32), None)
    assert "must be 4-D" in rejected(transform_tensor_model((4, 4, 2), (1, 3, 3, 2)), None)


def test_transform_tensor_v1_rejects():
    shapes = (1, 4, 4, 2), (1, 3, 3, 2)
    assert 'TransformTensor: only mode "bilinear" is supported' in rejected(transform_tensor_model(
        *shapes, version=1, options=flexbuffers.Dumps({"mode": "nearest"})), None)
    assert "TransformTensor: custom options (3 bytes) are not a FlexBuffer map" in rejected(
        transform_tensor_model(*shapes, version=1, options=b"\x01\x02\x03"), None)
    assert "TransformTensor: output has 3 channels, image 2" in rejected(
        transform_tensor_model((1, 4, 4, 2), (1, 3, 3, 3), version=1), None)
    # MediaPipe registers TransformTensor as version 1 only, TransformTensorBilinear as 2 only
    for name, version in (("TransformTensorBilinear", 1), ("TransformTensor", 2)):
        assert f"Encountered unresolved custom op: {name}." in rejected(
            transform_tensor_model(*shapes, version=version, name=name), None)


def test_transform_tensor_v1_options_optional():
    """No options, or a map without mode, is bilinear (MediaPipe checks mode only if given)."""
    img = rand(np.random.default_rng(3), (1, 4, 4, 2))
    m = np.eye(4, dtype=F32)
    m[0, 1] = 0.3
    ref = np_transform_bilinear(img, m.ravel(), 3, 3, align_corners=False)
    for options in (b"", flexbuffers.Dumps({"output_size": [3, 3]})):
        got = ours(transform_tensor_model((1, 4, 4, 2), (1, 3, 3, 2), version=1, options=options),
                   [img, m[None]])
        oracle.assert_outputs_match(got, [ref])


# --- TransformLandmarks --------------------------------------------------------------


def np_transform_landmarks(lm, m):
    """MediaPipe's TransformLandmarksV2: the first two matrix rows dotted with (x, y, 0, 1)
    left to right in float32; z copied."""
    out = lm.copy()
    for i in range(lm.shape[1]):
        x, y = lm[0, i, 0], lm[0, i, 1]
        out[0, i, 0] = m[0] * x + m[1] * y + m[2] * F32(0) + m[3] * F32(1)
        out[0, i, 1] = m[4] * x + m[5] * y + m[6] * F32(0) + m[7] * F32(1)
    return out


def landmarks_model(shape, mshape=(1, 4, 4), dtype=F32, version=2, options=None):
    b = ModelBuilder()
    x = b.tensor("landmarks", list(shape), dtype)
    m = b.tensor("matrix", list(mshape), F32)
    y = b.tensor("out", list(shape), dtype)
    b.op("CUSTOM", [x, m], [y], custom_code="TransformLandmarks", version=version,
         custom_options=options)
    b.inputs([x, m])
    b.outputs([y])
    return b.build()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 40), dims=st.sampled_from([2, 3]), seed=st.integers(0, 2**32 - 1))
def test_transform_landmarks(n, dims, seed):
    rng = np.random.default_rng(seed)
    lm = (rng.uniform(-1, 300, (1, n, dims))).astype(F32)
    m = rng.standard_normal((4, 4)).astype(F32)
    got = ours(landmarks_model((1, n, dims)), [lm, m[None]])
    oracle.assert_outputs_match(got, [np_transform_landmarks(lm, m.ravel())])


def test_transform_landmarks_rejects():
    assert "must have 2 or 3 coordinates, got 4" in rejected(landmarks_model((1, 5, 4)), None)
    assert "batch must be 1, got 2" in rejected(landmarks_model((2, 5, 3)), None)
    assert "must be 3-D [1,N,D] (version 2); got rank 4" in rejected(
        landmarks_model((1, 1, 5, 3)), None)
    assert "unresolved custom op: TransformLandmarks." in rejected(
        landmarks_model((1, 5, 3), version=3), None)
    assert "the matrix needs 8 values" in rejected(landmarks_model((1, 5, 3), (2, 3)), None)
    assert "must be float32, got INT32" in rejected(
        landmarks_model((1, 5, 3), dtype=np.int32), None)


def np_transform_landmarks_v1(lm, m, dims, scale):
    """MediaPipe's TransformLandmarks v1: every run of `dims` channel values is a landmark;
    the translation column is scaled (M03 * scale in float32) before the same dot products."""
    flat = lm.reshape(1, -1, dims)
    mm = m.copy()
    mm[3], mm[7] = m[3] * F32(scale), m[7] * F32(scale)
    return np_transform_landmarks(flat, mm).reshape(lm.shape)


def landmarks_by_matmul(shape, dims):
    """The builtin graph: RESHAPE to [N, dims], BATCH_MATMUL by A, ADD t, RESHAPE back; A
    and t (from the matrix and scale) are inputs."""
    n = int(np.prod(shape)) // dims
    b = ModelBuilder()
    x = b.tensor("landmarks", list(shape), F32)
    a = b.tensor("a", [dims, dims], F32)
    t = b.tensor("t", [dims], F32)
    rows, prod, moved = (b.tensor(k, [n, dims], F32) for k in ("rows", "prod", "moved"))
    y = b.tensor("out", list(shape), F32)
    b.op("RESHAPE", [x, b.const("s1", np.array([n, dims], np.int32))], [rows])
    b.op("BATCH_MATMUL", [rows, a], [prod])
    b.op("ADD", [prod, t], [moved])
    b.op("RESHAPE", [moved, b.const("s2", np.array(shape, np.int32))], [y])
    b.inputs([x, a, t])
    b.outputs([y])
    return b.build()


def matmul_inputs(m, dims, scale):
    """(A, t) with rows @ A + t = (M00 x + M01 y + t0, M10 x + M11 y + t1[, z])."""
    a = np.zeros((dims, dims), F32)
    a[0, 0], a[1, 0], a[0, 1], a[1, 1] = m[0], m[1], m[4], m[5]
    if dims == 3:
        a[2, 2] = 1
    t = np.zeros(dims, F32)
    t[0], t[1] = m[3] * F32(scale), m[7] * F32(scale)
    return a, t


@settings(max_examples=30, deadline=None)
@given(h=st.integers(1, 3), w=st.integers(1, 3), per_pixel=st.integers(1, 3),
       dims=st.sampled_from([2, 3]), scale=st.sampled_from([1.0, 0.5, -2.0, 256.0]),
       spelled=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_transform_landmarks_v1(h, w, per_pixel, dims, scale, spelled, seed):
    """4-D landmarks with FlexBuffer options {dimensions, scale}; absent options mean
    dimensions 3 and scale 1. Against the numpy formulation and the oracle's builtin graph."""
    if not spelled:
        dims, scale = 3, 1.0
    rng = np.random.default_rng(seed)
    shape = (1, h, w, per_pixel * dims)
    lm = rng.uniform(-1, 300, shape).astype(F32)
    m = rng.standard_normal((4, 4)).astype(F32)
    options = flexbuffers.Dumps({"dimensions": dims, "scale": scale}) if spelled else None
    got = ours(landmarks_model(shape, version=1, options=options), [lm, m[None]])
    oracle.assert_outputs_match(got, [np_transform_landmarks_v1(lm, m.ravel(), dims, scale)])
    ref = oracle.run_oracle(landmarks_by_matmul(shape, dims),
                            [lm, *matmul_inputs(m.ravel(), dims, scale)], "default")
    oracle.assert_outputs_match(got, ref)


def test_transform_landmarks_v1_rejects():
    def opts(**kw):
        return flexbuffers.Dumps(kw)

    shape = (1, 2, 2, 6)
    assert "option dimensions must be 2 or 3, got 4" in rejected(
        landmarks_model((1, 2, 2, 8), version=1, options=opts(dimensions=4)), None)
    assert "option scale must not be 0" in rejected(
        landmarks_model(shape, version=1, options=opts(scale=0.0)), None)
    assert "5 channels do not hold landmarks of 3 coordinates" in rejected(
        landmarks_model((1, 2, 2, 5), version=1), None)
    assert "option 'dimensions' must be a 32-bit integer" in rejected(
        landmarks_model(shape, version=1, options=opts(dimensions="two")), None)
    assert "option 'scale' must be a number" in rejected(
        landmarks_model(shape, version=1, options=opts(scale=[1, 2])), None)
    assert "custom options (2 bytes) are not a FlexBuffer map" in rejected(
        landmarks_model(shape, version=1, options=b"\x05\x01"), None)
    assert "must be 4-D [1,H,W,C] (version 1); got rank 3" in rejected(
        landmarks_model((1, 4, 3), version=1), None)
    assert "batch must be 1, got 2" in rejected(landmarks_model((2, 1, 1, 3), version=1), None)


def test_flexbuffer_options_never_read_out_of_bounds():
    """Every truncation and single-byte corruption of v1 options either works or fails
    prepare with a message; the reader never trusts an offset, width or count."""
    good = flexbuffers.Dumps({"dimensions": 2, "scale": 0.5, "mode": "bilinear",
                              "output_size": [3, 3]})
    variants = [good[:k] for k in range(len(good))]
    variants += [good[:k] + bytes([v]) + good[k + 1:] for k in range(len(good))
                 for v in (0x00, 0x07, 0x7F, 0xFF)]
    outcomes = set()
    for options in variants:
        it = tff.Interpreter(model_content=landmarks_model((1, 1, 1, 6), version=1,
                                                           options=options))
        try:
            it.allocate_tensors()
            outcomes.add("ok")
        except RuntimeError as e:
            assert "TransformLandmarks: " in str(e)
            outcomes.add("rejected")
    assert outcomes == {"ok", "rejected"}


# --- Landmarks2TransformMatrix -------------------------------------------------------


def typed_map(**options):
    """A FlexBuffer map with int lists as typed vectors, as MediaPipe's options hold them
    (flexbuffers.Dumps writes untyped vectors, which MediaPipe's AsTypedVector reads empty)."""
    b = flexbuffers.Builder()
    with b.Map():
        for key, value in options.items():
            b.Key(key)
            if isinstance(value, list):
                b.TypedVectorFromElements(value)
            else:
                b.Add(value)
    return bytes(b.Finish())


def l2tm_model(shape, version, options, dtype=F32, inputs=1):
    b = ModelBuilder()
    xs = [b.tensor("landmarks%d" % i, list(shape), dtype) for i in range(inputs)]
    y = b.tensor("matrix", [1, 4, 4], F32)
    b.op("CUSTOM", xs, [y], custom_code="Landmarks2TransformMatrix", version=version,
         custom_options=options)
    b.inputs(xs)
    b.outputs([y])
    return b.build()


def rot2(a):
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def affine4(a=np.eye(2), t=(0.0, 0.0)):
    """The 4x4 matrix acting as the 2x2 `a` plus translation t on (x, y), z kept."""
    m = np.eye(4)
    m[:2, :2], m[:2, 3] = a, t
    return m


def np_l2tm_v2(lm, o):
    """Landmarks2TransformMatrix v2 in float64, from its definition: the rotation r turns
    the left->right landmark direction to target_rotation_radians; the subset's bounding
    box in that rotated frame (size w x h, centre c rotated back) gives the crop, and the
    matrix maps output pixels (centred, scaled by scale * box / output size, rotated by -r)
    to input coordinates. Landmark i is values 3i, 3i+1 of the flat tensor."""
    p = lm.astype(np.float64).ravel()
    xy = [p[3 * i:3 * i + 2] for i in range(p.size // 3)]
    d = xy[o["right_rotation_idx"]] - xy[o["left_rotation_idx"]]
    r = float(F32(o["target_rotation_radians"])) - np.arctan2(d[1], d[0])
    pts = np.array([xy[i] for i in o["subset_idxs"]]) @ rot2(r).T
    lo, hi = pts.min(0), pts.max(0)
    centre = rot2(-r) @ ((lo + hi) / 2)
    ow, oh = o["output_width"], o["output_height"]
    size = np.array([float(F32(o["scale_x"])) / ow, float(F32(o["scale_y"])) / oh]) * (hi - lo)
    m = (affine4(t=centre) @ affine4(rot2(-r)) @ affine4(np.diag(size))
         @ affine4(t=(-ow / 2, -oh / 2)))
    return m.astype(F32)[None]


def np_l2tm_v1(lm, o):
    """Landmarks2TransformMatrix v1 in float64, from its definition: a = -atan of the
    left->right slope; the subset rotated by a spans a box (bounds starting at -+1e5),
    scaled by bbox_size_multiplier; a 3x3 matrix takes output pixels to [-1, 1], scales by
    the box / landmarks_range, rotates by -a about the box centre (in [-1, 1] units of
    landmarks_range) and maps [-1, 1] to input pixels; embedded in 4x4, z kept."""
    p = lm.astype(np.float64).ravel()
    xy = [p[3 * i:3 * i + 2] for i in range(p.size // 3)]
    d = xy[o["right_rotation_idx"]] - xy[o["left_rotation_idx"]]
    with np.errstate(divide="ignore"):
        a = -np.arctan(d[1] / d[0])
    pts = np.array([xy[i] for i in o["subset"]]) @ rot2(a).T
    hi, lo = np.maximum(pts.max(0), -1e5), np.minimum(pts.min(0), 1e5)
    n, k = o["landmarks_range"], float(F32(o["bbox_size_multiplier"]))
    (ih, iw), (oh, ow) = o["input_hw"][:2], o["output_hw"][:2]
    rotation = np.eye(3)
    rotation[:2, :2] = rot2(-a)
    rotation[:2, 2] = rot2(-a) @ ((hi + lo) / 2) / n * 2 - 1
    scale = np.diag([*((hi - lo) * k / n), 1.0])
    to_relative = np.array([[2 / (ow - 1), 0, -1], [0, 2 / (oh - 1), -1], [0, 0, 1]])
    to_absolute = np.array([[(iw - 1) / 2, 0, (iw - 1) / 2], [0, (ih - 1) / 2, (ih - 1) / 2],
                            [0, 0, 1]])
    itm = to_absolute @ rotation @ scale @ to_relative
    m = np.eye(4)
    m[:2, :2], m[:2, 3], m[2, :3] = itm[:2, :2], itm[:2, 2], itm[2]
    return m.astype(F32)[None]


def run_l2tm(lm, version, o):
    return ours(l2tm_model(lm.shape, version, typed_map(**o)), [lm])


f32s = st.floats(0.25, 4.0, width=32)


@st.composite
def l2tm_case(draw, version):
    """(landmarks, options): n landmarks of 3 values (plus 0..2 unread trailing values),
    indices in range, the rotation pair distinct (v1 divides by their x difference)."""
    n = draw(st.integers(2, 40))
    extra = draw(st.integers(0, 2))
    idx = st.integers(0, n - 1)
    left = draw(idx)
    right = draw(idx.filter(lambda i: i != left))
    subset = draw(st.lists(idx, min_size=1, max_size=12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([1.0, 256.0, 1000.0]))
    values = rng.uniform(-0.2, 1.2, 3 * n + extra) * scale
    o = dict(left_rotation_idx=left, right_rotation_idx=right)
    if version == 2:
        shape = (1, n, 3) if not extra else draw(st.sampled_from([(1, 1, 3 * n + extra),
                                                                  (3 * n + extra, 1, 1)]))
        o.update(subset_idxs=subset, output_height=draw(st.integers(1, 512)),
                 output_width=draw(st.integers(1, 512)), scale_x=draw(f32s),
                 scale_y=draw(f32s),
                 target_rotation_radians=draw(st.floats(-7, 7, width=32)))
    else:
        shape = (1, 1, 1, 3 * n + extra)
        o.update(subset=subset, dimensions=3, landmarks_range=draw(st.sampled_from([1, 256])),
                 bbox_size_multiplier=draw(st.sampled_from([1.0, 1.5, 0.25, -2.0])),
                 input_hw=[draw(st.integers(1, 1080)), draw(st.integers(1, 1920))],
                 output_hw=[draw(st.integers(2, 512)), draw(st.integers(2, 512))])
    return values.astype(F32).reshape(shape), o


@settings(max_examples=60, deadline=None)
@given(c=l2tm_case(2))
def test_landmarks_to_transform_matrix_v2(c):
    lm, o = c
    oracle.assert_outputs_match(run_l2tm(lm, 2, o), [np_l2tm_v2(lm, o)])


@settings(max_examples=60, deadline=None)
@given(c=l2tm_case(1))
def test_landmarks_to_transform_matrix_v1(c):
    """The translation column sums terms as large as half the input size, which cancel when
    the box centre nears the crop edge: float32 rounding is relative to those terms, so the
    absolute tolerance scales with the input size as well as with the result."""
    lm, o = c
    (got,), ref = run_l2tm(lm, 1, o), np_l2tm_v1(lm, o)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    terms = max(np.abs(ref).max(), max(o["input_hw"]) / 2)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5 * terms)


def face_like_case(version):
    """A rotated square of landmarks, the rotation pair two of its corners."""
    corners = np.array([[100.0, 50.0], [180.0, 90.0], [140.0, 170.0], [60.0, 130.0]])
    lm = np.concatenate([corners, np.zeros((4, 1))], 1).astype(F32)
    o = dict(left_rotation_idx=0, right_rotation_idx=1)
    if version == 2:
        o.update(subset_idxs=[0, 1, 2, 3, 2], output_height=192, output_width=192, scale_x=1.5,
                 scale_y=1.5, target_rotation_radians=0.0)
        return lm[None], o
    o.update(subset=[0, 1, 2], dimensions=3, landmarks_range=256, bbox_size_multiplier=1.5,
             input_hw=[256, 256], output_hw=[192, 192])
    return lm.reshape(1, 1, 1, 12), o


@pytest.mark.parametrize("version", [1, 2])
def test_landmarks_to_transform_matrix_known_geometry(version):
    """A square crop: v2 maps the output's centre pixel to the square's centre and its
    corner (0, 0) along the square's edge direction; odd subsets repeat their last index."""
    lm, o = face_like_case(version)
    got = run_l2tm(lm, version, o)[0][0].astype(np.float64)
    ref = (np_l2tm_v2 if version == 2 else np_l2tm_v1)(lm, o)[0]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-4)
    if version == 2:
        np.testing.assert_allclose(got @ [96, 96, 0, 1], [120, 110, 0, 1], atol=1e-3)
        side = np.hypot(80, 40) * 1.5  # the square's side in the rotated frame, scaled
        corner = got @ [0, 0, 0, 1]
        np.testing.assert_allclose(np.hypot(*(corner[:2] - [120, 110])), side / np.sqrt(2),
                                   rtol=1e-5)


def test_landmarks_to_transform_matrix_degenerate_inputs_run():
    """Values MediaPipe runs on without a failure: v1's left == right (0 / 0 slope) and
    output_hw 1 (2 / 0), non-finite landmarks, one-landmark subsets. They give NaN / inf
    or zero-sized boxes, never a crash."""
    lm = np.arange(12, dtype=F32).reshape(1, 1, 1, 12)
    v1 = dict(subset=[1], left_rotation_idx=2, right_rotation_idx=2, dimensions=3,
              landmarks_range=1, bbox_size_multiplier=1.0, input_hw=[1, 1], output_hw=[1, 1])
    out = run_l2tm(lm, 1, v1)[0]
    assert out.shape == (1, 4, 4) and out[0, 3, 3] == 1
    v2 = dict(subset_idxs=[3], left_rotation_idx=0, right_rotation_idx=0, output_height=1,
              output_width=1, scale_x=1.0, scale_y=1.0)
    bad = lm.reshape(1, 4, 3).copy()
    bad[0, 3] = [np.inf, np.nan, 0]
    for x in (lm.reshape(1, 4, 3), bad):
        out = run_l2tm(x, 2, v2)[0]
        assert out.shape == (1, 4, 4)
    # a one-landmark box is empty: v2 rotates about it with zero scale
    np.testing.assert_allclose(run_l2tm(lm.reshape(1, 4, 3), 2, v2)[0][0, :2, :],
                               [[0, 0, 0, 9], [0, 0, 0, 10]], atol=1e-5)


V2_OPTIONS = dict(subset_idxs=[0, 1, 2], left_rotation_idx=0, right_rotation_idx=1,
                  output_height=64, output_width=64, scale_x=1.0, scale_y=1.0)
V1_OPTIONS = dict(subset=[0, 1, 2], left_rotation_idx=0, right_rotation_idx=1, dimensions=3,
                  landmarks_range=256, bbox_size_multiplier=1.0, input_hw=[64, 64],
                  output_hw=[32, 32])


def l2tm_rejected(version, shape=None, drop=(), dtype=F32, inputs=1, **changes):
    o = dict(V2_OPTIONS if version == 2 else V1_OPTIONS, **changes)
    for key in drop:
        del o[key]
    shape = shape or ((1, 4, 3) if version == 2 else (1, 1, 1, 12))
    return rejected(l2tm_model(shape, version, typed_map(**o), dtype, inputs), None)


def test_landmarks_to_transform_matrix_v2_rejects():
    assert "must be 3-D (version 2); got rank 4" in l2tm_rejected(2, (1, 1, 4, 3))
    assert "must be 3-D (version 2); got rank 2" in l2tm_rejected(2, (4, 3))
    assert "must be float32, got INT32" in l2tm_rejected(2, dtype=np.int32)
    assert "tff_num_inputs(node) != 1 (2 != 1)" in l2tm_rejected(2, inputs=2)
    # v2 reads all 3 values of a landmark: 4 x 3 values hold landmarks 0..3
    assert "option 'subset_idxs[2]' = 4 is out of range: landmark i reads values 3i..3i+2 " \
        "of 12" in l2tm_rejected(2, subset_idxs=[0, 1, 4])
    assert "of 11" in l2tm_rejected(2, (1, 1, 11), subset_idxs=[3])
    assert "option 'subset_idxs[1]' must be >= 0, got -1" in l2tm_rejected(2, subset_idxs=[0, -1])
    assert "option 'left_rotation_idx' = 4 is out of range" in l2tm_rejected(
        2, left_rotation_idx=4)
    assert "option 'right_rotation_idx' must be >= 0, got -2" in l2tm_rejected(
        2, right_rotation_idx=-2)
    assert "option 'subset_idxs' is empty" in l2tm_rejected(2, drop=["subset_idxs"])
    assert "option 'subset_idxs' is empty" in l2tm_rejected(2, subset_idxs=[])
    assert "output_height and output_width must be > 0, got 0, 64" in l2tm_rejected(
        2, output_height=0)
    assert "output_height and output_width must be > 0, got 64, -3" in l2tm_rejected(
        2, output_width=-3)
    assert "output_height and output_width must be > 0, got 0, 64" in l2tm_rejected(
        2, drop=["output_height"])
    assert "scale_x and scale_y must be > 0, got 0, 1" in l2tm_rejected(2, drop=["scale_x"])
    assert "scale_x and scale_y must be > 0, got 1, -0.5" in l2tm_rejected(2, scale_y=-0.5)
    assert "option 'output_width' must be a 32-bit integer" in l2tm_rejected(
        2, output_width=2.5)
    assert "option 'scale_x' must be a number" in l2tm_rejected(2, scale_x="big")
    assert "option 'subset_idxs' must be a typed vector of integers" in l2tm_rejected(
        2, subset_idxs=7)
    untyped = flexbuffers.Dumps(dict(V2_OPTIONS))
    assert "option 'subset_idxs' must be a typed vector of integers" in rejected(
        l2tm_model((1, 4, 3), 2, untyped), None)
    assert "option 'subset_idxs'[1] must be a 32-bit integer" in l2tm_rejected(
        2, subset_idxs=[0.0, 1.5])
    assert "unresolved custom op: Landmarks2TransformMatrix." in rejected(
        l2tm_model((1, 4, 3), 3, typed_map(**V2_OPTIONS)), None)


def test_landmarks_to_transform_matrix_v1_rejects():
    assert "must be 4-D (version 1); got rank 3" in l2tm_rejected(1, (1, 4, 3))
    assert "version 1 landmarks must be [1,1,1,C], got [1,2,1,6]" in l2tm_rejected(
        1, (1, 2, 1, 6))
    assert "version 1 landmarks must be [1,1,1,C], got [2,1,1,12]" in l2tm_rejected(
        1, (2, 1, 1, 12))
    # v1 reads x and y only: 11 values still hold landmark 3 (values 9, 10)
    assert "option 'subset[0]' = 4 is out of range: landmark i reads values 3i..3i+1 of 11" \
        in l2tm_rejected(1, (1, 1, 1, 11), subset=[4])
    assert "option 'subset[2]' must be >= 0, got -1" in l2tm_rejected(1, subset=[0, 1, -1])
    assert "option 'right_rotation_idx' = 9 is out of range" in l2tm_rejected(
        1, right_rotation_idx=9)
    assert "option 'subset' is empty" in l2tm_rejected(1, subset=[])
    assert "option dimensions must be 3, got 2" in l2tm_rejected(1, dimensions=2)
    assert "option dimensions must be 3, got 0" in l2tm_rejected(1, drop=["dimensions"])
    assert "option landmarks_range must be > 0, got 0" in l2tm_rejected(1, landmarks_range=0)
    assert "option bbox_size_multiplier must not be 0" in l2tm_rejected(
        1, drop=["bbox_size_multiplier"])
    assert "option 'input_hw' must be [h, w] > 0, got h = 64 w = 0" in l2tm_rejected(
        1, input_hw=[64])
    assert "option 'input_hw' must be [h, w] > 0, got h = 0 w = 0" in l2tm_rejected(
        1, drop=["input_hw"])
    assert "option 'output_hw' must be [h, w] > 0, got h = -1 w = 5" in l2tm_rejected(
        1, output_hw=[-1, 5])
    assert "option 'output_hw' must be a typed vector of integers" in l2tm_rejected(
        1, output_hw="32x32")
    # a third entry is ignored, as MediaPipe reads only [0] and [1]
    it = tff.Interpreter(model_content=l2tm_model(
        (1, 1, 1, 12), 1, typed_map(**dict(V1_OPTIONS, input_hw=[64, 64, 3]))))
    it.allocate_tensors()


@pytest.mark.parametrize("version", [1, 2])
def test_landmarks_to_transform_matrix_options_never_read_out_of_bounds(version):
    """Every truncation and single-byte corruption of the options works or fails prepare
    with a message naming the op; none reads outside the buffer or past the landmarks."""
    good = typed_map(**(V2_OPTIONS if version == 2 else V1_OPTIONS))
    variants = [good[:k] for k in range(len(good))]
    variants += [good[:k] + bytes([v]) + good[k + 1:] for k in range(len(good))
                 for v in (0x00, 0x01, 0x07, 0x7F, 0x80, 0xFF)]
    shape = (1, 4, 3) if version == 2 else (1, 1, 1, 12)
    lm = np.arange(12, dtype=F32).reshape(shape)
    outcomes = set()
    for options in variants:
        it = tff.Interpreter(model_content=l2tm_model(shape, version, options))
        try:
            it.allocate_tensors()
        except RuntimeError as e:
            assert "Landmarks2TransformMatrix: " in str(e)
            outcomes.add("rejected")
            continue
        it.set_tensor(it.get_input_details()[0]["index"], lm)
        it.invoke()
        outcomes.add("ok")
    assert outcomes == {"ok", "rejected"}


def test_landmarks_to_transform_matrix_reported_supported(tmp_path, capsys):
    """_get_ops_details names the op and `tflite-fast inspect` lists both versions as
    supported, like the other built-in MediaPipe ops."""
    for version in (1, 2):
        shape = (1, 4, 3) if version == 2 else (1, 1, 1, 12)
        model = l2tm_model(shape, version,
                           typed_map(**(V2_OPTIONS if version == 2 else V1_OPTIONS)))
        it = tff.Interpreter(model_content=model)
        assert [d["op_name"] for d in it._get_ops_details()] == ["Landmarks2TransformMatrix"]
        path = tmp_path / ("l2tm%d.tflite" % version)
        path.write_bytes(model)
        assert cli.main(["inspect", str(path), "--json"]) == 0
        ops = json.loads(capsys.readouterr().out)["subgraphs"][0]["ops"]
        assert [(op["op"], op["supported"]) for op in ops] == [("Landmarks2TransformMatrix",
                                                                 "yes")]
