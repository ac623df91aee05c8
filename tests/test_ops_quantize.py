"""QUANTIZE and DEQUANTIZE against ai_edge_litert in both numerics modes.

QUANTIZE from float32 to int8/uint8/int16 with inputs on exact .5 ties of the scale,
ordinary values, values past the type's range, and infinities/NaN; requantization between
int8, uint8 and int16 with every 8-bit code. Lengths are drawn so that the int16 path
(AUTO: TFLite's optimized kernel, blocks of 8 then a scalar tail) and the 8-bit fallback
requantize (blocks of 16) see both parts. DEQUANTIZE from int8/uint8/int16 (per tensor
and per channel, as input or constant) and from float16, every bit pattern.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder
from test_ops_activations import unary_model as activations_model

f32 = np.float32
IS_LITERT = oracle.ours_module() is oracle.oracle_module()
QTYPES = [np.int8, np.uint8, np.int16]
# (input, output) types TFLite's QUANTIZE requantizes between.
REQUANT = [(np.int8, np.int8), (np.uint8, np.uint8), (np.int8, np.uint8), (np.uint8, np.int8),
           (np.int8, np.int16), (np.uint8, np.int16), (np.int16, np.int8), (np.int16, np.int16)]

scales = st.integers(-400, 100).map(lambda k: float(f32(10.0 ** (k / 100))))


def zero_points(dtype):
    if dtype == np.int16:  # int16 -> int16 requires 0; other int16 uses keep it small
        return st.sampled_from([0, 0, -7, 300])
    info = np.iinfo(dtype)
    return st.one_of(st.integers(int(info.min), int(info.max)),
                     st.sampled_from([int(info.min), int(info.max)]))


def unary_model(op, shape, in_type, out_type, q_in=None, q_out=None):
    return activations_model(op, shape, in_type, q_in, q_out, out_type)


def float_inputs(n, scale, rng, specials=False):
    """Exact ties k.5*scale, values within a few hundred steps, and some far outside."""
    k = rng.integers(-40000, 40000, n) + 0.5
    x = np.where(rng.random(n) < 0.4, k * scale, rng.normal(0, 300 * scale, n))
    x = np.where(rng.random(n) < 0.05, rng.normal(0, 1e6 * scale, n), x).astype(np.float32)
    if specials and n >= 5:
        x[rng.choice(n, 5, replace=False)] = [np.inf, -np.inf, np.nan, 3e38, -3e38]
    return x


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", QTYPES)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(0, 70), s=scales, seed=st.integers(0, 2**32 - 1),
       specials=st.booleans())
def test_quantize_float(mode, dtype, data, n, s, seed, specials):
    z = data.draw(zero_points(dtype))
    model = unary_model("QUANTIZE", [n], np.float32, dtype, q_out=(s, z))
    oracle.check(model, [float_inputs(n, s, np.random.default_rng(seed), specials)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", QTYPES)
@pytest.mark.parametrize("z", [-5, 0, 7])
def test_quantize_float_specials(mode, dtype, z):
    """NaN and values past int32 go through x86's float->int conversion (INT32_MIN) in
    TFLite's kernels, then the zero point is added with wrap-around; XNNPACK clamps
    first (NaN -> max)."""
    if dtype == np.uint8:
        z += 100
    x = np.array([np.inf, -np.inf, np.nan, 1e30, -1e30, 3e9, -3e9, 1e5, -1e5, 0.25, 0.75,
                  -0.25, 2.5, -2.5, 1.0, 63.5, -64.5, 0.0, np.nan], np.float32)
    oracle.check(unary_model("QUANTIZE", [x.size], np.float32, dtype, q_out=(0.5, z)), [x], mode)


def codes(dtype, n, rng):
    """n codes of an integer dtype; 8-bit ones cycle through all 256 values first."""
    info = np.iinfo(dtype)
    if np.dtype(dtype).itemsize == 1:
        base = rng.permutation(np.arange(int(info.min), int(info.max) + 1))
        return np.resize(base, n).astype(dtype)
    x = rng.integers(int(info.min), int(info.max) + 1, n)
    x[: min(n, 2)] = [int(info.min), int(info.max)][: min(n, 2)]
    return x.astype(dtype)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("types", REQUANT, ids=lambda t: f"{t[0].__name__}-{t[1].__name__}")
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(0, 300), s_in=scales, seed=st.integers(0, 2**32 - 1),
       ratio=st.one_of(st.none(), st.integers(-350, 300)))
def test_requantize(mode, types, data, n, s_in, seed, ratio):
    a, b = types
    # ratio: a scale ratio 10^(k/100) on both sides of XNNPACK's [1/256, 128].
    s_out = data.draw(scales) if ratio is None else float(f32(s_in / 10.0 ** (ratio / 100)))
    z_in, z_out = data.draw(zero_points(a)), data.draw(zero_points(b))
    if a == np.int16 and b == np.int16:
        z_in = z_out = 0
    model = unary_model("QUANTIZE", [n], a, b, (s_in, z_in), (s_out, z_out))
    oracle.check(model, [codes(a, n, np.random.default_rng(seed))], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("n", [16, 37])
def test_requantize_zero_point_flip(mode, n):
    """int8 <-> uint8 with equal scales and zero points 128 apart (TFLite's XOR path)."""
    rng = np.random.default_rng(n)
    for a, b, za, zb in [(np.int8, np.uint8, -3, 125), (np.uint8, np.int8, 130, 2)]:
        model = unary_model("QUANTIZE", [n], a, b, (0.1, za), (0.1, zb))
        oracle.check(model, [codes(a, n, rng)], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", QTYPES)
@settings(max_examples=25, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(1, 5), max_size=5), s=scales,
       seed=st.integers(0, 2**32 - 1))
def test_dequantize(mode, dtype, data, shape, s, seed):
    z = 0 if dtype == np.int16 else data.draw(zero_points(dtype))
    n = int(np.prod(shape))
    x = codes(dtype, n, np.random.default_rng(seed)).reshape(shape)
    oracle.check(unary_model("DEQUANTIZE", shape, dtype, np.float32, (s, z)), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_dequantize_float16_every_bit_pattern(mode):
    """Bit-exact, subnormals, infinities and NaN payloads included."""
    h = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    model = unary_model("DEQUANTIZE", [65536], np.float16, np.float32)
    ref = oracle.run_oracle(model, [h], mode)[0]
    ours = oracle.run_ours(model, [h], mode)[0]
    assert ours.dtype == np.float32
    np.testing.assert_array_equal(ours.view(np.uint32), ref.view(np.uint32))


def weights_model(w, scale=None, zero_point=None, axis=0):
    """Constant w -> DEQUANTIZE -> ADD with the input x: the *_fp16 / weight pattern."""
    b = ModelBuilder()
    c = b.const("w", w, scale=scale, zero_point=zero_point, quantized_dimension=axis)
    d = b.tensor("w_f32", w.shape, np.float32)
    x = b.tensor("x", w.shape, np.float32)
    y = b.tensor("y", w.shape, np.float32)
    b.op("DEQUANTIZE", [c], [d])
    b.op("ADD", [x, d], [y], fusedActivationFunction=0)
    b.inputs([x])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
def test_dequantize_constant_float16(mode):
    rng = np.random.default_rng(5)
    w = (rng.standard_normal([3, 4, 5]) * 10).astype(np.float16)
    w.ravel()[:6] = np.array([0, 0x8000, 1, 0x3ff, 0x7bff, 0x400], np.uint16).view(np.float16)
    x = rng.standard_normal(w.shape).astype(np.float32)
    oracle.check(weights_model(w), [x], mode)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_dequantize_per_channel(mode, axis, dtype):
    rng = np.random.default_rng(axis)
    shape = [3, 4, 5]
    w = codes(dtype, 60, rng).reshape(shape)
    scale = (10.0 ** rng.uniform(-3, 0, shape[axis])).astype(np.float32)
    zero = rng.integers(-5, 6, shape[axis]) + (128 if dtype == np.uint8 else 0)
    x = rng.standard_normal(shape).astype(np.float32)
    oracle.check(weights_model(w, scale, zero, axis), [x], mode)
    b = ModelBuilder()  # the same as a graph input
    xi = b.tensor("w", shape, dtype, scale, zero, quantized_dimension=axis)
    y = b.tensor("y", shape, np.float32)
    b.op("DEQUANTIZE", [xi], [y])
    b.inputs([xi])
    b.outputs([y])
    oracle.check(b.build(), [w], mode)


@pytest.mark.skipif(IS_LITERT, reason="tflite_fast's own messages")
@pytest.mark.parametrize("op,in_type,out_type,q_in,q_out,match", [
    ("QUANTIZE", np.float32, np.int32, None, (0.5, 0), "QUANTIZE: output type INT32"),
    ("QUANTIZE", np.int16, np.uint8, (0.5, 0), (0.5, 0), "int16 input needs"),
    ("QUANTIZE", np.int16, np.int16, (0.5, 3), (0.5, 0), "zero points 0"),
    ("QUANTIZE", np.float32, np.int8, None, (0.0, 0), "output scale 0"),
    ("DEQUANTIZE", np.int16, np.float32, (0.5, 3), None, "zero point 3 must be 0"),
    ("DEQUANTIZE", np.int8, np.int8, (0.5, 3), (0.5, 3), "output type INT8"),
    ("DEQUANTIZE", np.float32, np.float32, None, None, "input type FLOAT32"),
])
def test_errors(op, in_type, out_type, q_in, q_out, match):
    model = unary_model(op, [4], in_type, out_type, q_in, q_out)
    with pytest.raises((RuntimeError, ValueError), match=match):
        oracle.run_ours(model, [np.zeros([4], in_type)], "ref")


def shared_weights_model(rng, unread_output, n=300, k=256):
    """Constant float16 weights DEQUANTIZEd once (a 300 KB float32 output) and read by
    two FULLY_CONNECTEDs; a second constant DEQUANTIZE read by no op, a graph output
    when `unread_output` (XNNPACK, the default-mode oracle, refuses that)."""
    b = ModelBuilder()
    x = b.tensor("x", [1, k], np.float32)
    c = b.const("w16", (rng.standard_normal((n, k)) * 0.1).astype(np.float16))
    s = b.const("s16", rng.standard_normal(k).astype(np.float16))
    w, sf = b.tensor("w", [n, k], np.float32), b.tensor("s", [k], np.float32)
    y1, y2 = b.tensor("y1", [1, n], np.float32), b.tensor("y2", [1, n], np.float32)
    b.op("DEQUANTIZE", [s], [sf])
    b.op("DEQUANTIZE", [c], [w])
    b.op("FULLY_CONNECTED", [x, w, -1], [y1])
    b.op("FULLY_CONNECTED", [x, w, -1], [y2], fusedActivationFunction=1)
    b.inputs([x])
    b.outputs([y1, y2, sf] if unread_output else [y1, y2])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
def test_dequantize_constant_deferred_to_reader(mode):
    """Constant DEQUANTIZEs prepare just before their first reader (or last, when none
    reads them), their outputs in the packed weights' region: the outputs and readers
    match the oracle, also after a resize re-prepares everything into the same region."""
    rng = np.random.default_rng(11)
    model = shared_weights_model(rng, unread_output=mode == "ref")
    its = [oracle.make_interpreter(m, model, mode) for m in (oracle.ours_module(), oracle.oracle_module())]
    for batch in (1, 3, 2):
        x = rng.standard_normal((batch, 256)).astype(np.float32)
        ours, ref = (oracle.run_interpreter(it, [x]) for it in its)
        oracle.assert_outputs_match(ours, ref, context=f"mode={mode} batch={batch}")
