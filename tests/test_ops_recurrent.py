"""LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and SVDF against ai_edge_litert in both numerics modes.

These ops keep state in variable tensors (LSTM: output and cell state; SVDF: the activation
history) that persists across invokes, so each case runs several invokes in a row on one
interpreter and compares the outputs after every invoke, then calls reset_all_variables()
and compares again (the state must be back to zeros).
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from model_builder import ModelBuilder, S

tff_only = pytest.mark.skipif(oracle.ours_module() is oracle.oracle_module(),
                              reason="checks tflite_fast's own validation and messages")

ACT = S.ActivationFunctionType


def run_steps(model, steps, mode):
    """Outputs of every invoke of `steps` (lists of inputs) on one interpreter, then of the
    first step again after reset_all_variables()."""
    def run(module):
        it = oracle.make_interpreter(module, model, mode)
        it.allocate_tensors()
        det = it.get_input_details()
        outs = []
        for xs in steps + steps[:1]:
            if len(outs) == len(steps):
                it.reset_all_variables()
            for d, x in zip(det, xs):
                it.set_tensor(d["index"], x)
            it.invoke()
            outs.append([it.get_tensor(d["index"]) for d in it.get_output_details()])
        return outs

    ours, ref = run(oracle.ours_module()), run(oracle.oracle_module())
    for k, (o, r) in enumerate(zip(ours, ref)):
        what = "after reset" if k == len(steps) else f"invoke {k}"
        oracle.assert_outputs_match(o, r, context=f"mode={mode}, {what}")
    return ours, ref


# ---------------------------------------------------------------- LSTM


@st.composite
def lstm_case(draw):
    return dict(
        batch=draw(st.integers(1, 3)), time=draw(st.integers(1, 4)),
        n_input=draw(st.integers(1, 6)), n_cell=draw(st.integers(1, 6)),
        n_proj=draw(st.sampled_from([None, 1, 3, 5])),
        cifg=draw(st.booleans()), peephole=draw(st.booleans()),
        layer_norm=draw(st.booleans()), proj_bias=draw(st.booleans()),
        act=draw(st.sampled_from([ACT.TANH, ACT.RELU, ACT.RELU6, ACT.RELU_N1_TO_1])),
        cell_clip=draw(st.sampled_from([0.0, 0.5, 3.0])),
        proj_clip=draw(st.sampled_from([0.0, 0.3, 2.0])),
        time_major=draw(st.booleans()), legacy=draw(st.booleans()),
        seed=draw(st.integers(0, 2**32 - 1)))


def lstm_shapes(op, c, n_output):
    """Input and output shapes: [batch, features] for LSTM, else [time, batch, features]
    (time_major) or [batch, time, features]."""
    nb, nt, ni = c["batch"], c["time"], c["n_input"]
    if op == "LSTM":
        return [nb, ni], [nb, n_output]
    if c["time_major"]:
        return [nt, nb, ni], [nt, nb, n_output]
    return [nb, nt, ni], [nb, nt, n_output]


def add_lstm(b, op, c, x, ins, y, **opts):
    """The LSTM node (time_major for the sequence op) as the model's only op; returns the
    model."""
    if op != "LSTM":
        opts["timeMajor"] = c["time_major"]
    b.op(op, ins, [y], cellClip=c["cell_clip"], projClip=c["proj_clip"], **opts)
    b.inputs([x])
    b.outputs([y])
    return b.build()


def lstm_model(op, c, hybrid=False, asym=False):
    """A float LSTM (op 'LSTM': one step; else the sequence op) per the case dict; hybrid:
    int8 weight matrices and peepholes (per-tensor scales), the input rows quantized on the
    fly, asymmetrically with `asym`."""
    rng = np.random.default_rng(c["seed"])
    nb, ni, nc = c["batch"], c["n_input"], c["n_cell"]
    no = c["n_proj"] or nc
    layer_norm = c["layer_norm"] and not c["legacy"]
    b = ModelBuilder()

    def w(name, shape, fan_in, quantize=True):
        v = (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)
        if not (hybrid and quantize):
            return b.const(name, v)
        scale = float(np.abs(v).max()) / 127
        return b.const(name, np.round(v / scale).astype(np.int8), scale=scale, zero_point=0)

    in_shape, out_shape = lstm_shapes(op, c, no)
    x = b.tensor("x", in_shape, np.float32)
    gates = "ifco"
    ins = [x]
    ins += [-1 if (g == "i" and c["cifg"]) else w(f"w_{g}", [nc, ni], ni) for g in gates]
    ins += [-1 if (g == "i" and c["cifg"]) else w(f"r_{g}", [nc, no], no) for g in gates]
    ins += [w(f"p_{g}", [nc], 1) if c["peephole"] and not (g == "i" and c["cifg"]) else -1
            for g in "ifo"]
    ins += [-1 if (g == "i" and c["cifg"]) else w(f"b_{g}", [nc], 1, False) for g in gates]
    ins += [w("proj", [no, nc], nc) if c["n_proj"] else -1]
    ins += [w("proj_b", [no], 1, False) if c["n_proj"] and c["proj_bias"] else -1]
    ins += [b.tensor("h", [nb, no], np.float32, is_variable=True),
            b.tensor("c", [nb, nc], np.float32, is_variable=True)]
    if not c["legacy"]:
        ins += [w(f"ln_{g}", [nc], 1, False) if layer_norm and not (g == "i" and c["cifg"]) else -1
                for g in gates]
    y = b.tensor("y", out_shape, np.float32)
    return add_lstm(b, op, c, x, ins, y, fusedActivationFunction=c["act"],
                    asymmetricQuantizeInputs=asym), in_shape


def lstm_int8_model(op, c):
    """An int8 LSTM as the converter quantizes it (TFLite's 8x8_16 kernel): int8 input,
    weights and output state, int32 biases, int16 peepholes, layer-norm coefficients and cell
    state (scale 2^-11), and the 5 intermediates (the gates' scales, used with layer norm,
    and the hidden state's int8 scale and zero point)."""
    rng = np.random.default_rng(c["seed"])
    nb, ni, nc = c["batch"], c["n_input"], c["n_cell"]
    no = c["n_proj"] or nc
    peephole = c["peephole"] and not c["n_proj"]
    layer_norm = c["layer_norm"] and not c["legacy"]
    s_gate = 2.0 ** -10 if layer_norm else 2.0 ** -12
    s_ln = 1e-3
    s_x, z_x = 0.05, int(rng.integers(-10, 11))
    s_h, z_h = 1 / 128, int(rng.integers(-5, 6))
    s_hid = 1 / 128
    z_hid = int(rng.integers(-5, 6)) if c["n_proj"] else z_h
    b = ModelBuilder()

    def qconst(name, shape, fan_in, dtype=np.int8):
        v = rng.standard_normal(shape) / np.sqrt(fan_in)
        qmax = np.iinfo(dtype).max
        scale = float(np.abs(v).max()) / qmax
        return b.const(name, np.round(v / scale).astype(dtype), scale=scale, zero_point=0), scale

    def bias(name, n, scale):
        return b.const(name, np.round(rng.standard_normal(n) / scale).astype(np.int32),
                       scale=scale, zero_point=0)

    in_shape, out_shape = lstm_shapes(op, c, no)
    x = b.tensor("x", in_shape, np.int8, scale=s_x, zero_point=z_x)
    used = [g for g in "ifco" if not (g == "i" and c["cifg"])]
    w = {g: qconst(f"w_{g}", [nc, ni], ni) for g in used}
    r = {g: qconst(f"r_{g}", [nc, no], no) for g in used}
    ins = [x] + [w[g][0] if g in w else -1 for g in "ifco"]
    ins += [r[g][0] if g in r else -1 for g in "ifco"]
    ins += [qconst(f"p_{g}", [nc], 4, np.int16)[0] if peephole and g in used else -1
            for g in "ifo"]
    # With layer norm the bias is added to the normalized gate (2^10 finer than the
    # coefficients' scale).
    ins += [-1 if g not in w else bias(f"b_{g}", nc, s_ln / 1024 if layer_norm else s_x * w[g][1])
            for g in "ifco"]
    if c["n_proj"]:
        pw, sp = qconst("proj", [no, nc], nc)
        ins += [pw, bias("proj_b", no, s_hid * sp) if c["proj_bias"] else -1]
    else:
        ins += [-1, -1]
    ins += [b.tensor("h", [nb, no], np.int8, scale=s_h, zero_point=z_h, is_variable=True),
            b.tensor("c", [nb, nc], np.int16, scale=2.0 ** -11, zero_point=0, is_variable=True)]
    if not c["legacy"]:
        ins += [-1 if not (layer_norm and g in w) else b.const(
            f"ln_{g}", rng.integers(500, 1500, nc).astype(np.int16), scale=s_ln, zero_point=0)
            for g in "ifco"]
    inter = [b.tensor(f"inter_{g}", [nb, nc], np.int16, scale=s_gate, zero_point=0)
             for g in "ifco"]
    inter.append(b.tensor("hidden", [nb, nc], np.int8, scale=s_hid, zero_point=z_hid))
    y = b.tensor("y", out_shape, np.int8, scale=s_h, zero_point=z_h)
    return add_lstm(b, op, c, x, ins, y, version=4 if op == "LSTM" else 2, intermediates=inter,
                    fusedActivationFunction=ACT.TANH), in_shape


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM"])
@pytest.mark.parametrize("kind", ["float", "hybrid", "int8"])
@settings(max_examples=20, deadline=None)
@given(c=lstm_case(), asym=st.booleans())
def test_lstm(kind, op, mode, c, asym):
    """float32; hybrid (int8 weights, inputs quantized symmetrically or with `asym`); int8."""
    if kind == "int8":
        model, in_shape = lstm_int8_model(op, c)
    else:
        model, in_shape = lstm_model(op, c, hybrid=kind == "hybrid", asym=asym)
    rng = np.random.default_rng(c["seed"] + 1)
    if kind == "int8":
        steps = [[rng.integers(-128, 128, in_shape).astype(np.int8)] for _ in range(3)]
    else:
        steps = [[rng.standard_normal(in_shape).astype(np.float32)] for _ in range(3)]
    run_steps(model, steps, mode)


BASE = dict(batch=2, time=3, n_input=3, n_cell=4, n_proj=None, cifg=False, peephole=False,
            layer_norm=False, proj_bias=False, act=ACT.TANH, cell_clip=0.0, proj_clip=0.0,
            time_major=True, legacy=False, seed=7)


def tamper(model, fn):
    """The model with fn(ModelT) applied to its object tree."""
    import flatbuffers
    m = S.ModelT.InitFromPackedBuf(model, 0)
    fn(m)
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    return bytes(fb.Output())


def _drop_input(i):
    def fn(m):
        op = m.subgraphs[0].operators[0]
        op.inputs = [-1 if k == i else t for k, t in enumerate(op.inputs)]
    return fn


def _reshape_input(i, shape):
    def fn(m):
        sg = m.subgraphs[0]
        t = sg.tensors[sg.operators[0].inputs[i]]
        data = m.buffers[t.buffer].data
        t.shape = shape
        n = int(np.prod(shape)) * 4
        m.buffers[t.buffer].data = (list(data) * (n // len(data) + 1))[:n]
    return fn


def _not_variable(i):
    def fn(m):
        sg = m.subgraphs[0]
        sg.tensors[sg.operators[0].inputs[i]].isVariable = False
    return fn


def _state_shape(i, shape):
    def fn(m):
        sg = m.subgraphs[0]
        sg.tensors[sg.operators[0].inputs[i]].shape = shape
    return fn


BAD_LSTM = {
    "missing forget weights": (_drop_input(2), "required input 2 is missing"),
    "missing cell bias": (_drop_input(14), "required input 14 is missing"),
    "half CIFG": (_drop_input(5), "input gate weights"),
    "wrong weight shape": (_reshape_input(3, [4, 5]), "input 3 (cell) must have shape [4, 3]"),
    "wrong bias shape": (_reshape_input(13, [5]), "input 13 (gate bias) must have shape [4]"),
    # A non-variable state is an uninitialised tensor the runtime refuses before prepare.
    "state not variable": (_not_variable(19), "lacks data"),
    "wrong state size": (_state_shape(18, [2, 5]), "output state of 10"),
}


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("op", ["LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM"])
@pytest.mark.parametrize("bad", sorted(BAD_LSTM))
def test_lstm_malformed(op, mode, bad):
    model, _ = lstm_model(op, BASE)
    fn, _ = BAD_LSTM[bad]
    oracle.check_rejected(tamper(model, fn), mode)


@tff_only
@pytest.mark.parametrize("bad", sorted(BAD_LSTM))
def test_lstm_malformed_message(bad):
    model, _ = lstm_model("UNIDIRECTIONAL_SEQUENCE_LSTM", BASE)
    fn, text = BAD_LSTM[bad]
    it = oracle.make_interpreter(oracle.ours_module(), tamper(model, fn), "default")
    with pytest.raises(RuntimeError) as e:
        it.allocate_tensors()
    assert text in str(e.value)


# ---------------------------------------------------------------- SVDF


@st.composite
def svdf_case(draw):
    return dict(batch=draw(st.integers(1, 3)), n_input=draw(st.integers(1, 8)),
                units=draw(st.integers(1, 4)), rank=draw(st.integers(1, 3)),
                memory=draw(st.integers(1, 5)), bias=draw(st.booleans()),
                act=draw(st.sampled_from([ACT.NONE, ACT.RELU, ACT.RELU6, ACT.TANH,
                                          ACT.RELU_N1_TO_1])),
                asym=draw(st.booleans()), out_shift=draw(st.floats(-1, 4)),
                seed=draw(st.integers(0, 2**32 - 1)))


def svdf_model(c, kind):
    """kind: 'float', 'hybrid' (int8 weights, float activations) or 'int8' (int8
    activations, int16 time weights and state, RELU)."""
    rng = np.random.default_rng(c["seed"])
    nb, ni, nf, nm = c["batch"], c["n_input"], c["units"] * c["rank"], c["memory"]
    b = ModelBuilder()
    bias = -1
    if kind == "int8":
        s_in, s_wf, s_wt = 0.05, 0.01, 0.002
        s_st = s_in * s_wf * 8
        # Output scale around the accumulator's typical size, shifted by 2**out_shift.
        s_out = s_st * s_wt * 3e3 * np.sqrt(c["rank"] * nm * ni) * 2.0 ** c["out_shift"]
        x = b.tensor("x", [nb, ni], np.int8, scale=s_in, zero_point=int(rng.integers(-20, 20)))
        wf = b.const("wf", rng.integers(-127, 128, [nf, ni]).astype(np.int8), scale=s_wf)
        wt = b.const("wt", rng.integers(-2000, 2000, [nf, nm]).astype(np.int16), scale=s_wt)
        if c["bias"]:
            bias = b.const("bias", rng.integers(-50000, 50000, [c["units"]]).astype(np.int32),
                           scale=s_st * s_wt)
        state = b.tensor("state", [nb, nm * nf], np.int16, scale=s_st, zero_point=0,
                         is_variable=True)
        y = b.tensor("y", [nb, c["units"]], np.int8, scale=float(s_out),
                     zero_point=int(rng.integers(-10, 10)))
        act = ACT.RELU
    else:
        x = b.tensor("x", [nb, ni], np.float32)
        fwf = (rng.standard_normal([nf, ni]) / np.sqrt(ni)).astype(np.float32)
        fwt = (rng.standard_normal([nf, nm]) / np.sqrt(nm)).astype(np.float32)
        if kind == "hybrid":
            swf, swt = float(np.abs(fwf).max()) / 127, float(np.abs(fwt).max()) / 127
            wf = b.const("wf", np.round(fwf / swf).astype(np.int8), scale=swf)
            wt = b.const("wt", np.round(fwt / swt).astype(np.int8), scale=swt)
        else:
            wf, wt = b.const("wf", fwf), b.const("wt", fwt)
        if c["bias"]:
            bias = b.const("bias", rng.standard_normal([c["units"]]).astype(np.float32))
        state = b.tensor("state", [nb, nm * nf], np.float32, is_variable=True)
        y = b.tensor("y", [nb, c["units"]], np.float32)
        act = c["act"]
    b.op("SVDF", [x, wf, wt, bias, state], [y], rank=c["rank"], fusedActivationFunction=act,
         asymmetricQuantizeInputs=c["asym"])
    b.inputs([x])
    b.outputs([y])
    return b.build()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("kind", ["float", "hybrid", "int8"])
@settings(max_examples=25, deadline=None)
@given(c=svdf_case())
def test_svdf(kind, mode, c):
    model = svdf_model(c, kind)
    rng = np.random.default_rng(c["seed"] + 1)
    shape = (c["batch"], c["n_input"])
    if kind == "int8":
        steps = [[rng.integers(-128, 128, shape).astype(np.int8)] for _ in range(c["memory"] + 2)]
    else:
        steps = [[rng.standard_normal(shape).astype(np.float32)] for _ in range(c["memory"] + 2)]
    run_steps(model, steps, mode)


SVDF_BASE = dict(batch=2, n_input=3, units=2, rank=2, memory=3, bias=True, act=ACT.RELU,
                 asym=False, out_shift=0.0, seed=5)

BAD_SVDF = {
    "rank does not divide filters": (lambda m: setattr(
        m.subgraphs[0].operators[0].builtinOptions, "rank", 3), "rank 3"),
    "wrong bias size": (_reshape_input(3, [3]), "input 3 has dims [3]"),
    "wrong state size": (_state_shape(4, [2, 11]), "input 4 has dims [2, ...], expected [2, 12]"),
    "wrong feature depth": (_reshape_input(1, [4, 2]), "input 1 has dims [4, ...]"),
}


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("kind", ["float", "int8"])
@pytest.mark.parametrize("bad", sorted(BAD_SVDF))
def test_svdf_malformed(kind, mode, bad):
    fn, text = BAD_SVDF[bad]
    model = tamper(svdf_model(SVDF_BASE, kind), fn)
    ours, _ = oracle.check_rejected(model, mode)
    if oracle.ours_module() is not oracle.oracle_module():
        assert text in ours and "SVDF" in ours


# ---------------------------------------------------------------- unsupported variants


def _int8_8x8_8(m):
    """Gives an int8 LSTM the 12 intermediates of TFLite's 8x8_8 kernel."""
    sg = m.subgraphs[0]
    op = sg.operators[0]
    op.intermediates = list(op.intermediates) + [op.intermediates[0]] * 7


@tff_only
@pytest.mark.parametrize("op", ["LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM"])
def test_lstm_unsupported_is_explicit(op):
    """Variants tflite_fast does not implement fail at allocate_tensors() naming the reason:
    the 8x8_8 integer kernel (12 intermediates), the basic 5-input LSTM kernel, diagonal
    recurrent weights."""
    c = dict(BASE)
    model, _ = lstm_int8_model(op, c)
    cases = [(tamper(model, _int8_8x8_8), "8x8_8 variant")]
    if op == "LSTM":
        def basic(m):
            m.subgraphs[0].operators[0].builtinOptions.kernelType = 1
        cases.append((tamper(lstm_model(op, c)[0], basic), "basic kernel"))
    else:
        def diagonal(m):
            m.subgraphs[0].operators[0].builtinOptions.diagonalRecurrentTensors = True
        cases.append((tamper(lstm_model(op, c)[0], diagonal), "diagonal recurrent"))
    for bad, text in cases:
        it = oracle.make_interpreter(oracle.ours_module(), bad, "default")
        with pytest.raises(RuntimeError, match=op) as e:
            it.allocate_tensors()
        assert text in str(e.value)
