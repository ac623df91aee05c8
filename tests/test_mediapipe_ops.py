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
"""

import struct

import numpy as np
import pytest
from flatbuffers import flexbuffers
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

import tflite_fast.interpreter as tff
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
