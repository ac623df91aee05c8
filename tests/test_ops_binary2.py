"""MAXIMUM, MINIMUM, FLOOR_DIV, FLOOR_MOD, POW, ADD_N, DIV, PRELU, SELECT and SELECT_V2
against ai_edge_litert in both numerics modes.

Hypothesis draws broadcast shapes of rank 0..6 (zero-size dims included) and every type
each TFLite kernel takes, with edge values: integer extremes (INT_MIN / -1 wraps), signed
zeros, infinities, divisors of both signs. Integer division by zero fails invoke in both
runtimes (never a trap). Quantized DIV and PRELU draw scales over several orders of
magnitude and zero points over the full code range.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder
from test_ops_compare import likely_equal, model2, values
from test_ops_elementwise import shapes

f32 = np.float32
tff_only = pytest.mark.skipif(oracle.ours_module() is oracle.oracle_module(),
                              reason="checks tflite_fast's own validation and messages")
IS_LITERT = oracle.ours_module() is oracle.oracle_module()


def same_type_model(op, sa, sb, dtype, q=(None, None, None), **options):
    return model2(op, sa, sb, dtype, q[:2], out_dtype=dtype, out_q=q[2], **options)


def edge_ints(shape, dtype, rng):
    """Full-range integers with the extremes, 0, 1 and -1 over-represented."""
    info = np.iinfo(dtype)
    x = values(shape, dtype, rng)
    special = np.array([info.min, info.max, 0, 1, -1 if info.min < 0 else 2, info.min + 1],
                       dtype)
    pick = rng.integers(0, 3, size=x.shape) == 0
    return np.where(pick, rng.choice(special, size=x.shape), x).astype(dtype)


# ---------------------------------------------------------------- MAXIMUM / MINIMUM


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["MAXIMUM", "MINIMUM"])
@settings(max_examples=40, deadline=None)
@given(data=st.data(), shp=shapes(), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float32, np.float16, np.int8, np.uint8, np.int16, np.int32,
                              np.int64]))
def test_max_min(op, mode, data, shp, seed, dtype):
    rng = np.random.default_rng(seed)
    sa, sb = shp
    q = (None, None, None)
    if dtype in (np.int8, np.uint8, np.int16) and data.draw(st.booleans()):
        zp = st.integers(-5, 5) if dtype != np.uint8 else st.integers(0, 255)
        q = tuple((data.draw(st.sampled_from([0.5, 0.02, 0.1])), data.draw(zp))
                  for _ in range(3))
    if dtype in (np.float32, np.float16):
        xa, xb = values(sa, dtype, rng), values(sb, dtype, rng)
        xb = likely_equal(xa, xb, rng)
    else:
        xa, xb = edge_ints(sa, dtype, rng), edge_ints(sb, dtype, rng)
    oracle.check(same_type_model(op, sa, sb, dtype, q), [xa, xb], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["MAXIMUM", "MINIMUM"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_max_min_float_specials(op, mode, dtype):
    big, tiny = np.finfo(dtype).max, np.finfo(dtype).smallest_subnormal
    x = np.array([np.inf, -np.inf, big, 0.0, -0.0, 1.0, -3.0, np.nan, 1.0, np.nan, tiny], dtype)
    y = np.array([1.0, np.inf, -big, -0.0, 0.0, -np.inf, -3.0, 1.0, np.nan, np.nan, -tiny],
                 dtype)
    ours, _ = oracle.check(same_type_model(op, [11], [11], dtype), [x, y], mode)
    # Signed zeros and NaN payloads: the chosen operand's bits, as TFLite's a > b ? a : b.
    pick = x > y if op == "MAXIMUM" else x < y
    expect = np.where(pick, x, y)
    np.testing.assert_array_equal(ours[0].view(np.uint16 if dtype == np.float16 else np.uint32),
                                  expect.view(np.uint16 if dtype == np.float16 else np.uint32))


# ---------------------------------------------------------------- FLOOR_DIV / FLOOR_MOD


def nonzero(x, dtype):
    return np.where(x == 0, np.array(1, dtype), x).astype(dtype)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["FLOOR_DIV", "FLOOR_MOD"])
@settings(max_examples=40, deadline=None)
@given(data=st.data(), shp=shapes(), seed=st.integers(0, 2**32 - 1))
def test_floor_div_mod(op, mode, data, shp, seed):
    types = [np.float32, np.int8, np.int16, np.int32] + ([np.int64] if op == "FLOOR_MOD" else [])
    dtype = data.draw(st.sampled_from(types))
    rng = np.random.default_rng(seed)
    sa, sb = shp
    if dtype == np.float32:
        xa = values(sa, dtype, rng)
        xb = values(sb, dtype, rng) * rng.choice([1.0, 0.01, 100.0], size=sb).astype(f32)
        xb = np.where(xb == 0, f32(0.5), xb).astype(f32)
    else:
        xa = edge_ints(sa, dtype, rng)
        small = rng.integers(-9, 10, size=sb).astype(dtype)  # small divisors: varied results
        xb = nonzero(np.where(rng.integers(0, 2, size=sb) == 0, small, edge_ints(sb, dtype, rng)),
                     dtype)
        if dtype != np.int32 or op == "FLOOR_MOD":
            # INT_MIN % -1 traps in TFLite (SIGFPE); int8/int16 INT_MIN // -1 converts 128.0 or
            # 32768.0 back, which TFLite's build wraps or saturates depending on vectorization.
            # test_*_int_min_by_minus_one covers these.
            xa = np.where(xa == np.iinfo(dtype).min, np.array(0, dtype), xa)
        if dtype == np.int64:
            xb = np.where(xb == -1, np.array(3, dtype), xb)
            xa = np.where(xa == np.iinfo(dtype).min, np.array(0, dtype), xa)
    oracle.check(same_type_model(op, sa, sb, dtype), [xa, xb], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["FLOOR_DIV", "FLOOR_MOD"])
def test_float_floor_edges(op, mode):
    x = np.array([7.0, -7.0, 7.0, -7.0, 0.0, -0.0, 1e30, 5.5, np.inf, -1e-30], np.float32)
    y = np.array([2.0, 2.0, -2.0, -2.0, 3.0, -3.0, 7.0, np.inf, 2.0, 1.0], np.float32)
    oracle.check(same_type_model(op, [10], [10], np.float32), [x, y], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_floor_div_int_min_by_minus_one(mode):
    """INT_MIN / -1 does not fit int32: TFLite's double-to-int conversion gives INT_MIN."""
    info = np.iinfo(np.int32)
    x = np.array([info.min, info.min, info.max, -7, 7] * 7, np.int32)
    y = np.array([-1, 1, -1, 2, -2] * 7, np.int32)
    oracle.check(same_type_model("FLOOR_DIV", [35], [35], np.int32), [x, y], mode)


