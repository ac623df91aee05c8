"""CONV_2D and DEPTHWISE_CONV_2D against ai_edge_litert in both numerics modes.

Hypothesis draws single-op models: float, int8 (per-channel scales spanning three orders
of magnitude or one per-tensor scale, zero points including -128/127, every fused
activation) and hybrid (float activations, int8 weights); odd sizes, strides 1-3,
dilations 1-2, SAME/VALID, groups (CONV_2D), depth multipliers 1-3 (DEPTHWISE). The
layers of the shared models run as single-op models with their real weights too.
"""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from conftest import model_path
from model_builder import ModelBuilder, S

IS_LITERT = oracle.ours_module() is oracle.oracle_module()
ACTS = [S.ActivationFunctionType.NONE, S.ActivationFunctionType.RELU,
        S.ActivationFunctionType.RELU6, S.ActivationFunctionType.RELU_N1_TO_1]
KINDS = ["float", "int8", "hybrid"]


def out_size(size, k, stride, dilation, same):
    eff = (k - 1) * dilation + 1
    return -(-size // stride) if same else max(0, (size - eff) // stride + 1)


def zero_point(draw):
    return draw(st.sampled_from([-128, 127, 0])) if draw(st.booleans()) else \
        draw(st.integers(-128, 127))


def weight_scales(rng, channels, per_channel):
    """Per-channel scales spread over three orders of magnitude, or one scale."""
    base = 10.0 ** rng.uniform(-3, -1.5)
    n = channels if per_channel else 1
    return (base * 10.0 ** rng.uniform(-1.5, 1.5, n)).astype(np.float32)


def float_input(rng, shape):
    """Normal values with a random scale and offset, so hybrid rows are often one-sided."""
    return (rng.standard_normal(shape) * 10.0 ** rng.uniform(-1, 1)
            + rng.uniform(-1, 1)).astype(np.float32)


def build(op, kind, n, h, w, cin, cout, kh, kw, stride, dilation, same, act, bias, rng,
          groups=1, mult=1, zx=0, zy=0, per_channel=True):
    """A single CONV_2D / DEPTHWISE_CONV_2D model and one input for it. `bias` False leaves
    the bias input out; "zero" makes it zeros."""
    b = ModelBuilder()
    oh = out_size(h, kh, stride[0], dilation[0], same)
    ow = out_size(w, kw, stride[1], dilation[1], same)
    if op == "CONV_2D":
        wshape, qdim, depth = (cout, kh, kw, cin // groups), 0, kh * kw * (cin // groups)
    else:
        wshape, qdim, depth = (1, kh, kw, cout), 3, kh * kw
    if kind == "int8":
        sx = np.float32(10.0 ** rng.uniform(-2.5, 0))
        sw = weight_scales(rng, cout, per_channel)
        # Output scale near the accumulator's spread, so outputs both saturate and don't.
        sy = np.float32(sx * np.median(sw) * np.sqrt(depth) * 60 * 10.0 ** rng.uniform(-1, 1))
        x = b.tensor("x", [n, h, w, cin], np.int8, scale=sx, zero_point=zx)
        y = b.tensor("y", [n, oh, ow, cout], np.int8, scale=sy, zero_point=zy)
        wt = b.const("w", rng.integers(-127, 128, wshape).astype(np.int8), scale=sw,
                     zero_point=[0] * len(sw), quantized_dimension=qdim)
        bias_scale = (sx * sw).astype(np.float32)
        bt = b.const("b", rng.integers(-30000, 30000, cout).astype(np.int32) * (bias != "zero"),
                     scale=bias_scale, zero_point=[0] * len(bias_scale))
        inputs = [rng.integers(-128, 128, (n, h, w, cin)).astype(np.int8)]
    else:
        x = b.tensor("x", [n, h, w, cin], np.float32)
        y = b.tensor("y", [n, oh, ow, cout], np.float32)
        if kind == "float":
            wt = b.const("w", rng.standard_normal(wshape).astype(np.float32))
        else:
            sw = weight_scales(rng, cout, per_channel)
            wt = b.const("w", rng.integers(-127, 128, wshape).astype(np.int8), scale=sw,
                         zero_point=[0] * len(sw), quantized_dimension=qdim)
        bt = b.const("b", rng.standard_normal(cout).astype(np.float32) * (bias != "zero"))
        inputs = [float_input(rng, (n, h, w, cin))]
    opts = dict(padding=S.Padding.SAME if same else S.Padding.VALID, strideH=stride[0],
                strideW=stride[1], dilationHFactor=dilation[0], dilationWFactor=dilation[1],
                fusedActivationFunction=act)
    if op == "DEPTHWISE_CONV_2D":
        opts["depthMultiplier"] = mult
    b.op(op, [x, wt, bt] if bias else [x, wt], [y], version=3 if kind != "float" else 1, **opts)
    b.inputs([x])
    b.outputs([y])
    return b.build(), inputs


@st.composite
def geometry(draw):
    kh, kw = draw(st.sampled_from([1, 2, 3, 5])), draw(st.sampled_from([1, 2, 3, 5]))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    h, w = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    same = draw(st.booleans()) or h < (kh - 1) * dilation[0] + 1 or w < (kw - 1) * dilation[1] + 1
    return dict(n=draw(st.integers(1, 2)), h=h, w=w, kh=kh, kw=kw, stride=stride,
                dilation=dilation, same=same)


def check_both(model, inputs):
    for mode in oracle.MODES:
        oracle.check(model, inputs, mode)


@settings(max_examples=300, deadline=None)
@given(g=geometry(), kind=st.sampled_from(KINDS), groups=st.integers(1, 3),
       cin_g=st.integers(1, 6), cout_g=st.integers(1, 6), act=st.sampled_from(ACTS),
       per_channel=st.booleans(), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_conv_2d(g, kind, groups, cin_g, cout_g, act, per_channel, data, seed):
    zx, zy = zero_point(data.draw), zero_point(data.draw)
    if kind == "hybrid" and groups > 1:
        per_channel = True  # LiteRT's reference grouped hybrid conv indexes per-channel scales
    model, inputs = build("CONV_2D", kind, cin=groups * cin_g, cout=groups * cout_g, act=act,
                          bias=True, rng=np.random.default_rng(seed), groups=groups, zx=zx,
                          zy=zy, per_channel=per_channel, **g)
    check_both(model, inputs)


@settings(max_examples=300, deadline=None)
@given(g=geometry(), kind=st.sampled_from(KINDS), cin=st.integers(1, 8), mult=st.integers(1, 3),
       act=st.sampled_from(ACTS), per_channel=st.booleans(), data=st.data(),
       seed=st.integers(0, 2**32 - 1))
def test_depthwise_conv_2d(g, kind, cin, mult, act, per_channel, data, seed):
    zx, zy = zero_point(data.draw), zero_point(data.draw)
    if kind == "hybrid":
        per_channel = True  # LiteRT's hybrid depthwise needs one scale per channel
    model, inputs = build("DEPTHWISE_CONV_2D", kind, cin=cin, cout=cin * mult, act=act,
                          bias=True, rng=np.random.default_rng(seed), mult=mult, zx=zx, zy=zy,
                          per_channel=per_channel, **g)
    check_both(model, inputs)


@settings(max_examples=60, deadline=None)
@given(g=geometry(), kind=st.sampled_from(["float", "int8"]),
       cin=st.sampled_from([15, 16, 17, 24, 32, 33, 40, 48, 64]), act=st.sampled_from(ACTS),
       data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_depthwise_conv_2d_wide(g, kind, cin, act, data, seed):
    """Multiplier 1 with channel counts around the dwconv kernels' tiles (8, 16, two tiles at
    once): whole, windowed and paired tiles, and rows sharing one indirection row."""
    zx, zy = zero_point(data.draw), zero_point(data.draw)
    model, inputs = build("DEPTHWISE_CONV_2D", kind, cin=cin, cout=cin, act=act, bias=True,
                          rng=np.random.default_rng(seed), zx=zx, zy=zy, **g)
    check_both(model, inputs)


@settings(max_examples=40, deadline=None)
@given(g=geometry(), cin=st.integers(1, 40), cout=st.sampled_from([24, 72, 120]),
       act=st.sampled_from(ACTS[:2]), seed=st.integers(0, 2**32 - 1))
def test_conv_2d_float_24_channel_blocks(g, cin, cout, act, seed):
    """Float outputs of whole 24-channel blocks but not 16-channel ones take the 4x24 GEMM
    tile (AVX2) when there is more than one pixel: every tile height 1-4 at the end.
    Unclamped, as test_conv_2d_float_big_weights: sums of up to 1000 products."""
    model, inputs = build("CONV_2D", "float", cin=cin, cout=cout, act=act, bias=True,
                          rng=np.random.default_rng(seed), **g)
    check_both(model, inputs)


@settings(max_examples=12, deadline=None)
@given(kh=st.sampled_from([1, 3]), cin=st.integers(260, 330), cout=st.integers(250, 300),
       h=st.integers(3, 9), w=st.integers(3, 9), act=st.sampled_from(ACTS[:2]),
       seed=st.integers(0, 2**32 - 1))
def test_conv_2d_float_big_weights(kh, cin, cout, h, w, act, seed):
    """Float weights over 256 KiB (mobilenet_v2's 7x7 layers): the GEMM runs slice by slice
    of 64 channels, every row tile of a slice in turn; partial last slices and tiles.
    Unclamped outputs: sums of ~200 standard normal products round to ~1e-5 of their
    terms, more than the tolerance of an output clamped to [-1, 1] (main fails too)."""
    if kh == 3:
        cin //= 4  # 9 taps: still over 256 KiB
    model, inputs = build("CONV_2D", "float", n=1, h=h, w=w, cin=cin, cout=cout, kh=kh, kw=kh,
                          stride=(1, 1), dilation=(1, 1), same=True, act=act, bias=True,
                          rng=np.random.default_rng(seed))
    check_both(model, inputs)


@st.composite
def one_pixel_line(draw):
    """One output pixel from a 1-D filter (a column or a row) over up to 17 taps, the
    streaming models' depthwise shape: VALID with up to stride-1 input left over, or SAME
    over an input no longer than the stride (padding taps)."""
    taps, dil, stride = draw(st.integers(1, 17)), draw(st.integers(1, 2)), draw(st.integers(1, 3))
    same = draw(st.booleans())
    length = draw(st.integers(1, stride)) if same else (taps - 1) * dil + 1 + draw(
        st.integers(0, stride - 1))
    across = draw(st.integers(1, stride))  # the other axis: 1 tap, one output
    g = dict(n=1, h=length, w=across, kh=taps, kw=1, stride=(stride, stride),
             dilation=(dil, draw(st.integers(1, 2))), same=same)
    if draw(st.booleans()):  # a row instead
        g.update(h=across, w=length, kh=1, kw=taps, dilation=g["dilation"][::-1])
    return g


@settings(max_examples=60, deadline=None)
@given(g=one_pixel_line(), cin=st.sampled_from([8, 15, 16, 17, 24, 32, 33, 64]),
       act=st.sampled_from(ACTS), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_depthwise_conv_2d_one_pixel(g, cin, act, data, seed):
    """int8 depthwise with one output pixel over a column or row of taps: the column
    kernel when every tap is inside and the channels fill its tile, else the generic one."""
    zx, zy = zero_point(data.draw), zero_point(data.draw)
    model, inputs = build("DEPTHWISE_CONV_2D", "int8", cin=cin, cout=cin, act=act, bias=True,
                          rng=np.random.default_rng(seed), zx=zx, zy=zy, **g)
    check_both(model, inputs)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_hybrid_edge_inputs(op, kind):
    """All-zero, one-signed and constant images (the quantizers' degenerate ranges)."""
    rng = np.random.default_rng(7)
    g = dict(n=1, h=5, w=6, kh=3, kw=3, stride=(1, 1), dilation=(1, 1), same=True)
    model, (x,) = build(op, kind, cin=3, cout=6, act=ACTS[0], bias=True, rng=rng, mult=2, **g)
    if x.dtype == np.int8:
        variants = [np.full_like(x, v) for v in (-128, 0, 127)]
    else:
        variants = [np.zeros_like(x), np.abs(x), -np.abs(x), np.full_like(x, 0.75)]
    for v in variants:
        check_both(model, [v])


# (filter scale, accumulator) pairs, for input scale SCALE_X and output scale SCALE_Y, that
# tell apart the candidate formulas of the requantization scale: rounding
# acc·f32(f32(s_x·s_w)/s_y) vs acc·f32(s_x·s_w/s_y in double) (XNNPACK, default mode); and
# QuantizeMultiplier / round of s_x·s_w/s_y with the product in double vs in float
# (reference CONV/DW resp. FC). Found by search over random scales.
SCALE_X, SCALE_Y = 0.012299999594688416, 0.04560000076889992
SCALE_ORDER_CASES = [
    (0.0019251458579674363, 43329), (0.003598179202526808, 90154),
    (0.001386001124046743, 196600), (0.0014390259748324752, 258915),
    (0.0030932037625461817, 107269), (0.002862207591533661, 75773),
    (0.003181906882673502, 126416), (0.0012150389375165105, 151034),
    (0.003037481103092432, 116560), (0.005735956132411957, 27469),
    (0.001588993240147829, 274142), (0.0026006416883319616, 117607),
    (0.0017909540329128504, 174917), (0.002729264786466956, 140590),
    (0.0018225443782284856, 155612), (0.0012701858067885041, 307925),
    (0.0013168728910386562, 175952), (0.0027557567227631807, 158072),
    (0.0019128323765471578, 208348), (0.001030548824928701, 422696),
    (0.0014963953290134668, 239078), (0.0018491488881409168, 221538),
    (0.001382587244734168, 229262), (0.013160739094018936, 23521),
]


def scale_order_model(op):
    """Zero weights and one output channel per case, so each output is its bias requantized."""
    sw = np.array([c[0] for c in SCALE_ORDER_CASES], np.float32)
    acc = np.array([c[1] for c in SCALE_ORDER_CASES], np.int32)
    n = len(sw)
    b = ModelBuilder()
    # A 1x2 CONV_2D filter: XNNPACK would run a 1x1 one as FULLY_CONNECTED.
    shape, wshape, out = {"FULLY_CONNECTED": ([1, 1], (n, 1), [1, n]),
                          "CONV_2D": ([1, 1, 2, 1], (n, 1, 2, 1), [1, 1, 1, n]),
                          "DEPTHWISE_CONV_2D": ([1, 1, 1, n], (1, 1, 1, n), [1, 1, 1, n])}[op]
    x = b.tensor("x", shape, np.int8, scale=SCALE_X, zero_point=0)
    y = b.tensor("y", out, np.int8, scale=SCALE_Y, zero_point=0)
    w = b.const("w", np.zeros(wshape, np.int8), scale=sw, zero_point=[0] * n,
                quantized_dimension=3 if op == "DEPTHWISE_CONV_2D" else 0)
    bias = b.const("b", acc, scale=(np.float32(SCALE_X) * sw), zero_point=[0] * n)
    opts = {} if op == "FULLY_CONNECTED" else dict(padding=S.Padding.VALID, strideH=1, strideW=1)
    if op == "DEPTHWISE_CONV_2D":
        opts["depthMultiplier"] = 1
    b.op(op, [x, w, bias], [y], **opts)
    b.inputs([x])
    b.outputs([y])
    return b.build(), [np.zeros(shape, np.int8)]


@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_requantization_scale_order(op):
    check_both(*scale_order_model(op))


@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("cin,cout", [(1, 1), (1, 2), (2, 1), (5, 7)])
def test_hybrid_1x1(cin, cout, stride):
    """XNNPACK runs an ungrouped 1x1 stride-1 conv as FULLY_CONNECTED (quantized per pixel)
    unless it has one input and one output channel."""
    g = dict(n=2, h=5, w=4, kh=1, kw=1, stride=(stride, stride), dilation=(1, 1), same=True)
    model, inputs = build("CONV_2D", "hybrid", cin=cin, cout=cout, act=ACTS[0], bias=True,
                          rng=np.random.default_rng(cin * 10 + cout), **g)
    check_both(model, inputs)


def check_resized(model, make_input, shapes):
    """One interpreter per side, resized through `shapes` (re-prepare after a resize)."""
    for mode in oracle.MODES:
        ours = oracle.make_interpreter(oracle.ours_module(), model, mode)
        ref = oracle.make_interpreter(oracle.oracle_module(), model, mode)
        for shape in shapes:
            inputs = [make_input(shape)]
            oracle.assert_outputs_match(oracle.run_interpreter(ours, inputs),
                                        oracle.run_interpreter(ref, inputs),
                                        f"mode={mode} input {shape}")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_resize_input(op, kind):
    rng = np.random.default_rng(11)
    g = dict(n=1, h=5, w=6, kh=3, kw=3, stride=(2, 1), dilation=(1, 1), same=True)
    model, (x,) = build(op, kind, cin=4, cout=8, act=ACTS[0], bias=True, rng=rng, groups=2,
                        mult=2, **g)
    make = (lambda s: rng.integers(-128, 128, s).astype(np.int8)) if x.dtype == np.int8 else \
        (lambda s: float_input(rng, s))
    check_resized(model, make, [(1, 5, 6, 4), (3, 7, 4, 4), (2, 1, 1, 4)])


@pytest.mark.skipif(IS_LITERT, reason="LiteRT requires a CONV_2D bias and crashes on a "
                    "DEPTHWISE_CONV_2D without one")
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_without_bias_equals_zero_bias(op, kind):
    """tflite_fast also runs both ops without a bias input: as with a zero bias."""
    g = dict(n=2, h=6, w=5, kh=3, kw=2, stride=(2, 1), dilation=(1, 2), same=True)
    models = {}
    for bias in (False, "zero"):
        models[bias] = build(op, kind, cin=4, cout=8, act=ACTS[1], bias=bias,
                             rng=np.random.default_rng(3), groups=2, mult=2, zx=-5, zy=3, **g)
    inputs = models[False][1]
    for mode in oracle.MODES:
        ref = oracle.run_oracle(models["zero"][0], inputs, mode)
        oracle.assert_outputs_match(oracle.run_ours(models[False][0], inputs, mode), ref,
                                    f"mode={mode}")


# --- the layers of the shared models, with their real weights ----------------------

def layer_models(name, op_names):
    """Every `op_names` op of a shared model's main subgraph as a single-op model with its
    real weights and quantization: a list of (label, model bytes)."""
    m = S.ModelT.InitFromPackedBuf(bytearray(model_path(name).read_bytes()), 0)
    sg = m.subgraphs[0]
    out = []
    for i, op in enumerate(sg.operators):
        code = m.operatorCodes[op.opcodeIndex]
        builtin = max(code.builtinCode, code.deprecatedBuiltinCode)
        op_name = next((n for n in op_names if getattr(S.BuiltinOperator, n) == builtin), None)
        if op_name is None:
            continue
        b = ModelBuilder()
        new, graph_inputs = {}, []
        for t in [t for t in list(op.inputs) + list(op.outputs) if t >= 0]:
            if t in new:
                continue
            src = sg.tensors[t]
            data = m.buffers[src.buffer].data if src.buffer else None
            has_data = data is not None and len(data) > 0
            new[t] = b.tensor(f"t{t}", src.shape, src.type,
                              buffer=b.buffer(bytes(np.asarray(data, np.uint8))) if has_data else 0)
            b.model().subgraphs[0].tensors[new[t]].quantization = src.quantization
            if not has_data and t in op.inputs:
                graph_inputs.append(new[t])
        opts = {k: v for k, v in vars(op.builtinOptions).items()} if op.builtinOptions else {}
        b.op(op_name, [new.get(t, -1) for t in op.inputs], [new[t] for t in op.outputs],
             version=code.version, **opts)
        b.inputs(graph_inputs)
        b.outputs([new[t] for t in op.outputs])
        out.append((f"{name} op {i} {op_name}", b.build()))
    return out


def check_layers(name, op_names):
    rng = np.random.default_rng(0)
    layers = layer_models(name, op_names)
    assert layers, f"{name} has no {op_names}"
    for label, model in layers:
        inputs = oracle.random_inputs(oracle.input_details(model), rng)
        for mode in oracle.MODES:
            ref = oracle.run_oracle(model, inputs, mode)
            oracle.assert_outputs_match(oracle.run_ours(model, inputs, mode), ref,
                                        f"{label} mode={mode}")


CONV_OPS = ["CONV_2D", "DEPTHWISE_CONV_2D"]


@pytest.mark.parametrize("name", ["mobilenet_v2_hybrid", "small_cnn_hybrid", "kws_dscnn_int8",
                                  "kws_dscnn_float", "okay_nabu", "small_cnn_fp16"])
def test_shared_model_layers(name):
    check_layers(name, CONV_OPS)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mobilenet_v2_int8", "mobilenet_v3_small_int8", "unet_small_int8",
                                  "mobilenet_v2_float", "face_detection_short_range"])
def test_shared_model_layers_slow(name):
    check_layers(name, CONV_OPS)


# --- what tflite_fast rejects, with the message -----------------------------------

def prepare_error(model):
    interp = oracle.make_interpreter(oracle.ours_module(), model, "default")
    with pytest.raises(RuntimeError) as e:
        interp.allocate_tensors()
    return str(e.value)


def bad_conv(op="CONV_2D", in_type=np.int8, w_type=np.int8, w_shape=(4, 3, 3, 2), cin=2,
             w_scale=(0.01,), w_zp=None, qdim=0, bias="int32", bias_n=4, stride=1, act=0):
    b = ModelBuilder()
    q = dict(scale=0.5, zero_point=0) if in_type != np.float32 else {}
    x = b.tensor("x", [1, 6, 6, cin], in_type, **q)
    cout = w_shape[0] if op == "CONV_2D" else w_shape[3]
    y = b.tensor("y", [1, 6, 6, cout], in_type, **q)
    wq = dict(scale=list(w_scale), zero_point=w_zp or [0] * len(w_scale),
              quantized_dimension=qdim) if w_type == np.int8 else {}
    w = b.const("w", np.ones(w_shape, w_type), **wq)
    ins = [x, w]
    if bias:
        ins.append(b.const("b", np.zeros(bias_n, np.int32 if bias == "int32" else np.float32)))
    opts = dict(padding=S.Padding.SAME, strideH=stride, strideW=1, fusedActivationFunction=act)
    if op != "CONV_2D":
        opts["depthMultiplier"] = 1
    b.op(op, ins, [y], **opts)
    b.inputs([x])
    b.outputs([y])
    return b.build()


REJECTED = [
    # 16x8 conv is supported (test_ops_int16.py) with an int64 bias, not yet int32.
    (dict(in_type=np.int16),
     r"CONV_2D: bias type INT32 with int16 input is not supported \(INT64 is\)"),
    (dict(w_zp=[3]), "CONV_2D: filter zero point 3 of channel 0 is not 0"),
    (dict(w_shape=(4, 3, 3, 4), cin=4, w_scale=(0.1,) * 4, qdim=3),
     "CONV_2D: per-channel filter quantized along dimension 3, expected 0"),
    (dict(stride=0), r"CONV_2D: strides 0x1 must be >= 1"),
    (dict(cin=5), "CONV_2D: input channels 5 are not a positive multiple of the filter's 2"),
    (dict(bias="float32"), "CONV_2D: bias type FLOAT32, expected INT32"),
    (dict(bias_n=3), r"CONV_2D: bias has 3 elements, expected 4"),
    (dict(act=S.ActivationFunctionType.TANH), "CONV_2D: fused activation 4 is not supported"),
    (dict(op="DEPTHWISE_CONV_2D", in_type=np.float32, w_shape=(1, 3, 3, 2), bias="float32",
          bias_n=2), "DEPTHWISE_CONV_2D: hybrid filter needs one scale per output channel"),
    (dict(op="DEPTHWISE_CONV_2D", w_shape=(1, 3, 3, 5), bias_n=5),
     "DEPTHWISE_CONV_2D: output channels 5 are not a positive multiple of input channels 2"),
    (dict(op="DEPTHWISE_CONV_2D", w_shape=(1, 3, 3, 2), w_scale=(0.1, 0.2, 0.3), qdim=1,
          bias_n=2), r"DEPTHWISE_CONV_2D: filter has 3 scales, expected 1 or 2"),
]


@pytest.mark.skipif(IS_LITERT, reason="tflite_fast's own messages")
@pytest.mark.parametrize("kwargs,message", REJECTED)
def test_rejected_with_message(kwargs, message):
    msg = prepare_error(bad_conv(**kwargs))
    assert re.search(message, msg), msg
    assert "failed to prepare" in msg
