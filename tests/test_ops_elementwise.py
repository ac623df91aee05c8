"""ADD, SUB and MUL against ai_edge_litert in both numerics modes.

Hypothesis draws broadcast shapes of rank 0..6 (zero-size dims included), float32, int32
and int8, every fused activation, and for int8 scales over five orders of magnitude,
power-of-two scale sets (whose sums and products land on exact .5 ties, and whose
RELU6 / RELU_N1_TO_1 bounds do), zero points including -128 and 127, and inputs over the
full int8 range.

Default mode: AUTO delegates int8 ADD/SUB to XNNPACK when both input/output scale ratios
lie in [2^-10, 2^8), and MUL when s1*s2/s_out lies in [2^-16, 2^8), for activations up to
RELU6. Otherwise it runs TFLite's optimized kernel, whose NEON code (NEON_2_SSE on x86)
narrows to int16 with wrap-around, so outputs that overflow come out as garbage;
tflite_fast computes the reference formula there, and those draws are compared with the
reference oracle instead (without overflow the two agree, see
test_int8_undelegated_without_overflow).
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

ACT = S.ActivationFunctionType
ACTS = [ACT.NONE, ACT.RELU, ACT.RELU_N1_TO_1, ACT.RELU6, ACT.TANH, ACT.SIGN_BIT]
OPS = ["ADD", "SUB", "MUL"]
# (s1, s2, s_out) on powers of two: .5 ties in sums/products; 4 and 12 put the RELU6 and
# RELU_N1_TO_1 bounds on .5 too (6/4, 6/12, 1/2).
TIE_SCALES = [(0.5, 0.5, 1.0), (0.25, 0.5, 0.5), (1.0, 1.0, 4.0), (0.5, 0.25, 2.0**-5),
              (2.0, 2.0, 12.0), (1.0, 0.5, 2.0), (0.125, 0.125, 0.25)]
f32 = np.float32
IS_LITERT = oracle.ours_module() is oracle.oracle_module()


def binary_model(op, shape_a, shape_b, dtype, act, q=(None, None, None), out_shape=None):
    b = ModelBuilder()
    qa, qb, qo = [(None, None) if p is None else p for p in q]
    if out_shape is None:
        out_shape = list(np.broadcast_shapes(tuple(shape_a), tuple(shape_b)))
    x = b.tensor("a", shape_a, dtype, *qa)
    y = b.tensor("b", shape_b, dtype, *qb)
    z = b.tensor("out", out_shape, dtype, *qo)
    b.op(op, [x, y], [z], fusedActivationFunction=act)
    b.inputs([x, y])
    b.outputs([z])
    return b.build()


def xnnpack_takes(op, s1, s2, so, act):
    """Whether AUTO delegates this int8 node to XNNPACK (float32 ratios, as the delegate)."""
    if act > ACT.RELU6:
        return False
    if op == "MUL":
        r = f32(f32(s1) * f32(s2)) / f32(so)
        return 2.0**-16 <= r < 2.0**8
    return all(2.0**-10 <= f32(s) / f32(so) < 2.0**8 for s in (s1, s2))


@st.composite
def shapes(draw):
    """Two shapes that broadcast (rank 0..6, leading dims sometimes dropped)."""
    rank = draw(st.integers(0, 6))
    out = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    if rank and draw(st.integers(0, 15)) == 0:
        out[draw(st.integers(0, rank - 1))] = 0

    def operand():
        keep = draw(st.lists(st.booleans(), min_size=rank, max_size=rank))
        s = [d if k else 1 for d, k in zip(out, keep)]
        return s[draw(st.integers(0, rank)) if draw(st.booleans()) else 0:]

    if draw(st.integers(0, 3)) == 0:
        return out, list(out)
    return operand(), operand()


scales = st.integers(-400, 100).map(lambda k: float(f32(10.0 ** (k / 100))))
zero_points = st.one_of(st.integers(-128, 127), st.sampled_from([-128, 127, 0]))


def int8_data(shape, rng):
    return rng.integers(-128, 128, size=shape).astype(np.int8)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@settings(max_examples=60, deadline=None)
@given(shp=shapes(), act=st.sampled_from(ACTS), seed=st.integers(0, 2**32 - 1))
def test_float(op, mode, shp, act, seed):
    rng = np.random.default_rng(seed)
    a, b = shp
    model = binary_model(op, a, b, np.float32, act)
    inputs = [(rng.standard_normal(s) * 3).astype(np.float32) for s in (a, b)]
    oracle.check(model, inputs, mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@settings(max_examples=25, deadline=None)
@given(shp=shapes(), act=st.sampled_from(ACTS[:4]), seed=st.integers(0, 2**32 - 1))
def test_int32(op, mode, shp, act, seed):
    rng = np.random.default_rng(seed)
    a, b = shp
    model = binary_model(op, a, b, np.int32, act)
    oracle.check(model, [rng.integers(-3000, 3000, size=s).astype(np.int32) for s in (a, b)],
                 mode)


def check_int8(op, mode, model, inputs, s1, s2, so, act):
    if mode == "default" and not xnnpack_takes(op, s1, s2, so, act) and not IS_LITERT:
        ours = oracle.run_ours(model, inputs, "default")
        oracle.assert_outputs_match(ours, oracle.run_oracle(model, inputs, "ref"),
                                    "default mode, undelegated: the reference formula")
    else:
        oracle.check(model, inputs, mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@settings(max_examples=200, deadline=None)
@given(shp=shapes(), act=st.sampled_from(ACTS),
       sc=st.one_of(st.tuples(scales, scales, scales), st.sampled_from(TIE_SCALES)),
       zp=st.tuples(zero_points, zero_points, zero_points), seed=st.integers(0, 2**32 - 1))
def test_int8(op, mode, shp, act, sc, zp, seed):
    rng = np.random.default_rng(seed)
    a, b = shp
    model = binary_model(op, a, b, np.int8, act, list(zip(sc, zp)))
    check_int8(op, mode, model, [int8_data(a, rng), int8_data(b, rng)], *sc, act)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("act", ACTS[:4])
@pytest.mark.parametrize("zo", [-3, 0, 1])
def test_int8_ties(op, mode, act, zo):
    """Every int8 code pair on power-of-two scales: sums, products and bounds on .5."""
    a, b = np.meshgrid(np.arange(-128, 128), np.arange(-128, 128))
    a, b = a.astype(np.int8).reshape(256, 256), b.astype(np.int8).reshape(256, 256)
    for sc in TIE_SCALES[:4]:
        model = binary_model(op, [256, 256], [256, 256], np.int8, act,
                             [(sc[0], 1), (sc[1], -2), (sc[2], zo)])
        check_int8(op, mode, model, [a, b], *sc, act)


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=40, deadline=None)
@given(shp=shapes(), act=st.sampled_from(ACTS[:4]),
       zp=st.tuples(zero_points, zero_points, zero_points), seed=st.integers(0, 2**32 - 1),
       k=st.integers(0, 99))
def test_int8_undelegated_without_overflow(op, shp, act, zp, seed, k):
    """Scales AUTO does not delegate but whose outputs stay in range (one input ~1000x
    finer than the output; MUL's product scale < 2^-16): TFLite's optimized kernel then
    equals the reference formula, and so does tflite_fast's default mode."""
    rng = np.random.default_rng(seed)
    a, b = shp
    if op == "MUL":
        sc = (1e-3 * (1 + k / 50), 2e-3, 1.0 + k / 10)
    else:
        sc = (1e-5 * (1 + k / 50), 0.02, 0.03 + k / 1000)
    assert not xnnpack_takes(op, *sc, act)
    model = binary_model(op, a, b, np.int8, act, list(zip(sc, zp)))
    oracle.check(model, [int8_data(a, rng), int8_data(b, rng)], "default")


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("act", ACTS)
def test_float_specials(op, mode, act):
    """Infinities, NaN and FLT_MAX: the builtin kernels clamp to the finite range even
    without an activation (inf -> FLT_MAX), XNNPACK does not."""
    big = np.finfo(np.float32).max
    x = np.array([np.inf, -np.inf, np.nan, big, -big, 1.0, -2.0, 0.0, 5.0], np.float32)
    y = np.array([1.0, 1.0, 1.0, big, -big, np.inf, np.nan, -np.inf, 2.0], np.float32)
    oracle.check(binary_model(op, [9], [9], np.float32, act), [x, y], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", OPS)
def test_constant_operands(op, mode):
    """A constant operand, and an op whose inputs are all constant (folded at prepare)
    feeding a second ADD."""
    rng = np.random.default_rng(7)
    ca, cb = int8_data([2, 3, 4], rng), int8_data([3, 1], rng)
    b = ModelBuilder()
    a_t = b.const("ca", ca, scale=0.1, zero_point=1)
    b_t = b.const("cb", cb, scale=0.2, zero_point=-3)
    folded = b.tensor("folded", [2, 3, 4], np.int8, 0.15, 2)
    b.op(op, [a_t, b_t], [folded], fusedActivationFunction=ACT.NONE)
    x = b.tensor("x", [2, 3, 4], np.int8, 0.1, 0)
    mixed = b.tensor("mixed", [2, 3, 4], np.int8, 0.12, -1)
    b.op(op, [x, b_t], [mixed], fusedActivationFunction=ACT.RELU)
    out = b.tensor("out", [2, 3, 4], np.int8, 0.3, 0)
    b.op("ADD", [folded, mixed], [out], fusedActivationFunction=ACT.NONE)
    b.inputs([x])
    b.outputs([out, mixed])
    oracle.check(b.build(), [int8_data([2, 3, 4], rng)], mode)


def expect_prepare_error(model, inputs, match):
    with pytest.raises((RuntimeError, ValueError), match=match):
        oracle.run_ours(model, inputs, "ref")


@pytest.mark.skipif(IS_LITERT, reason="tflite_fast's own messages (LiteRT aborts on scale 0)")
@pytest.mark.parametrize("op", OPS)
def test_errors(op):
    rng = np.random.default_rng(0)
    f = [rng.standard_normal(s).astype(np.float32) for s in ([2, 3], [4, 3])]
    expect_prepare_error(binary_model(op, [2, 3], [4, 3], np.float32, ACT.NONE,
                                      out_shape=[4, 3]), f, "not broadcastable")
    q = [(0.5, 0), (0.0, 0), (0.5, 0)]
    expect_prepare_error(binary_model(op, [2, 3], [2, 3], np.int8, ACT.NONE, q),
                         [int8_data([2, 3], rng)] * 2, f"{op}: input 2 scale 0")
    b = ModelBuilder()
    x = b.tensor("a", [2, 3], np.float32)
    y = b.tensor("b", [2, 3], np.int32)
    z = b.tensor("out", [2, 3], np.float32)
    b.op(op, [x, y], [z], fusedActivationFunction=ACT.NONE)
    b.inputs([x, y])
    b.outputs([z])
    expect_prepare_error(b.build(), [f[0], np.zeros([2, 3], np.int32)], "types")
