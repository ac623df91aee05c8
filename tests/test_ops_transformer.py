"""TRANSPOSE, NEG, RSQRT, SQUARED_DIFFERENCE, GELU, BATCH_MATMUL, RESIZE_BILINEAR and
TRANSPOSE_CONV against ai_edge_litert in both numerics modes, and the models that need
them (transformer_block_*, unet_small_*).

Where AUTO hands a node to XNNPACK depends on the node (checked with _get_ops_details):
int8 BATCH_MATMUL with rhs zero point 0, RESIZE_BILINEAR and TRANSPOSE_CONV whose size /
output_shape is a model constant go to XNNPACK; the others run TFLite's kernels. So each
quantized test draws both kinds: shape tensors given as constants, or computed by a
RESHAPE of a constant (known at prepare, but not a model constant).

Float GELU and BATCH_MATMUL are compared bit for bit (not just within 1e-5): they feed
hybrid FULLY_CONNECTEDs in transformer_block_hybrid, whose on-the-fly input quantization
turns an ulp into a visible output difference.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

IS_LITERT = oracle.ours_module() is oracle.oracle_module()
OWN_MESSAGES = pytest.mark.skipif(IS_LITERT, reason="tflite_fast's own messages")

f32 = np.float32
scales = st.integers(-300, 0).map(lambda k: float(f32(10.0 ** (k / 100))))
int8_zp = st.one_of(st.integers(-128, 127), st.sampled_from([-128, 127, 0]))


def rand(rng, shape, dtype, scale=1.0):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return (rng.standard_normal(shape) * scale).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(int(info.min), int(info.max), size=shape, endpoint=True).astype(dt)


def all_codes(shape, dtype, rng):
    """Random 8-bit codes with every code present when the shape holds 256 or more."""
    info = np.iinfo(dtype)
    n = int(np.prod(shape))
    codes = np.arange(int(info.min), int(info.max) + 1)
    x = np.concatenate([codes, rng.integers(int(info.min), int(info.max) + 1, max(0, n - 256))])
    return rng.permutation(x)[:n].astype(dtype).reshape(shape)


def assert_bits_equal(ours, ref, what):
    for o, r in zip(ours, ref):
        assert o.dtype == r.dtype and o.shape == r.shape, what
        bad = o.view(np.int32) != r.view(np.int32)
        assert not bad.any(), (f"{what}: {int(bad.sum())} of {r.size} floats differ in bits; "
                               f"first at {np.argwhere(bad)[0]}: ours {o[bad][0]!r}, ref {r[bad][0]!r}")


def check_bits(model, inputs, mode):
    ref = oracle.run_oracle(model, inputs, mode)
    ours = oracle.run_ours(model, inputs, mode)
    oracle.assert_outputs_match(ours, ref, f"mode={mode}")
    assert_bits_equal(ours, ref, f"mode={mode}")


def check_or_both_fail(model, inputs, mode):
    """oracle.check, except that a model the oracle refuses must be refused by ours too."""
    try:
        ref = oracle.run_oracle(model, inputs, mode)
    except (RuntimeError, ValueError):
        with pytest.raises((RuntimeError, ValueError)):
            oracle.run_ours(model, inputs, mode)
        return
    oracle.assert_outputs_match(oracle.run_ours(model, inputs, mode), ref, f"mode={mode}")


def shape_tensor(b, name, values, computed):
    """An INT32 vector input of an op: a model constant, or (computed) a RESHAPE of one,
    which is known at prepare but is no model constant (AUTO then keeps the op on TFLite's
    kernel)."""
    values = np.asarray(values, np.int32)
    if not computed:
        return b.const(name, values)
    c = b.const(name + "_c", values)
    ns = b.const(name + "_ns", np.array([values.size], np.int32))
    t = b.tensor(name, [values.size], np.int32)
    b.op("RESHAPE", [c, ns], [t])
    return t


def unary_model(op, shape, dtype, q_in=(None, None), q_out=(None, None), version=1, **options):
    b = ModelBuilder()
    x = b.tensor("x", shape, dtype, *q_in)
    y = b.tensor("y", shape, dtype, *q_out)
    b.op(op, [x], [y], version=version, **options)
    b.inputs([x])
    b.outputs([y])
    return b.build()


shapes = st.integers(0, 5).flatmap(lambda r: st.lists(st.integers(1, 5), min_size=r, max_size=r))

# --- TRANSPOSE -----------------------------------------------------------------------

TRANSPOSE_TYPES = [np.float32, np.int8, np.uint8, np.int16, np.int32, np.int64, np.bool_]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), rank=st.integers(1, 6), dtype=st.sampled_from(TRANSPOSE_TYPES),
       seed=st.integers(0, 2**32 - 1), const_input=st.booleans())
def test_transpose(mode, data, rank, dtype, seed, const_input):
    shape = data.draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    perm = data.draw(st.permutations(range(rank)))
    perm = [p - rank if data.draw(st.booleans()) else p for p in perm]  # negative axes
    rng = np.random.default_rng(seed)
    q = (0.5, -3) if dtype == np.int8 else (None, None)
    b = ModelBuilder()
    xv = rand(rng, shape, dtype)
    x = b.const("x", xv, *q) if const_input else b.tensor("x", shape, dtype, *q)
    p = b.const("perm", np.array(perm, np.int32))
    y = b.tensor("y", [shape[a] for a in perm], dtype, *q)
    b.op("TRANSPOSE", [x, p], [y], version=2 if dtype == np.int8 else 1)
    if const_input:  # something must read an input: add a second, trivial graph input
        z = b.tensor("z", [1], np.float32)
        b.inputs([z])
        b.outputs([y, z])
        oracle.check(b.build(), [np.zeros([1], np.float32)], mode)
        return
    b.inputs([x])
    b.outputs([y])
    oracle.check(b.build(), [xv], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_transpose_rank8(mode):
    rng = np.random.default_rng(3)
    shape, perm = [2, 1, 3, 2, 1, 2, 3, 2], [7, 0, 5, 2, 6, 1, 4, 3]
    b = ModelBuilder()
    x = b.tensor("x", shape, np.float32)
    p = b.const("perm", np.array(perm, np.int32))
    y = b.tensor("y", [shape[a] for a in perm], np.float32)
    b.op("TRANSPOSE", [x, p], [y])
    b.inputs([x])
    b.outputs([y])
    oracle.check(b.build(), [rand(rng, shape, np.float32)], mode)


@OWN_MESSAGES
def test_transpose_repeated_axis():
    """TFLite checks only the range of perm and would read out of bounds."""
    b = ModelBuilder()
    x = b.tensor("x", [2, 3], np.float32)
    p = b.const("perm", np.array([0, 0], np.int32))
    y = b.tensor("y", [2, 2], np.float32)
    b.op("TRANSPOSE", [x, p], [y])
    b.inputs([x])
    b.outputs([y])
    with pytest.raises(RuntimeError, match="TRANSPOSE: perm repeats axis 0"):
        oracle.run_ours(b.build(), [np.zeros([2, 3], np.float32)], "ref")


# --- NEG -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int32, np.int16, np.int8])
@settings(max_examples=10, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_neg(mode, dtype, shape, seed):
    rng = np.random.default_rng(seed)
    x = rand(rng, shape, dtype)
    if np.dtype(dtype).kind == "i" and x.size:
        x.flat[0] = np.iinfo(dtype).min  # -MIN wraps to MIN
    q = (0.1, 3) if dtype == np.int8 else (None, None)
    oracle.check(unary_model("NEG", shape, dtype, q, q), [x], mode)


# --- RSQRT ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=15, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**32 - 1), spread=st.sampled_from([1e-3, 1.0, 1e4]))
def test_rsqrt_float(mode, shape, seed, spread):
    """Within 1e-5 (bits: test_ops_xnn_float.py, where the CPU's RSQRTPS estimate is
    XNNPACK's)."""
    rng = np.random.default_rng(seed)
    x = (np.abs(rng.standard_normal(shape)) * spread + 1e-6).astype(np.float32)
    oracle.check(unary_model("RSQRT", shape, np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_rsqrt_float_specials(mode):
    """AUTO's XNNPACK runs with denormals flushed: RSQRT(0), RSQRT(-0) and RSQRT of a
    denormal are NaN there, inf / -inf / finite in the reference."""
    x = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, 1e-38, 1.2e-38, 1e-30,
                  1.0, 4.0, 0.25, 1e30], np.float32)
    oracle.check(unary_model("RSQRT", [x.size], np.float32), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(s_in=scales, z_in=int8_zp, s_out=scales, z_out=int8_zp, seed=st.integers(0, 2**32 - 1))
def test_rsqrt_int8(mode, s_in, z_in, s_out, z_out, seed):
    """Every code from the zero point up (negative inputs are an invoke error)."""
    rng = np.random.default_rng(seed)
    x = rng.permutation(np.arange(z_in, 128)).astype(np.int8)
    check_or_both_fail(unary_model("RSQRT", [x.size], np.int8, (s_in, z_in), (s_out, z_out),
                                   version=2), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_rsqrt_int8_negative_input_fails(mode):
    model = unary_model("RSQRT", [3], np.int8, (0.1, 0), (0.1, 0), version=2)
    x = np.array([5, -1, 3], np.int8)
    for module in (oracle.ours_module(), oracle.oracle_module()):
        interp = oracle.make_interpreter(module, model, mode)
        interp.allocate_tensors()
        interp.set_tensor(interp.get_input_details()[0]["index"], x)
        with pytest.raises(RuntimeError, match="Rsqrt is only defined for positive values"):
            interp.invoke()


# --- SQUARED_DIFFERENCE --------------------------------------------------------------


@st.composite
def broadcast_pair(draw, max_rank=4):
    rank = draw(st.integers(0, max_rank))
    out = draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank))
    a = [d if draw(st.integers(0, 3)) else 1 for d in out]
    b = [d if draw(st.integers(0, 3)) else 1 for d in out]
    a = a[draw(st.integers(0, rank)):]
    b = b[draw(st.integers(0, rank)):]
    return a, b, list(np.broadcast_shapes(tuple(a), tuple(b)))


def sqdiff_model(sa, sb, so, dtype, qa=(None, None), qb=(None, None), qo=(None, None)):
    b = ModelBuilder()
    x = b.tensor("a", sa, dtype, *qa)
    y = b.tensor("b", sb, dtype, *qb)
    z = b.tensor("y", so, dtype, *qo)
    b.op("SQUARED_DIFFERENCE", [x, y], [z], version=2 if dtype == np.int8 else 1)
    b.inputs([x, y])
    b.outputs([z])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@settings(max_examples=20, deadline=None)
@given(shapes3=broadcast_pair(), seed=st.integers(0, 2**32 - 1))
def test_squared_difference(mode, dtype, shapes3, seed):
    sa, sb, so = shapes3
    rng = np.random.default_rng(seed)
    a = rand(rng, sa, dtype) if dtype == np.float32 else rng.integers(-40000, 40000, sa).astype(dtype)
    b = rand(rng, sb, dtype) if dtype == np.float32 else rng.integers(-40000, 40000, sb).astype(dtype)
    oracle.check(sqdiff_model(sa, sb, so, dtype), [a, b], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(shapes3=broadcast_pair(), sa=scales, sb=scales, so=scales, za=int8_zp, zb=int8_zp,
       zo=int8_zp, seed=st.integers(0, 2**32 - 1))
def test_squared_difference_int8(mode, shapes3, sa, sb, so, za, zb, zo, seed):
    # TFLite aborts the process (CHECK) when the output multiplier is >= 1.
    t = 2.0 * max(sa, sb)
    assume(t * t / (16384.0 * so) < 0.99)
    sa_, sb_, so_ = shapes3
    rng = np.random.default_rng(seed)
    model = sqdiff_model(sa_, sb_, so_, np.int8, (sa, za), (sb, zb), (so, zo))
    oracle.check(model, [rand(rng, sa_, np.int8), rand(rng, sb_, np.int8)], mode)


# --- GELU ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("approximate", [False, True])
@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 600), seed=st.integers(0, 2**32 - 1),
       spread=st.sampled_from([0.5, 2.0, 6.0, 30.0]))