@tff_only
@pytest.mark.parametrize("dtype", [np.int8, np.int16])
def test_floor_div_small_int_min_by_minus_one(dtype):
    """int8/int16 INT_MIN / -1: TFLite's result depends on its compiler (wrap or saturate);
    ours wraps, the same as int32."""
    info = np.iinfo(dtype)
    ours = oracle.run_ours(same_type_model("FLOOR_DIV", [2], [2], dtype),
                           [np.array([info.min, 5], dtype), np.array([-1, -1], dtype)], "ref")
    np.testing.assert_array_equal(ours[0], np.array([info.min, -5], dtype))


@tff_only
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_floor_mod_int_min_by_minus_one(dtype):
    """TFLite traps on INT_MIN % -1 (SIGFPE); ours gives the mathematical 0."""
    info = np.iinfo(dtype)
    x = np.array([info.min, info.max, -7], dtype)
    y = np.array([-1, -1, -1], dtype)
    ours = oracle.run_ours(same_type_model("FLOOR_MOD", [3], [3], dtype), [x, y], "default")
    np.testing.assert_array_equal(ours[0], np.zeros(3, dtype))


@pytest.mark.parametrize("op,dtype", [("FLOOR_DIV", np.int32), ("FLOOR_DIV", np.float32),
                                      ("FLOOR_DIV", np.int8), ("FLOOR_MOD", np.int16),
                                      ("FLOOR_MOD", np.int64)])
