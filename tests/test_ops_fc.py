"""FULLY_CONNECTED against ai_edge_litert in both numerics modes.

Hypothesis draws single-op models: float, int8 (per-channel scales spanning three orders
of magnitude or one per-tensor scale, zero points including -128/127, every fused
activation) and hybrid (float activations, int8 weights; symmetric or
asymmetric_quantize_inputs); inputs of rank 1-4, keep_num_dims, with and without bias.
Also: float weights computed at run time, the quantizers' rounding ties, and the FC layers
of the shared models with their real weights.
"""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from model_builder import ModelBuilder, S
from test_ops_conv import (ACTS, IS_LITERT, check_layers, check_resized, float_input,
                           scale_order_model, weight_scales, zero_point)

KINDS = ["float", "int8", "hybrid"]


def build_fc(kind, lead, k, n, bias, act, keep, rng, asym=False, per_channel=True, zx=0, zy=0,
             const_weights=True, int8_weights=None):
    """A single FULLY_CONNECTED model over an input of shape lead + [k], and its inputs
    (int8: random weights in [-127, 127] unless int8_weights gives them)."""
    b = ModelBuilder()
    out_shape = lead + [n] if keep else [int(np.prod(lead, dtype=np.int64)), n]
    if kind == "int8":
        sx = np.float32(10.0 ** rng.uniform(-2.5, 0))
        sw = weight_scales(rng, n, per_channel)
        sy = np.float32(sx * np.median(sw) * np.sqrt(k) * 60 * 10.0 ** rng.uniform(-1, 1))
        x = b.tensor("x", lead + [k], np.int8, scale=sx, zero_point=zx)
        y = b.tensor("y", out_shape, np.int8, scale=sy, zero_point=zy)
        weights = rng.integers(-127, 128, (n, k)) if int8_weights is None else int8_weights
        w = b.const("w", weights.astype(np.int8), scale=sw, zero_point=[0] * len(sw))
        bias_scale = (sx * sw).astype(np.float32)
        bt = b.const("b", rng.integers(-30000, 30000, n).astype(np.int32), scale=bias_scale,
                     zero_point=[0] * len(bias_scale)) if bias else -1
        inputs = [rng.integers(-128, 128, lead + [k]).astype(np.int8)]
    else:
        x = b.tensor("x", lead + [k], np.float32)
        y = b.tensor("y", out_shape, np.float32)
        if kind == "float":
            weights = (rng.standard_normal((n, k)) / np.sqrt(k)).astype(np.float32)
            w = b.const("w", weights) if const_weights else b.tensor("w", [n, k], np.float32)
        else:
            sw = weight_scales(rng, n, per_channel)
            w = b.const("w", rng.integers(-127, 128, (n, k)).astype(np.int8), scale=sw,
                        zero_point=[0] * len(sw))
        bt = b.const("b", rng.standard_normal(n).astype(np.float32)) if bias else -1
        inputs = [float_input(rng, lead + [k])]
        if kind == "float" and not const_weights:
            inputs.append(weights)
    b.op("FULLY_CONNECTED", [x, w, bt], [y], version=5 if kind != "float" else 1,
         fusedActivationFunction=act, keepNumDims=keep, asymmetricQuantizeInputs=asym)
    b.inputs([x] if const_weights else [x, w])
    b.outputs([y])
    return b.build(), inputs


def check_both(model, inputs):
    for mode in oracle.MODES:
        oracle.check(model, inputs, mode)


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(KINDS), lead=st.lists(st.integers(1, 3), max_size=3),
       k=st.one_of(st.integers(1, 40), st.integers(41, 600)), n=st.integers(1, 40),
       bias=st.booleans(), act=st.sampled_from(ACTS), keep=st.booleans(), asym=st.booleans(),
       per_channel=st.booleans(), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_fully_connected(kind, lead, k, n, bias, act, keep, asym, per_channel, data, seed):
    zx, zy = zero_point(data.draw), zero_point(data.draw)
    model, inputs = build_fc(kind, lead, k, n, bias, act, keep, np.random.default_rng(seed),
                             asym=asym, per_channel=per_channel, zx=zx, zy=zy)
    check_both(model, inputs)


def test_requantization_scale_order():
    """See test_ops_conv.SCALE_ORDER_CASES."""
    check_both(*scale_order_model("FULLY_CONNECTED"))


@pytest.mark.parametrize("lead", [[], [3], [2, 5]])
@pytest.mark.parametrize("bias", [False, True])
def test_float_weights_at_run_time(lead, bias):
    """Transformer graphs feed FC weights computed by other ops."""
    rng = np.random.default_rng(len(lead))
    model, inputs = build_fc("float", lead, 37, 19, bias, ACTS[1], True, rng,
                             const_weights=False)
    check_both(model, inputs)
    inputs[1] = inputs[1] * 2  # new weights on the next invoke
    check_both(model, inputs)


@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_resize_input(kind, keep):
    rng = np.random.default_rng(5)
    model, (x,) = build_fc(kind, [2], 10, 6, True, ACTS[0], keep, rng)
    make = (lambda s: rng.integers(-128, 128, s).astype(np.int8)) if x.dtype == np.int8 else \
        (lambda s: float_input(rng, s))
    check_resized(model, make, [(2, 10), (5, 10), (1, 10)] if keep else [(2, 10), (3, 20), (10,)])