def test_gelu_float(mode, approximate, n, seed, spread):
    """Lengths off multiples of 4 exercise the reference's scalar tail; large spreads the
    clamps and the exp slow path (exponents below -87)."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * spread).astype(np.float32)
    check_bits(unary_model("GELU", [n], np.float32, approximate=approximate), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_float_specials(mode, approximate):
    x = np.array([0.0, -0.0, 1.0, -1.0, 1.4142135, -1.4142135, 5.0, -5.0, 13.0, -13.0,
                  14.5, -14.5, 15.0, -15.0, 20.0, -20.0, 100.0, -100.0, 1e-30, -1e-30,
                  3e38, -3e38, np.inf, -np.inf], np.float32)
    model = unary_model("GELU", [x.size], np.float32, approximate=approximate)
    ref = oracle.run_oracle(model, [x], mode)
    ours = oracle.run_ours(model, [x], mode)
    assert_bits_equal(ours, ref, f"mode={mode}")


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@settings(max_examples=25, deadline=None)
@given(data=st.data(), approximate=st.booleans(), s_in=scales, s_out=scales,
       seed=st.integers(0, 2**32 - 1))
def test_gelu_quantized(mode, dtype, data, approximate, s_in, s_out, seed):
    info = np.iinfo(dtype)
    zp = st.integers(int(info.min), int(info.max))
    q_in, q_out = (s_in, data.draw(zp)), (s_out, data.draw(zp))
    rng = np.random.default_rng(seed)
    model = unary_model("GELU", [300], dtype, q_in, q_out, version=2, approximate=approximate)
    oracle.check(model, [all_codes([300], dtype, rng)], mode)


# --- BATCH_MATMUL --------------------------------------------------------------------


@st.composite
def bmm_shapes(draw):
    rank_l, rank_r = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    rank = max(rank_l, rank_r)
    batch = draw(st.lists(st.integers(1, 3), min_size=rank - 2, max_size=rank - 2))
    bl = [d if draw(st.integers(0, 2)) else 1 for d in batch][rank - rank_l:]
    br = [d if draw(st.integers(0, 2)) else 1 for d in batch][rank - rank_r:]
    m, k, n = draw(st.integers(1, 9)), draw(st.integers(1, 40)), draw(st.integers(1, 9))
    adj_x, adj_y = draw(st.booleans()), draw(st.booleans())
    ls = bl + ([k, m] if adj_x else [m, k])
    rs = br + ([n, k] if adj_y else [k, n])
    out_batch = list(np.broadcast_shapes(tuple(bl), tuple(br)))
    return ls, rs, out_batch + [m, n], adj_x, adj_y


def bmm_model(ls, rs, os_, adj_x, adj_y, dtype, ql=(None, None), qr=(None, None),
              qo=(None, None), out_dtype=None, const_rhs=None):
    b = ModelBuilder()
    lhs = b.tensor("l", ls, dtype, *ql)
    rhs = b.const("r", const_rhs, *qr) if const_rhs is not None else b.tensor("r", rs, dtype, *qr)
    y = b.tensor("y", os_, out_dtype or dtype, *qo)
    b.op("BATCH_MATMUL", [lhs, rhs], [y], version=2 if dtype == np.int8 else 1, adjX=adj_x,
         adjY=adj_y)
    b.inputs([lhs] if const_rhs is not None else [lhs, rhs])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(case=bmm_shapes(), seed=st.integers(0, 2**32 - 1), const_rhs=st.booleans())
def test_batch_matmul_float(mode, case, seed, const_rhs):
    ls, rs, os_, adj_x, adj_y = case
    rng = np.random.default_rng(seed)
    lv, rv = rand(rng, ls, np.float32), rand(rng, rs, np.float32)
    model = bmm_model(ls, rs, os_, adj_x, adj_y, np.float32, const_rhs=rv if const_rhs else None)
    check_bits(model, [lv] if const_rhs else [lv, rv], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=50, deadline=None)
@given(case=bmm_shapes(), seed=st.integers(0, 2**32 - 1), const_rhs=st.booleans(),
       sl=scales, sr=scales, so=scales, zl=int8_zp, zr=st.sampled_from([0, 0, -2, 5]),
       zo=int8_zp, int32_out=st.integers(0, 5).map(lambda v: v == 0))
def test_batch_matmul_int8(mode, case, seed, const_rhs, sl, sr, so, zl, zr, zo, int32_out):
    """rhs zero point 0 is what AUTO's XNNPACK takes (fp32 requantization); otherwise
    TFLite's reference kernel runs (MBQM)."""
    ls, rs, os_, adj_x, adj_y = case
    rng = np.random.default_rng(seed)
    lv, rv = rand(rng, ls, np.int8), rand(rng, rs, np.int8)
    qo = (None, None) if int32_out else (so, zo)
    model = bmm_model(ls, rs, os_, adj_x, adj_y, np.int8, (sl, zl), (sr, zr), qo,
                      out_dtype=np.int32 if int32_out else None,
                      const_rhs=rv if const_rhs else None)
    check_or_both_fail(model, [lv] if const_rhs else [lv, rv], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_batch_matmul_bad_contraction(mode):
    model = bmm_model([2, 3], [4, 5], [2, 5], False, False, np.float32)
    oracle.check_rejected(model, mode)


# --- RESIZE_BILINEAR -----------------------------------------------------------------


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=60, deadline=None)
@given(dtype=st.sampled_from([np.float32, np.int8, np.int16]), n=st.integers(1, 2),
       h=st.integers(1, 9), w=st.integers(1, 9), oh=st.integers(1, 20), ow=st.integers(1, 20),
       c=st.integers(1, 5), flags=st.sampled_from([(0, 0), (1, 0), (0, 1), (1, 1)]),
       computed=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_resize_bilinear(mode, dtype, n, h, w, oh, ow, c, flags, computed, seed):
    """align_corners with half_pixel_centers: TFLite refuses it, AUTO's XNNPACK (constant
    size) accepts it and ignores half_pixel_centers."""
    rng = np.random.default_rng(seed)
    q = {np.int8: (0.0372, -128), np.int16: (0.001, 0)}.get(dtype, (None, None))
    b = ModelBuilder()
    x = b.tensor("x", [n, h, w, c], dtype, *q)
    size = shape_tensor(b, "size", [oh, ow], computed)
    y = b.tensor("y", [n, oh, ow, c], dtype, *q)
    b.op("RESIZE_BILINEAR", [x, size], [y], version=3 if flags[1] else 2,
         alignCorners=bool(flags[0]), halfPixelCenters=bool(flags[1]))
    b.inputs([x])
    b.outputs([y])
    check_or_both_fail(b.build(), [rand(rng, [n, h, w, c], dtype)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_resize_bilinear_unet(mode, dtype):
    """unet_small's upsampling: 128x128x16 -> 256x256, half_pixel_centers."""
    rng = np.random.default_rng(4)
    q = (0.00372, -128) if dtype == np.int8 else (None, None)
    b = ModelBuilder()
    x = b.tensor("x", [1, 128, 128, 16], dtype, *q)
    size = b.const("size", np.array([256, 256], np.int32))
    y = b.tensor("y", [1, 256, 256, 16], dtype, *q)
    b.op("RESIZE_BILINEAR", [x, size], [y], version=3, halfPixelCenters=True)
    b.inputs([x])
    b.outputs([y])
    oracle.check(b.build(), [rand(rng, [1, 128, 128, 16], dtype)], mode)


# --- TRANSPOSE_CONV ------------------------------------------------------------------


@st.composite
def tconv_case(draw):
    h, w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    padding = draw(st.sampled_from([S.Padding.SAME, S.Padding.VALID]))
    if padding == S.Padding.SAME:  # H with ceil(H / s) == h
        oh = draw(st.integers((h - 1) * sh + 1, h * sh))
        ow = draw(st.integers((w - 1) * sw + 1, w * sw))
    else:  # H with (H - k + s) / s == h
        oh = draw(st.integers((h - 1) * sh + kh, (h - 1) * sh + kh + sh - 1))
        ow = draw(st.integers((w - 1) * sw + kw, (w - 1) * sw + kw + sw - 1))
    return dict(n=draw(st.integers(1, 2)), h=h, w=w, cin=draw(st.integers(1, 12)),
                cout=draw(st.sampled_from([1, 3, 8, 11, 16, 19])), kh=kh, kw=kw, sh=sh, sw=sw,
                padding=padding, oh=oh, ow=ow,
                act=draw(st.sampled_from([S.ActivationFunctionType.NONE,
                                          S.ActivationFunctionType.RELU,
                                          S.ActivationFunctionType.RELU6])),
                bias=draw(st.booleans()), computed=draw(st.booleans()))


def tconv_model(c, dtype, rng, q_in=None, q_out=None, w_scales=None):
    b = ModelBuilder()
    x = b.tensor("x", [c["n"], c["h"], c["w"], c["cin"]], dtype, *(q_in or (None, None)))
    out_shape = [c["n"], c["oh"], c["ow"], c["cout"]]
    shape = shape_tensor(b, "output_shape", out_shape, c["computed"])
    wshape = [c["cout"], c["kh"], c["kw"], c["cin"]]
    if dtype == np.float32:
        filt = b.const("w", rand(rng, wshape, np.float32))
        bias = b.const("b", rand(rng, [c["cout"]], np.float32)) if c["bias"] else None
    else:
        filt = b.const("w", rng.integers(-127, 128, wshape).astype(np.int8), scale=w_scales,
                       zero_point=[0] * len(w_scales), quantized_dimension=0)
        bias = None
        if c["bias"]:
            # One bias scale per filter scale (XNNPACK refuses other combinations).
            bs = [q_in[0] * s for s in w_scales]
            bias = b.const("b", rng.integers(-3000, 3000, c["cout"]).astype(np.int32), scale=bs,
                           zero_point=[0] * len(bs))
    y = b.tensor("y", out_shape, dtype, *(q_out or (None, None)))
    ins = [shape, filt, x] + ([bias] if bias is not None else [])
    b.op("TRANSPOSE_CONV", ins, [y], version=3 if dtype == np.int8 else 1, padding=c["padding"],
         strideH=c["sh"], strideW=c["sw"], fusedActivationFunction=c["act"])
    b.inputs([x])
    b.outputs([y])
    return b.build(), [rand(rng, [c["n"], c["h"], c["w"], c["cin"]], dtype)]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(c=tconv_case(), seed=st.integers(0, 2**32 - 1))
def test_transpose_conv_float(mode, c, seed):
    rng = np.random.default_rng(seed)
    model, inputs = tconv_model(c, np.float32, rng)
    check_or_both_fail(model, inputs, mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=60, deadline=None)
@given(c=tconv_case(), seed=st.integers(0, 2**32 - 1), s_in=scales, z_in=int8_zp,
       s_out=scales, z_out=int8_zp, per_channel=st.booleans())
def test_transpose_conv_int8(mode, c, seed, s_in, z_in, s_out, z_out, per_channel):
    """Three requantizations: reference MBQM; default with a constant output_shape
    XNNPACK fp32; default with a computed one TFLite's optimized Quantize() (NEON
    emulation on channel blocks of 8, MBQM on the rest)."""
    rng = np.random.default_rng(seed)
    n_scales = c["cout"] if per_channel else 1
    w_scales = [float(f32(s)) for s in rng.uniform(0.2, 1.0, n_scales) * s_out / s_in / 50]
    assume(all(1e-9 < s < 1e3 for s in w_scales))
    model, inputs = tconv_model(c, np.int8, rng, (s_in, z_in), (s_out, z_out), w_scales)
    check_or_both_fail(model, inputs, mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_transpose_conv_filter_input(mode, dtype):
    """A filter given at run time (packed at invoke; AUTO keeps the node on TFLite)."""
    rng = np.random.default_rng(6)
    q_in, q_out = ((0.02, 5), (0.05, -7)) if dtype == np.int8 else ((None, None), (None, None))
    wq = ([0.003] * 8, [0] * 8) if dtype == np.int8 else (None, None)
    b = ModelBuilder()
    x = b.tensor("x", [1, 5, 5, 4], dtype, *q_in)
    w = b.tensor("w", [8, 3, 3, 4], dtype, *wq)
    shape = b.const("output_shape", np.array([1, 10, 10, 8], np.int32))
    y = b.tensor("y", [1, 10, 10, 8], dtype, *q_out)
    b.op("TRANSPOSE_CONV", [shape, w, x], [y], version=3 if dtype == np.int8 else 1,
         padding=S.Padding.SAME, strideH=2, strideW=2)
    b.inputs([x, w])
    b.outputs([y])
    wv = rng.integers(-127, 128, [8, 3, 3, 4]).astype(np.int8) if dtype == np.int8 else \
        rand(rng, [8, 3, 3, 4], np.float32)
    oracle.check(b.build(), [rand(rng, [1, 5, 5, 4], dtype), wv], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_transpose_conv_bad_output_shape(mode):
    rng = np.random.default_rng(5)
    c = dict(n=1, h=4, w=4, cin=3, cout=2, kh=3, kw=3, sh=2, sw=2, padding=S.Padding.SAME,
             oh=11, ow=8, act=0, bias=False, computed=False)  # 11 needs a 6-row input
    model, _ = tconv_model(c, np.float32, rng)
    oracle.check_rejected(model, mode)


# --- models --------------------------------------------------------------------------

MODELS = ["transformer_block_float", "transformer_block_int8f", "transformer_block_hybrid",
          "unet_small_float", "unet_small_int8"]


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("name", MODELS)
def test_model(name, mode):
    model = oracle.model_bytes(name)
    details = oracle.input_details(model)
    for seed in range(3):
        inputs = oracle.random_inputs(details, np.random.default_rng(1000 + seed))
        ref = oracle.run_oracle(model, inputs, mode)
        ours = oracle.run_ours(model, inputs, mode)
        oracle.assert_outputs_match(ours, ref, f"{name} mode={mode} seed={1000 + seed}")