def test_division_by_zero_fails_invoke(op, dtype):
    model = same_type_model(op, [4], [2, 1], dtype)
    x = [np.ones(4, dtype), np.array([[1], [0]], dtype)]
    for run in (oracle.run_oracle, oracle.run_ours):
        with pytest.raises(RuntimeError, match="Division by 0"):
            run(model, x, "ref")


# ---------------------------------------------------------------- POW


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=50, deadline=None)
@given(shp=shapes(), seed=st.integers(0, 2**32 - 1), scalar=st.booleans(),
       dtype=st.sampled_from([np.float32, np.int32]))
def test_pow(mode, shp, seed, scalar, dtype):
    rng = np.random.default_rng(seed)
    sa, sb = shp
    if scalar:  # one exponent: the multiplication-by-squaring path when shapes differ
        sb = [1] * rng.integers(0, len(sa) + 1)
    if dtype == np.float32:
        xa = (rng.standard_normal(sa) * 3).astype(f32)
        xb = rng.choice([0.0, 1.0, 2.0, 3.0, 0.5, -1.5, 1.000001, 2.9999971, 7.0, 13.0, -2.0],
                        size=sb).astype(f32)
        xa = np.where(rng.integers(0, 3, size=sa) == 0, np.abs(xa), xa).astype(f32)
    else:
        xa = rng.integers(-12, 13, size=sa).astype(np.int32)
        xa = np.where(rng.integers(0, 8, size=sa) == 0, np.int32(-2**31), xa).astype(np.int32)
        xb = rng.integers(0, 40, size=sb).astype(np.int32)
    oracle.check(same_type_model("POW", sa, sb, dtype), [xa, xb], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_pow_float_overflow_by_squaring(mode):
    """Squaring clamps each product to ±FLT_MAX; powf would give inf."""
    x = np.array([1e20, -1e20, 3.0, np.nan, -0.0], np.float32)
    oracle.check(same_type_model("POW", [5], [1], np.float32), [x, np.array([3.0], f32)], mode)
    oracle.check(same_type_model("POW", [5], [5], np.float32),
                 [x, np.array([0.5, 2.0, -1.0, 1.0, 3.0], f32)], mode)


def test_pow_negative_int_exponent_fails_invoke():
    model = same_type_model("POW", [3], [3], np.int32)
    x = [np.array([1, 2, 3], np.int32), np.array([1, -1, 2], np.int32)]
    for run in (oracle.run_oracle, oracle.run_ours):
        with pytest.raises(RuntimeError, match="negative value for int32"):
            run(model, x, "ref")


# ---------------------------------------------------------------- ADD_N


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=6), n=st.integers(2, 5),
       dtype=st.sampled_from([np.float32, np.int32]), seed=st.integers(0, 2**32 - 1))
def test_add_n(mode, shape, n, dtype, seed):
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    ins = [b.tensor(f"x{i}", shape, dtype) for i in range(n)]
    out = b.tensor("out", shape, dtype)
    b.op("ADD_N", ins, [out])
    b.inputs(ins)
    b.outputs([out])
    xs = [values(shape, dtype, rng) for _ in range(n)]
    oracle.check(b.build(), xs, mode)


@tff_only
def test_add_n_shape_mismatch():
    b = ModelBuilder()
    x, y = b.tensor("x", [2, 3], np.float32), b.tensor("y", [3, 2], np.float32)
    out = b.tensor("out", [2, 3], np.float32)
    b.op("ADD_N", [x, y], [out])
    b.inputs([x, y])
    b.outputs([out])
    with pytest.raises(RuntimeError, match="ADD_N: input 1 shape differs"):
        oracle.run_ours(b.build(), [np.zeros([2, 3], f32), np.zeros([3, 2], f32)], "ref")


# ---------------------------------------------------------------- SELECT / SELECT_V2

SELECT_TYPES = [np.bool_, np.float32, np.int8, np.uint8, np.int16, np.int32, np.int64]


def select_model(op, sc, sx, sy, dtype, so=None):
    b = ModelBuilder()
    c = b.tensor("cond", sc, np.bool_)
    x = b.tensor("x", sx, dtype)
    y = b.tensor("y", sy, dtype)
    if so is None:
        so = list(np.broadcast_shapes(tuple(sc), tuple(sx), tuple(sy)))
    o = b.tensor("out", so, dtype)
    b.op(op, [c, x, y], [o])
    b.inputs([c, x, y])
    b.outputs([o])
    return b.build()


