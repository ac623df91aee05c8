"""EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_AND and LOGICAL_OR
against ai_edge_litert in both numerics modes.

Hypothesis draws broadcast shapes of rank 0..6 (zero-size dims included), every input type
TFLite's kernels take (bool for EQUAL/NOT_EQUAL, float32, float16, int8, uint8, int16,
int32, int64), inputs where equal values are likely, and for int8/uint8 scales over four orders of
magnitude in (0, 1) and zero points over the full code range: TFLite compares their
rescaled values MBQM((x - z)*2^8, M, e), so neighbouring real values may compare equal.
Quantized int16 inputs are rescaled alike by EQUAL and NOT_EQUAL only.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder
from test_ops_elementwise import shapes

CMP = ["EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL"]
NUMPY = {"EQUAL": np.equal, "NOT_EQUAL": np.not_equal, "LESS": np.less,
         "LESS_EQUAL": np.less_equal, "GREATER": np.greater, "GREATER_EQUAL": np.greater_equal}
TYPES = [np.float32, np.float16, np.int8, np.uint8, np.int16, np.int32, np.int64]
f32 = np.float32
tff_only = pytest.mark.skipif(oracle.ours_module() is oracle.oracle_module(),
                              reason="checks tflite_fast's own validation and messages")


def model2(op, sa, sb, dtype, q=(None, None), out_dtype=np.bool_, out_q=None, out_shape=None,
           **options):
    """A single-op model of two inputs and one output (shape broadcast)."""
    b = ModelBuilder()
    qa, qb = [(None, None) if p is None else p for p in q]
    x = b.tensor("a", sa, dtype, *qa)
    y = b.tensor("b", sb, dtype, *qb)
    if out_shape is None:
        out_shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
    z = b.tensor("out", out_shape, out_dtype,
                 *(out_q or (None, None)))
    b.op(op, [x, y], [z], **options)
    b.inputs([x, y])
    b.outputs([z])
    return b.build()


def values(shape, dtype, rng, lo=None, hi=None):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return (rng.standard_normal(shape) * 4).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    info = np.iinfo(dt)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return rng.integers(lo, hi, size=shape, endpoint=True, dtype=dt)


def likely_equal(xa, xb, rng):
    """xb with about half its elements copied from xa (broadcast), so == and <= matter."""
    if xa.size == 0 or xb.size == 0:
        return xb
    pick = rng.integers(0, 2, size=xb.shape).astype(bool)
    src = np.broadcast_to(xa, np.broadcast_shapes(xa.shape, xb.shape))
    src = src[tuple(slice(0, d) for d in ((1,) * (src.ndim - xb.ndim) + xb.shape))]
    return np.where(pick, src.reshape(xb.shape), xb).astype(xb.dtype)


cmp_scales = st.integers(-400, -1).map(lambda k: float(f32(10.0 ** (k / 100))))


@st.composite
def quant(draw, dtype):
    lo, hi = {np.int8: (-128, 127), np.uint8: (0, 255), np.int16: (-300, 300)}[dtype]
    return [(draw(st.one_of(cmp_scales, st.sampled_from([0.5, 0.25, 0.1, 0.75]))),
             draw(st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0]))))
            for _ in range(2)]


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", CMP)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), shp=shapes(), seed=st.integers(0, 2**32 - 1))
def test_compare(op, mode, data, shp, seed):
    rng = np.random.default_rng(seed)
    types = TYPES + ([np.bool_] if op in ("EQUAL", "NOT_EQUAL") else [])
    dtype = data.draw(st.sampled_from(types))
    q = (None, None)
    if dtype in (np.int8, np.uint8) or (dtype == np.int16 and op in ("EQUAL", "NOT_EQUAL")
                                        and data.draw(st.booleans())):
        q = data.draw(quant(dtype))
    sa, sb = shp
    small = dtype == np.int16 and q[0] is not None  # rescaled int16: keep (x - z)*2^8 in int32
    xa = values(sa, dtype, rng, *((-8000, 8000) if small else ()))
    xb = values(sb, dtype, rng, *((-8000, 8000) if small else ()))
    if q[0] is None:
        xb = likely_equal(xa, xb, rng)
    model = model2(op, sa, sb, dtype, q)
    if op == "NOT_EQUAL" and dtype == np.int16 and q[0] is None:
        # TFLite's NOT_EQUAL leaves an unquantized int16 output unwritten; ours is a != b.
        ours = oracle.run_ours(model, [xa, xb], mode)[0]
        np.testing.assert_array_equal(ours, np.not_equal(xa, xb))
    else:
        oracle.check(model, [xa, xb], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", CMP)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_quantized_every_code_pair(op, mode, dtype):
    """All 256x256 code pairs, on nearby scales and zero points: the rescaled values
    decide the near ties; with equal quantization the result is the real-value one."""
    lo = -128 if dtype == np.int8 else 0
    a, b = np.meshgrid(np.arange(lo, lo + 256), np.arange(lo, lo + 256))
    a, b = a.astype(dtype), b.astype(dtype)
    for q in ([(0.5, lo + 2), (0.25, lo + 100)], [(0.1, lo + 3), (0.1 * (1 + 2**-20), lo + 3)],
              [(0.0157, lo + 128), (0.0157, lo + 128)]):
        ours, _ = oracle.check(model2(op, [256, 256], [256, 256], dtype, q), [a, b], mode)
        if q[0] == q[1]:
            np.testing.assert_array_equal(ours[0], NUMPY[op](a, b))


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["EQUAL", "NOT_EQUAL"])
def test_int16_quantized_compares_real_values(op, mode):
    """a = 0.5*qa, b = 0.25*(qb - 2): equal reals compare equal."""
    qa = np.arange(-2000, 2000, dtype=np.int16)
    qb = (2 * qa + 2 + np.arange(qa.size) % 3 - 1).astype(np.int16)
    ours, _ = oracle.check(model2(op, [4000], [4000], np.int16, [(0.5, 0), (0.25, 2)]),
                           [qa, qb], mode)
    np.testing.assert_array_equal(ours[0], NUMPY[op](0.5 * qa, 0.25 * (qb - 2.0)))


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", CMP)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_float_specials(op, mode, dtype):
    """Infinities, NaN, the largest value, signed zeros and (float16) subnormals."""
    big, tiny = np.finfo(dtype).max, np.finfo(dtype).smallest_subnormal
    x = np.array([np.inf, -np.inf, np.nan, big, 0.0, -0.0, np.nan, 1.0, tiny, -tiny], dtype)
    y = np.array([np.inf, np.inf, 1.0, -big, -0.0, 0.0, np.nan, np.nan, 2 * tiny, 0.0], dtype)
    ours, _ = oracle.check(model2(op, [10], [10], dtype), [x, y], mode)
    np.testing.assert_array_equal(ours[0], NUMPY[op](x, y))


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["LOGICAL_AND", "LOGICAL_OR"])
@settings(max_examples=20, deadline=None)
@given(shp=shapes(), seed=st.integers(0, 2**32 - 1))
def test_logical(op, mode, shp, seed):
    rng = np.random.default_rng(seed)
    sa, sb = shp
    oracle.check(model2(op, sa, sb, np.bool_),
                 [values(sa, np.bool_, rng), values(sb, np.bool_, rng)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", CMP + ["LOGICAL_OR"])
def test_constant_folded(op, mode):
    """Constant inputs: the op runs at prepare and feeds a LOGICAL_AND."""
    b = ModelBuilder()
    c = b.tensor("c", [2, 3], np.bool_)
    dtype = np.bool_ if op == "LOGICAL_OR" else np.int32
    p = np.array([[1, 5, 3], [0, 0, 1]], dtype)
    q = np.array([1, 0, 3], dtype)
    b.op(op, [b.const("p", p), b.const("q", q)], [c])
    x = b.tensor("x", [2, 3], np.bool_)
    y = b.tensor("y", [2, 3], np.bool_)
    b.op("LOGICAL_AND", [x, c], [y])
    b.inputs([x])
    b.outputs([y])
    ours, _ = oracle.check(b.build(), [np.ones([2, 3], np.bool_)], mode)
    expect = np.logical_or(p, q) if op == "LOGICAL_OR" else NUMPY[op](p, q)
    np.testing.assert_array_equal(ours[0], expect)


@pytest.mark.parametrize("op", ["LESS", "GREATER_EQUAL", "LOGICAL_OR"])
def test_unsupported_types_rejected(op):
    """bool has no order; logical ops take only bool. TFLite refuses at invoke (LOGICAL_OR
    at prepare), tflite_fast at prepare."""
    dtype = np.int32 if op == "LOGICAL_OR" else np.bool_
    model = model2(op, [3], [3], dtype)
    x = [np.zeros(3, dtype)] * 2
    with pytest.raises(RuntimeError):
        oracle.run_oracle(model, x, "ref")
    interp = oracle.make_interpreter(oracle.ours_module(), model, "ref")
    with pytest.raises(RuntimeError, match="not supported|must be BOOL"):
        interp.allocate_tensors()


@tff_only
@pytest.mark.parametrize("op", CMP)
def test_errors(op):
    m = model2(op, [3], [3], np.int8, [(1.5, 0), (0.5, 0)])
    with pytest.raises(RuntimeError, match=f"{op}: input 0 scale 1.5 must be in"):
        oracle.run_ours(m, [np.zeros(3, np.int8)] * 2, "ref")
    m = model2(op, [3], [3], np.uint8, [(0.5, 0), (0.5, 300)])
    with pytest.raises(RuntimeError, match="input 1 zero point 300 is outside"):
        oracle.run_ours(m, [np.zeros(3, np.uint8)] * 2, "ref")
    m = model2(op, [2, 3], [4, 3], np.float32, out_shape=[4, 3])
    with pytest.raises(RuntimeError, match="not broadcastable"):
        oracle.run_ours(m, [np.zeros([2, 3], np.float32), np.zeros([4, 3], np.float32)], "ref")