@pytest.mark.parametrize("asym", [False, True])
@pytest.mark.parametrize("k", [8, 9, 17])
def test_hybrid_rounding_ties(k, asym):
    """x·(1/scale) just below 0.5: TFLite's x86 build rounds blocks of 8 by adding 0.5 and
    truncating (-> 1) and the tail half-away (-> 0); XNNPACK rounds to even."""
    b = ModelBuilder()
    x = b.tensor("x", [3, k], np.float32)
    y = b.tensor("y", [3, k], np.float32)
    b.op("FULLY_CONNECTED", [x, b.const("w", np.eye(k, dtype=np.int8), scale=[1.0],
                                         zero_point=[0]), -1], [y],
         asymmetricQuantizeInputs=asym)
    b.inputs([x])
    b.outputs([y])
    b_ = np.nextafter(np.float32(0.5), np.float32(0))
    sym_tie = [127.0] + [b_] * (k - 1)               # symmetric scale 1
    asym_tie = [127.0, -128.0] + [b_] * (k - 2)      # asymmetric scale 1, zero point 0
    halves = [127.0, -128.0] + [(0.5, -0.5, 1.5, -2.5, 2.5)[i % 5] for i in range(k - 2)]
    rows = np.array([sym_tie, asym_tie, halves], np.float32)
    check_both(b.build(), [rows])


@pytest.mark.parametrize("wlow", [-128, -127])
def test_gemv_extreme_weights(wlow):
    """One row (a GEMV) of -128/127 inputs times weights of wlow/127: the largest pair sums.
    Without a -128 weight an AVX2 CPU takes the sign-step kernel (exact for [-127, 127]
    only, qs8-qc8w-gemm.h), with one it must not."""
    rng = np.random.default_rng(-wlow)
    k, n = 200, 70
    model, _ = build_fc("int8", [1], k, n, True, ACTS[0], False, rng,
                        int8_weights=rng.choice([wlow, 127], (n, k)), zx=-128)
    x = rng.choice([-128, 127], (1, k)).astype(np.int8)
    check_both(model, [x])
    it = oracle.make_interpreter(oracle.ours_module(), model, "default")
    it.allocate_tensors()
    kernel = it._get_ops_details()[0]["kernel"]
    from tflite_fast._core import cpu_config
    effective = cpu_config()[2]
    if wlow == -128:
        assert "_sign" not in kernel, kernel
    elif "avx2" in effective and "avx512vnni" not in effective:
        assert kernel.endswith("_1x64c4__avx2_sign"), kernel


@pytest.mark.parametrize("kind", ["hybrid", "int8"])
def test_degenerate_rows(kind):
    """All-zero, one-signed and constant rows."""
    model, (x,) = build_fc(kind, [4], 24, 5, True, ACTS[0], False, np.random.default_rng(1))
    if x.dtype == np.int8:
        rows = [np.full(24, v) for v in (-128, 0, 127, 5)]
    else:
        rows = [np.zeros(24), np.abs(x[1]), -np.abs(x[2]), np.full(24, 0.3)]
    check_both(model, [np.stack(rows).astype(x.dtype)])


@pytest.mark.parametrize("name", ["transformer_block_hybrid", "transformer_block_int8f",
                                  "transformer_block_float", "small_cnn_hybrid",
                                  "seed_dense_hybrid", "mobilenet_v2_hybrid", "kws_dscnn_int8",
                                  "lstm_text_hybrid", "small_cnn_fp16"])
def test_shared_model_layers(name):
    check_layers(name, ["FULLY_CONNECTED"])


# --- what tflite_fast rejects, with the message -----------------------------------

def fc_model(weights_format=0, w_type=np.int8, w_const=True, w_zp=0, k=6, in_size=12):
    b = ModelBuilder()
    x = b.tensor("x", [in_size], np.int8, scale=0.5, zero_point=0)
    y = b.tensor("y", [in_size // k, 3], np.int8, scale=0.5, zero_point=0)
    q = dict(scale=[0.1], zero_point=[w_zp])
    w = b.const("w", np.ones((3, k), w_type), **q) if w_const else \
        b.tensor("w", [3, k], w_type, **q)
    b.op("FULLY_CONNECTED", [x, w, -1], [y], weightsFormat=weights_format)
    b.inputs([x] if w_const else [x, w])
    b.outputs([y])
    return b.build()


REJECTED = [
    (dict(weights_format=1), r"FULLY_CONNECTED: weights format 1 \(shuffled\) is not "
                             "supported, only the default"),
    (dict(w_const=False), "FULLY_CONNECTED: int8 weights must be a constant tensor"),
    (dict(w_zp=2), "FULLY_CONNECTED: filter zero point 2 of channel 0 is not 0"),
    (dict(in_size=13), "FULLY_CONNECTED: input of 13 elements is not a whole number of "
                       "rows of 6"),
    (dict(w_type=np.int16), "FULLY_CONNECTED: input type INT8 with filter type INT16 is not "
                            "supported"),
]


@pytest.mark.skipif(IS_LITERT, reason="tflite_fast's own messages")
@pytest.mark.parametrize("kwargs,message", REJECTED)
def test_rejected_with_message(kwargs, message):
    interp = oracle.make_interpreter(oracle.ours_module(), fc_model(**kwargs), "default")
    with pytest.raises(RuntimeError) as e:
        interp.allocate_tensors()
    assert re.search(message, str(e.value)), str(e.value)