@st.composite
def three_shapes(draw):
    """Three shapes that broadcast together, rank 0..8: two from shapes(), the condition
    keeping some of their broadcast dims, sometimes under up to two new leading dims."""
    sx, sy = draw(shapes())
    out = list(np.broadcast_shapes(tuple(sx), tuple(sy)))
    sc = [d if draw(st.booleans()) else 1 for d in out]
    if len(out) == 6:
        return draw(st.lists(st.integers(1, 2), max_size=2)) + sc, sx, sy
    return sc[draw(st.integers(0, len(out))):], sx, sy


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=60, deadline=None)
@given(shp=three_shapes(), dtype=st.sampled_from(SELECT_TYPES), seed=st.integers(0, 2**32 - 1))
def test_select_v2(mode, shp, dtype, seed):
    rng = np.random.default_rng(seed)
    sc, sx, sy = shp
    xs = [values(sc, np.bool_, rng), values(sx, dtype, rng), values(sy, dtype, rng)]
    ours, _ = oracle.check(select_model("SELECT_V2", sc, sx, sy, dtype), xs, mode)
    np.testing.assert_array_equal(ours[0], np.where(*xs))


@st.composite
def select_v1_case(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=0, max_size=6))
    kind = draw(st.sampled_from(["same", "scalar", "rank1"] if shape else ["same", "scalar"]))
    sc = {"same": shape, "scalar": [], "rank1": shape[:1]}[kind]
    return sc, shape


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(case=select_v1_case(), dtype=st.sampled_from(SELECT_TYPES),
       seed=st.integers(0, 2**32 - 1))
def test_select(mode, case, dtype, seed):
    rng = np.random.default_rng(seed)
    sc, shape = case
    xs = [values(sc, np.bool_, rng), values(shape, dtype, rng), values(shape, dtype, rng)]
    ours, _ = oracle.check(select_model("SELECT", sc, shape, shape, dtype, shape), xs, mode)
    c = xs[0].reshape(list(sc) + [1] * (len(shape) - len(sc))) if sc else xs[0]
    np.testing.assert_array_equal(ours[0], np.where(c, xs[1], xs[2]))


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["SELECT", "SELECT_V2"])
def test_select_one_element_keeps_output_shape(op, mode):
    """cond, x and y of one element each: TFLite keeps the output's shape from the model."""
    xs = [np.array(True), np.array([1.5], f32), np.array([[2.5]], f32)]
    ours, _ = oracle.check(select_model(op, [], [1], [1, 1], np.float32, [1, 1, 1]), xs, mode)
    assert ours[0].shape == (1, 1, 1) and ours[0].item() == 1.5


@tff_only
def test_select_errors():
    xs = [np.array([True, False]), np.zeros([3, 2], f32), np.zeros([3, 2], f32)]
    with pytest.raises(RuntimeError, match="SELECT: the condition must be a scalar"):
        oracle.run_ours(select_model("SELECT", [2], [3, 2], [3, 2], np.float32, [3, 2]), xs, "ref")
    xs = [np.array([True, False, True]), np.zeros([3, 2], f32), np.zeros([3, 2], f32)]
    with pytest.raises(RuntimeError, match="SELECT_V2: shapes are not broadcastable"):
        oracle.run_ours(select_model("SELECT_V2", [3], [3, 2], [3, 2], np.float32, [3, 2]), xs,
                        "ref")


# ---------------------------------------------------------------- DIV

ACT = [0, 1, 2, 3, 4, 5]  # NONE, RELU, RELU_N1_TO_1, RELU6, TANH, SIGN_BIT
div_scales = st.integers(-300, 100).map(lambda k: float(f32(10.0 ** (k / 100))))


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=50, deadline=None)
@given(shp=shapes(), act=st.sampled_from(ACT), seed=st.integers(0, 2**32 - 1))
def test_div_float(mode, shp, act, seed):
    rng = np.random.default_rng(seed)
    sa, sb = shp
    xa = values(sa, np.float32, rng)
    xb = values(sb, np.float32, rng) * rng.choice([1.0, 1e-3, 1e3], size=sb).astype(f32)
    xb = np.where(xb == 0, f32(1.0), xb).astype(f32)
    oracle.check(same_type_model("DIV", sa, sb, np.float32, fusedActivationFunction=act),
                 [xa, xb], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("act", ACT)
def test_div_float_specials(mode, act):
    """inf and FLT_MAX: the builtin kernel clamps to the finite range, XNNPACK does not."""
    big = np.finfo(np.float32).max
    x = np.array([np.inf, -np.inf, big, 1.0, -1.0, 0.0, 1e-30, 3.0, 0.0, 1.0, np.nan],
                 np.float32)
    y = np.array([1.0, 2.0, 1e-10, 1e-40, -1e-40, 5.0, 1e30, np.inf, 0.0, 0.0, 2.0], np.float32)
    oracle.check(same_type_model("DIV", [11], [11], np.float32, fusedActivationFunction=act),
                 [x, y], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=30, deadline=None)
@given(shp=shapes(), act=st.sampled_from(ACT[:4]), seed=st.integers(0, 2**32 - 1))
def test_div_int32(mode, shp, act, seed):
    rng = np.random.default_rng(seed)
    sa, sb = shp
    xa = edge_ints(sa, np.int32, rng)
    xb = nonzero(np.where(rng.integers(0, 2, size=sb) == 0, rng.integers(-9, 10, size=sb),
                          edge_ints(sb, np.int32, rng)), np.int32)
    # INT_MIN / -1 traps in TFLite (SIGFPE); test_div_int32_min_by_minus_one covers ours.
    xa = np.where(xa == np.iinfo(np.int32).min, np.int32(0), xa).astype(np.int32)
    oracle.check(same_type_model("DIV", sa, sb, np.int32, fusedActivationFunction=act),
                 [xa, xb], mode)


@tff_only
def test_div_int32_min_by_minus_one():
    ours = oracle.run_ours(same_type_model("DIV", [2], [2], np.int32),
                           [np.array([-2**31, 7], np.int32), np.array([-1, -1], np.int32)], "ref")
    np.testing.assert_array_equal(ours[0], np.array([-2**31, -7], np.int32))


@st.composite
def div_quant(draw, dtype):
    lo, hi = {np.int8: (-128, 127), np.uint8: (0, 255), np.int16: (-100, 100)}[dtype]
    zp = st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0] if lo < 0 else [lo, hi, 128]))
    return [(draw(div_scales), draw(zp)) for _ in range(3)]


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16])
@settings(max_examples=60, deadline=None)
@given(data=st.data(), shp=shapes(), act=st.sampled_from(ACT), seed=st.integers(0, 2**32 - 1))
def test_div_quantized(mode, dtype, data, shp, act, seed):
    rng = np.random.default_rng(seed)
    sa, sb = shp
    q = data.draw(div_quant(dtype))
    xa, xb = values(sa, dtype, rng), values(sb, dtype, rng)
    if dtype == np.int16:
        xa, xb = (np.clip(x, -20000, 20000).astype(dtype) for x in (xa, xb))
    zb = q[1][1]
    xb = np.where(xb == zb, np.array(zb + 1 if zb < np.iinfo(dtype).max else zb - 1, dtype),
                  xb).astype(dtype)
    oracle.check(same_type_model("DIV", sa, sb, dtype, q, fusedActivationFunction=act),
                 [xa, xb], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_div_quantized_every_code_pair(mode, dtype):
    """All 256x256 code pairs (divisors at the zero point left out): small |a - za| over
    large |b - zb| puts TFLite's final shift past 31, where its x86 shifts wrap."""
    lo = -128 if dtype == np.int8 else 0
    a, b = np.meshgrid(np.arange(lo, lo + 256), np.arange(lo, lo + 256))
    for q in ([(1.0, lo + 3), (1.0, lo + 128), (1.0, lo + 1)],
              [(0.02, lo + 128), (0.5, lo), (1 / 64, lo + 100)],
              [(0.1, lo + 10), (0.003, lo + 200), (3.0, lo + 128)]):
        bb = np.where(b == q[1][1], q[1][1] + 1 if q[1][1] < lo + 255 else q[1][1] - 1, b)
        oracle.check(same_type_model("DIV", [256, 256], [256, 256], dtype, q),
                     [a.astype(dtype), bb.astype(dtype)], mode)


@pytest.mark.parametrize("dtype,q", [(np.int32, (None, None, None)),
                                     (np.int8, ((0.5, 1), (0.5, 3), (0.5, 0)))])
def test_div_by_zero_fails_invoke(dtype, q):
    model = same_type_model("DIV", [3], [3], dtype, q)
    zero = 3 if dtype == np.int8 else 0
    x = [np.ones(3, dtype), np.array([1, zero, 2], dtype)]
    for run in (oracle.run_oracle, oracle.run_ours):
        with pytest.raises(RuntimeError):
            run(model, x, "ref")


# ---------------------------------------------------------------- PRELU

prelu_scales = st.integers(-300, 50).map(lambda k: float(f32(10.0 ** (k / 100))))


def prelu_model(sx, sa, dtype, q=(None, None, None), alpha=None):
    """x of shape sx; alpha of shape sa, a constant when `alpha` is given."""
    b = ModelBuilder()
    adt = np.int8 if dtype == np.int16 else dtype
    qx, qa, qo = [(None, None) if p is None else p for p in q]
    x = b.tensor("x", sx, dtype, *qx)
    a = b.tensor("alpha", sa, adt, *qa) if alpha is None else b.const("alpha", alpha, *qa)
    o = b.tensor("out", sx, dtype, *qo)
    b.op("PRELU", [x, a], [o])
    b.inputs([x] if alpha is not None else [x, a])
    b.outputs([o])
    return b.build()


@st.composite
def prelu_shapes(draw):
    """x's shape and an alpha shape broadcasting into it (often per channel)."""
    sx = draw(st.lists(st.integers(1, 4), min_size=1, max_size=6))
    kind = draw(st.sampled_from(["channel", "same", "sub", "scalar"]))
    if kind == "channel":
        return sx, sx[-1:]
    if kind == "same":
        return sx, list(sx)
    if kind == "scalar":
        return sx, [1] * draw(st.integers(0, len(sx)))
    sa = [d if draw(st.booleans()) else 1 for d in sx]
    return sx, sa[draw(st.integers(0, len(sa))):]


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=40, deadline=None)
@given(shp=prelu_shapes(), const=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_prelu_float(mode, shp, const, seed):
    rng = np.random.default_rng(seed)
    sx, sa = shp
    x = values(sx, np.float32, rng)
    alpha = (rng.standard_normal(sa) * 0.5).astype(f32)
    if const:
        oracle.check(prelu_model(sx, sa, np.float32, alpha=alpha), [x], mode)
    else:
        oracle.check(prelu_model(sx, sa, np.float32), [x, alpha], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16])
@settings(max_examples=40, deadline=None)
@given(data=st.data(), shp=prelu_shapes(), const=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_prelu_quantized(mode, dtype, data, shp, const, seed):
    rng = np.random.default_rng(seed)
    sx, sa = shp
    lo, hi = {np.int8: (-128, 127), np.uint8: (0, 255), np.int16: (-1000, 1000)}[dtype]
    alo, ahi = (0, 255) if dtype == np.uint8 else (-128, 127)
    q = [(data.draw(prelu_scales), data.draw(st.integers(lo, hi))),
         (data.draw(prelu_scales), data.draw(st.integers(alo, ahi))),
         (data.draw(prelu_scales), data.draw(st.integers(lo, hi)))]
    x = values(sx, dtype, rng)
    alpha = values(sa, np.int8 if dtype == np.int16 else dtype, rng)
    if const:
        oracle.check(prelu_model(sx, sa, dtype, q, alpha=alpha), [x], mode)
    else:
        oracle.check(prelu_model(sx, sa, dtype, q), [x, alpha], mode)


@tff_only
def test_prelu_errors():
    x = np.zeros([2, 3], f32)
    with pytest.raises(RuntimeError, match="PRELU: alpha's shape must broadcast into"):
        oracle.run_ours(prelu_model([2, 3], [4, 2, 3], np.float32), [x, np.zeros([4, 2, 3], f32)],
                        "ref")
