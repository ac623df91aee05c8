"""Checks the C model reader against the schema's own Python reader.

    python tests/c/compare_reader.py [--models DIR] [--ops N] [--fuzz ITERS]

1. Builds tests/c/test_model_reader.c with ASan/UBSan.
2. For every model in DIR (default ../shared/models) compares the C summary
   (also parsed from a misaligned address) with one computed here from
   ai_edge_litert.schema_py_generated, following TFLite's InterpreterBuilder
   and flatbuffer_conversions.cc rules.
3. Builds single-op models with random options for every op the summary
   prints params for, and compares the decoded TfLite*Params fields.
4. Feeds hand-made malformed models (bad indices, shared-offset bombs,
   sparsity) and checks each is rejected with the expected message.
5. Optionally runs the fuzzer over the shared models.
A development script, not part of the pytest suite.
"""
import argparse
import glob
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as S

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SOURCES = ["csrc/runtime/fb.c", "csrc/runtime/model.c", "csrc/runtime/builtin_options.c",
           "csrc/runtime/builtin_names.c", "csrc/runtime/common.c", "tests/c/test_model_reader.c"]

# Schema TensorType -> TfLiteType.
TYPE = [1, 10, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]
PAD = {0: 1, 1: 2}
BO = S.BuiltinOperator


def build(tmp):
    exe = os.path.join(tmp, "test_model_reader")
    cmd = ["gcc", "-std=c11", "-g", "-O1", "-fsanitize=address,undefined",
           "-fno-sanitize-recover=all", "-Wall", "-Wextra", "-Werror", "-I", "csrc/include",
           *SOURCES, "-o", exe]
    subprocess.run(cmd, cwd=ROOT, check=True)
    return exe


def run(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    if p.returncode not in (0, 1) or "Sanitizer" in p.stderr or "runtime error" in p.stderr:
        sys.exit(f"C reader crashed on {args}:\n{p.stderr}")
    return p.stdout


def esc(b):
    if b is None:
        return "-"
    if isinstance(b, str):
        b = b.encode()
    b = b.split(b"\0")[0]
    return "".join(chr(c) if 32 < c < 127 and c != 92 else "\\x%02x" % c for c in b)


def ints(a):
    return "-" if a is None else "[" + ",".join(str(int(x)) for x in a) + "]"


def fbits(x):
    return "%08x" % struct.unpack("<I", struct.pack("<f", float(x)))[0]


def crc(b):
    return "%08x" % (zlib.crc32(bytes(b)) & 0xFFFFFFFF)


def i32(x):
    return struct.unpack("<i", struct.pack("<I", int(x) & 0xFFFFFFFF))[0]


def code_of(oc):
    return max(oc.builtinCode, oc.deprecatedBuiltinCode)


# Params of the ops the C summary prints: code -> (options type, field
# names (":f" = float bits), fields from the options object). With the
# options absent or of another type TFLite leaves the struct zeroed.
O = S.BuiltinOptions
SPECS = {
    BO.CONV_2D: (O.Conv2DOptions, "pad sw sh act dw dh qbt", lambda o: [
        PAD[o.padding], o.strideW, o.strideH, o.fusedActivationFunction, o.dilationWFactor,
        o.dilationHFactor, TYPE[o.quantizedBiasType]]),
    BO.DEPTHWISE_CONV_2D: (O.DepthwiseConv2DOptions, "pad sw sh dm act dw dh", lambda o: [
        PAD[o.padding], o.strideW, o.strideH, o.depthMultiplier, o.fusedActivationFunction,
        o.dilationWFactor, o.dilationHFactor]),
    BO.TRANSPOSE_CONV: (O.TransposeConvOptions, "pad sw sh act qbt", lambda o: [
        PAD[o.padding], o.strideW, o.strideH, o.fusedActivationFunction,
        TYPE[o.quantizedBiasType]]),
    BO.FULLY_CONNECTED: (O.FullyConnectedOptions, "act wf keep asym qbt", lambda o: [
        o.fusedActivationFunction, o.weightsFormat, int(o.keepNumDims),
        int(o.asymmetricQuantizeInputs), TYPE[o.quantizedBiasType]]),
    BO.ADD: (O.AddOptions, "act pot", lambda o: [o.fusedActivationFunction,
                                                 int(o.potScaleInt16)]),
    BO.SUB: (O.SubOptions, "act pot", lambda o: [o.fusedActivationFunction,
                                                 int(o.potScaleInt16)]),
    BO.MUL: (O.MulOptions, "act", lambda o: [o.fusedActivationFunction]),
    BO.DIV: (O.DivOptions, "act", lambda o: [o.fusedActivationFunction]),
    BO.L2_NORMALIZATION: (O.L2NormOptions, "act", lambda o: [o.fusedActivationFunction]),
    BO.CONCATENATION: (O.ConcatenationOptions, "axis act", lambda o: [
        o.axis, o.fusedActivationFunction]),
    BO.SOFTMAX: (O.SoftmaxOptions, "beta:f", lambda o: [fbits(o.beta)]),
    BO.LEAKY_RELU: (O.LeakyReluOptions, "alpha:f", lambda o: [fbits(o.alpha)]),
    BO.STRIDED_SLICE: (O.StridedSliceOptions, "b e el na sa off", lambda o: [
        o.beginMask, o.endMask, o.ellipsisMask, o.newAxisMask, o.shrinkAxisMask,
        int(o.offset)]),
    BO.PACK: (O.PackOptions, "n axis", lambda o: [o.valuesCount, o.axis]),
    BO.UNPACK: (O.UnpackOptions, "n axis", lambda o: [o.num, o.axis]),
    BO.SPLIT: (O.SplitOptions, "n", lambda o: [o.numSplits]),
    BO.SPLIT_V: (O.SplitVOptions, "n", lambda o: [o.numSplits]),
    BO.GATHER: (O.GatherOptions, "axis bd", lambda o: [o.axis, o.batchDims]),
    BO.SHAPE: (O.ShapeOptions, "t", lambda o: [TYPE[o.outType]]),
    BO.CAST: (O.CastOptions, "in out", lambda o: [TYPE[o.inDataType], TYPE[o.outDataType]]),
    BO.ARG_MAX: (O.ArgMaxOptions, "t", lambda o: [TYPE[o.outputType]]),
    BO.ARG_MIN: (O.ArgMinOptions, "t", lambda o: [TYPE[o.outputType]]),
    BO.RESIZE_BILINEAR: (O.ResizeBilinearOptions, "ac hp", lambda o: [
        int(o.alignCorners), int(o.halfPixelCenters)]),
    BO.RESIZE_NEAREST_NEIGHBOR: (O.ResizeNearestNeighborOptions, "ac hp", lambda o: [
        int(o.alignCorners), int(o.halfPixelCenters)]),
    BO.MIRROR_PAD: (O.MirrorPadOptions, "mode", lambda o: [o.mode + 1]),
    BO.DEPTH_TO_SPACE: (O.DepthToSpaceOptions, "bs", lambda o: [o.blockSize]),
    BO.SPACE_TO_DEPTH: (O.SpaceToDepthOptions, "bs", lambda o: [o.blockSize]),
    BO.BATCH_MATMUL: (O.BatchMatMulOptions, "ax ay asym", lambda o: [
        int(o.adjX), int(o.adjY), int(o.asymmetricQuantizeInputs)]),
    BO.CUMSUM: (O.CumsumOptions, "ex rev", lambda o: [int(o.exclusive), int(o.reverse)]),
    BO.GELU: (O.GeluOptions, "approx", lambda o: [int(o.approximate)]),
    BO.WHILE: (O.WhileOptions, "cond body", lambda o: [o.condSubgraphIndex,
                                                       o.bodySubgraphIndex]),
    BO.IF: (O.IfOptions, "then else", lambda o: [o.thenSubgraphIndex, o.elseSubgraphIndex]),
    BO.CALL_ONCE: (O.CallOnceOptions, "init", lambda o: [o.initSubgraphIndex]),
    BO.UNIDIRECTIONAL_SEQUENCE_LSTM: (
        O.UnidirectionalSequenceLSTMOptions, "act cc:f pc:f tm asym diag", lambda o: [
            o.fusedActivationFunction, fbits(o.cellClip), fbits(o.projClip), int(o.timeMajor),
            int(o.asymmetricQuantizeInputs), int(o.diagonalRecurrentTensors)]),
    BO.SVDF: (O.SVDFOptions, "rank act asym", lambda o: [
        o.rank, o.fusedActivationFunction, int(o.asymmetricQuantizeInputs)]),
    BO.LOCAL_RESPONSE_NORMALIZATION: (
        O.LocalResponseNormalizationOptions, "r bias:f alpha:f beta:f", lambda o: [
            o.radius, fbits(o.bias), fbits(o.alpha), fbits(o.beta)]),
    BO.FAKE_QUANT: (O.FakeQuantOptions, "min:f max:f bits narrow", lambda o: [
        fbits(o.min), fbits(o.max), o.numBits, int(o.narrowRange)]),
    BO.ONE_HOT: (O.OneHotOptions, "axis", lambda o: [o.axis]),
    BO.UNIQUE: (O.UniqueOptions, "t", lambda o: [4 if o.idxOutType == 4 else 2]),
    BO.RANDOM_UNIFORM: (O.RandomOptions, "seed seed2", lambda o: [i32(o.seed), i32(o.seed2)]),
}
for c in (BO.AVERAGE_POOL_2D, BO.MAX_POOL_2D, BO.L2_POOL_2D):
    SPECS[c] = (O.Pool2DOptions, "pad sw sh fw fh act", lambda o: [
        PAD[o.padding], o.strideW, o.strideH, o.filterWidth, o.filterHeight,
        o.fusedActivationFunction])
for c in (BO.MEAN, BO.SUM, BO.REDUCE_MAX, BO.REDUCE_MIN, BO.REDUCE_PROD, BO.REDUCE_ANY,
          BO.REDUCE_ALL):
    SPECS[c] = (O.ReducerOptions, "keep", lambda o: [int(o.keepDims)])


def expected_params(code, op):
    opts = op.builtinOptions
    if code == BO.RESHAPE:
        shape = None
        if op.builtinOptionsType == O.ReshapeOptions and opts is not None:
            shape = opts.newShape
        shape = [] if shape is None else [int(x) for x in shape]
        return "n=%d,shape=[%s]" % (len(shape), ",".join(map(str, shape)))
    if code == BO.SQUEEZE:
        dims = None
        if op.builtinOptionsType == O.SqueezeOptions and opts is not None:
            dims = opts.squeezeDims
        dims = [] if dims is None else [int(x) for x in dims]
        return "n=%d,dims=[%s]" % (len(dims), ",".join(map(str, dims)))
    if code == BO.BUCKETIZE:
        b = None
        if op.builtinOptionsType == O.BucketizeOptions and opts is not None:
            b = opts.boundaries
        b = [] if b is None else list(b)
        return "n=%d,b=[%s]" % (len(b), ",".join(fbits(x) for x in b))
    if code == BO.VAR_HANDLE:
        c = s = None
        if op.builtinOptionsType == O.VarHandleOptions and opts is not None:
            c, s = opts.container, opts.sharedName
        return "container=%s,shared=%s" % (esc(c), esc(s))
    if code not in SPECS:
        return None
    otype, names, f = SPECS[code]
    names = names.split()
    if op.builtinOptionsType == otype and opts is not None:
        vals = f(opts)
    else:
        vals = ["00000000" if n.endswith(":f") else 0 for n in names]
    return ",".join("%s=%s" % (n.split(":")[0], v) for n, v in zip(names, vals))


def summary(path, data):
    m = S.ModelT.InitFromPackedBuf(data, 0)
    buffers = m.buffers or []
    subgraphs = m.subgraphs or []
    opcodes = m.operatorCodes or []
    out = [f"file {path}",
           f"model version={m.version} opcodes={len(opcodes)} subgraphs={len(subgraphs)} "
           f"buffers={len(buffers)} description={esc(m.description or b'')}"]
    for i, oc in enumerate(opcodes):
        code = code_of(oc)
        custom = esc(oc.customCode) if code == BO.CUSTOM else "-"
        out.append(f"opcode {i} code={code} version={oc.version} custom={custom}")

    def buffer_data(b):
        buf = buffers[b]
        if buf.data is not None:
            return bytes(np.asarray(buf.data, dtype=np.uint8))
        if buf.offset > 1:
            return data[buf.offset:buf.offset + buf.size]
        return None

    for s, sg in enumerate(subgraphs):
        tensors, ops = sg.tensors or [], sg.operators or []
        out.append(f"subgraph {s} tensors={len(tensors)} ops={len(ops)} "
                   f"inputs={ints(sg.inputs if sg.inputs is not None else [])} "
                   f"outputs={ints(sg.outputs if sg.outputs is not None else [])} "
                   f"name={esc(sg.name or b'')}")
        for i, t in enumerate(tensors):
            shape = t.shape if t.shape is not None else []
            const = buffer_data(t.buffer) if t.buffer else None
            sig = t.shapeSignature if const is None else None
            line = (f"tensor {s}.{i} type={TYPE[t.type]} shape={ints(shape)} sig={ints(sig)} "
                    f"buffer={t.buffer} var={int(t.isVariable)} has_rank={int(t.hasRank)}")
            line += f" const={len(const)}:{crc(const)}" if const is not None else " const=-"
            q = t.quantization
            if q is not None and q.scale is not None and len(q.scale):
                sc = np.asarray(q.scale, dtype="<f4")
                zp = [int(z) for z in q.zeroPoint]
                line += f" q={len(sc)}:{q.quantizedDimension}:{crc(sc.tobytes())}/{len(zp)}"
                line += "".join(f",{z}" for z in zp[:4])
                line += (f" params={fbits(sc[0])},{zp[0]}" if len(sc) == 1
                         else " params=00000000,0")
            else:
                line += " q=- params=00000000,0"
            line += f" sparse={int(const is not None and t.sparsity is not None)}"
            line += f" name={esc(t.name or b'')}"
            out.append(line)
        for i, op in enumerate(ops):
            code = code_of(opcodes[op.opcodeIndex])
            line = (f"op {s}.{i} opcode={op.opcodeIndex} in={ints(op.inputs if op.inputs is not None else [])} "
                    f"out={ints(op.outputs if op.outputs is not None else [])} "
                    f"inter={ints(op.intermediates if op.intermediates is not None else [])}")
            custom = None
            if code == BO.CUSTOM:
                if op.customOptions is not None:
                    custom = bytes(np.asarray(op.customOptions, dtype=np.uint8))
                elif op.largeCustomOptionsOffset > 1:
                    o = op.largeCustomOptionsOffset
                    custom = data[o:o + op.largeCustomOptionsSize]
            line += f" custom={len(custom)}:{crc(custom)}" if custom is not None else " custom=-"
            if code == BO.CUSTOM:
                otype = 0
            elif code >= BO.STABLEHLO_LOGISTIC:
                otype = op.builtinOptions2Type
            else:
                otype = op.builtinOptionsType
            params = expected_params(code, op)
            if params is None:
                params = "-" if code not in WITH_PARAMS else "?"
            out.append(line + f" otype={otype} params={params}")
    for i, sd in enumerate(m.signatureDefs or []):
        def tmap(v):
            d = {}
            for e in v or []:
                if e.name is not None:
                    d[bytes(e.name).split(b"\0")[0]] = e.tensorIndex
            return ",".join(f"{esc(k)}:{d[k]}" for k in sorted(d))
        out.append(f"signature {i} subgraph={sd.subgraphIndex} key={esc(sd.signatureKey)} "
                   f"in={tmap(sd.inputs)} out={tmap(sd.outputs)}")
    meta = {}
    for md in m.metadata or []:
        if md.name is None or md.buffer >= len(buffers):
            continue
        d = buffer_data(md.buffer)
        if d:
            meta[bytes(md.name).split(b"\0")[0]] = d
    for i, k in enumerate(sorted(meta)):
        out.append(f"metadata {i} size={len(meta[k])} crc={crc(meta[k])} name={esc(k)}")
    return out


# Builtin codes whose params the C reader allocates (the others give NULL).
WITH_PARAMS = set(SPECS) | {
    BO.RESHAPE, BO.SQUEEZE, BO.VAR_HANDLE, BO.LSTM, BO.BIDIRECTIONAL_SEQUENCE_LSTM, BO.RNN,
    BO.UNIDIRECTIONAL_SEQUENCE_RNN, BO.BIDIRECTIONAL_SEQUENCE_RNN, BO.LSH_PROJECTION,
    BO.EMBEDDING_LOOKUP_SPARSE, BO.SKIP_GRAM, BO.SPARSE_TO_DENSE, BO.REVERSE_SEQUENCE,
    BO.CONV_3D, BO.CONV_3D_TRANSPOSE, BO.HASHTABLE, BO.MULTINOMIAL, BO.RANDOM_STANDARD_NORMAL,
    BO.BUCKETIZE, BO.STABLEHLO_SCATTER, BO.STABLEHLO_GATHER, BO.STABLEHLO_RNG_BIT_GENERATOR,
    BO.STABLEHLO_REDUCE_WINDOW, BO.REDUCE_WINDOW, BO.STABLEHLO_PAD, BO.STABLEHLO_COMPOSITE,
    BO.STABLEHLO_CASE}


def compare(exe, paths, misalign=False):
    args = ["summary"] + (["--misalign"] if misalign else []) + paths
    got = run(exe, *args).splitlines()
    want = []
    for p in paths:
        with open(p, "rb") as f:
            want += summary(p, f.read())
    if got != want:
        for g, w in zip(got, want):
            if g != w:
                sys.exit(f"MISMATCH\n C: {g}\n py: {w}")
        sys.exit(f"MISMATCH in length: C {len(got)} lines, python {len(want)}")
    return len(got)


# ---- synthetic models ----

def pack(model):
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def tensor(name, shape, ttype=S.TensorType.FLOAT32, buffer=0):
    t = S.TensorT()
    t.name, t.shape, t.type, t.buffer = name.encode(), shape, ttype, buffer
    return t


def one_op_model(code, options_type=0, options=None, ninputs=2, tensors=None, buffers=None,
                 inputs=None, outputs=None):
    m = S.ModelT()
    m.version = 3
    oc = S.OperatorCodeT()
    oc.builtinCode = code
    oc.deprecatedBuiltinCode = min(code, 127)
    oc.version = 1
    m.operatorCodes = [oc]
    sg = S.SubGraphT()
    sg.tensors = tensors or [tensor(f"t{i}", [1, 2]) for i in range(ninputs + 1)]
    op = S.OperatorT()
    op.opcodeIndex = 0
    op.inputs = inputs if inputs is not None else list(range(ninputs))
    op.outputs = outputs if outputs is not None else [ninputs]
    if code >= BO.STABLEHLO_LOGISTIC:
        op.builtinOptions2Type, op.builtinOptions2 = options_type, options
    else:
        op.builtinOptionsType, op.builtinOptions = options_type, options
    sg.operators = [op]
    sg.inputs, sg.outputs = [0], [len(sg.tensors) - 1]
    m.subgraphs = [sg]
    m.buffers = buffers or [S.BufferT()]
    return m


# Valid ranges of enum-valued option fields.
ENUMS = {"padding": 2, "fusedActivationFunction": 6, "weightsFormat": 2, "mode": 2,
         "quantizedBiasType": 23, "outType": 23, "inDataType": 23, "outDataType": 23,
         "outputType": 23, "idxOutType": 23}


def randomize(obj, rnd):
    for k, v in vars(obj).items():
        if k in ENUMS:
            setattr(obj, k, rnd.randrange(ENUMS[k]))
        elif isinstance(v, bool):
            setattr(obj, k, rnd.random() < 0.5)
        elif isinstance(v, float):
            setattr(obj, k, float(np.float32(rnd.uniform(-10, 10))))
        elif isinstance(v, int):
            setattr(obj, k, rnd.choice([0, 1, 2, 3, -1, rnd.randrange(-2**31, 2**31)]))
    return obj


def op_tests(exe, tmp, n):
    rnd = random.Random(1234)
    opt_names = {v: k for k, v in vars(O).items() if not k.startswith("_")}
    count = 0
    paths = []
    cases = list(SPECS.items())
    for i in range(n):
        code, (otype, _, _) = cases[i % len(cases)]
        r = rnd.random()
        opts = None
        if r < 0.8:
            opts = randomize(getattr(S, opt_names[otype] + "T")(), rnd)
            if code == BO.RANDOM_UNIFORM:
                opts.seed, opts.seed2 = rnd.randrange(-2**63, 2**63), rnd.randrange(-2**63, 2**63)
        elif r < 0.9:  # another options type: TFLite keeps the zeroed params
            otype = S.BuiltinOptions.AddOptions if otype != S.BuiltinOptions.AddOptions else 9
            opts = getattr(S, opt_names[otype] + "T")()
        else:
            otype = 0
        path = os.path.join(tmp, f"op{i}.tflite")
        with open(path, "wb") as f:
            f.write(pack(one_op_model(code, otype, opts)))
        paths.append(path)
    for code, otype, opts in [
            (BO.BUCKETIZE, O.BucketizeOptions, S.BucketizeOptionsT()),
            (BO.RESHAPE, O.ReshapeOptions, S.ReshapeOptionsT()),
            (BO.SQUEEZE, O.SqueezeOptions, S.SqueezeOptionsT()),
            (BO.VAR_HANDLE, O.VarHandleOptions, S.VarHandleOptionsT())]:
        for k in range(4):
            o = opts.__class__()
            if code == BO.RESHAPE and k:
                o.newShape = [rnd.randrange(-1, 9) for _ in range(rnd.randrange(0, 9))]
            if code == BO.BUCKETIZE:  # boundaries are required when the options exist
                o.boundaries = [float(np.float32(rnd.uniform(-9, 9))) for _ in range(2 * k)]
            if code == BO.SQUEEZE and k:
                o.squeezeDims = [rnd.randrange(-4, 4) for _ in range(rnd.randrange(0, 9))]
            if code == BO.VAR_HANDLE and k:
                o.container = b"c%d" % k if k & 1 else None
                o.sharedName = b"var_%d" % k
            path = os.path.join(tmp, f"op_{code}_{k}.tflite")
            with open(path, "wb") as f:
                f.write(pack(one_op_model(code, otype, o if k < 3 else None)))
            paths.append(path)
    for chunk in range(0, len(paths), 200):
        count += compare(exe, paths[chunk:chunk + 200])
        count += compare(exe, paths[chunk:chunk + 200], misalign=True)
    return paths


def expect_error(exe, tmp, name, data, needle):
    path = os.path.join(tmp, name + ".tflite")
    with open(path, "wb") as f:
        f.write(data)
    outp = run(exe, "summary", path)
    err = [l for l in outp.splitlines() if l.startswith("error ")]
    if not err or needle not in err[0]:
        sys.exit(f"{name}: expected an error containing {needle!r}, got:\n{outp}")
    return err[0]


def malformed_tests(exe, tmp):
    msgs = []
    conv = lambda **kw: one_op_model(BO.ADD, O.AddOptions, S.AddOptionsT(), **kw)
    msgs.append(expect_error(exe, tmp, "bad_input", pack(conv(inputs=[0, 999])),
                             "subgraph 0 operator 0: input 1: tensor index 999 out of range "
                             "(subgraph has 3 tensors)"))
    msgs.append(expect_error(exe, tmp, "overlap", pack(conv(inputs=[0, 2], outputs=[2])),
                             "tensor 2 is both input 1 and output 0"))
    m = conv()
    m.subgraphs[0].tensors[0].buffer = 7
    msgs.append(expect_error(exe, tmp, "bad_buffer", pack(m),
                             "subgraph 0 tensor 0: buffer index 7 out of range (model has 1 buffers)"))
    m = conv()
    b = S.BufferT()
    b.data = np.zeros(7, np.uint8)
    m.buffers.append(b)
    m.subgraphs[0].tensors[0].buffer = 1
    msgs.append(expect_error(exe, tmp, "short_buffer", pack(m), "holds 7 bytes"))
    m = conv()
    m.subgraphs[0].tensors[1].type = 99
    msgs.append(expect_error(exe, tmp, "bad_type", pack(m), "unknown tensor type 99"))
    m = conv()
    m.subgraphs[0].tensors[1].shape = [2, -3]
    msgs.append(expect_error(exe, tmp, "neg_dim", pack(m), "negative dimension"))
    m = conv()
    m.subgraphs[0].tensors[1].shape = [65536, 65536, 65536, 65536, 65536]
    msgs.append(expect_error(exe, tmp, "huge_shape", pack(m), "too many elements"))
    o = S.AddOptionsT()
    o.fusedActivationFunction = 9
    msgs.append(expect_error(exe, tmp, "bad_act", pack(one_op_model(BO.ADD, O.AddOptions, o)),
                             "ADD: unknown fused activation function 9"))
    o = S.ReshapeOptionsT()
    o.newShape = list(range(9))
    msgs.append(expect_error(exe, tmp, "long_reshape",
                             pack(one_op_model(BO.RESHAPE, O.ReshapeOptions, o)),
                             "'new_shape' has 9 entries"))
    msgs.append(expect_error(exe, tmp, "lstm_no_opts", pack(one_op_model(BO.LSTM)),
                             "no valid LSTM builtin options"))
    m = conv()
    q = S.QuantizationParametersT()
    q.scale, q.zeroPoint, q.quantizedDimension = [0.5, 0.25], [0, 0], 0
    m.subgraphs[0].tensors[0].quantization = q
    msgs.append(expect_error(exe, tmp, "bad_channels", pack(m), "2 scales"))
    q.scale, q.zeroPoint, q.quantizedDimension = [0.5], [2**40], 0
    msgs.append(expect_error(exe, tmp, "big_zp", pack(m), "does not fit in int32"))
    m = conv()
    m.version = 2
    msgs.append(expect_error(exe, tmp, "version", pack(m), "schema version 2"))
    data = bytearray(pack(conv()))
    data[4:8] = b"XYZ1"
    msgs.append(expect_error(exe, tmp, "ident", bytes(data), "identifier 'XYZ1'"))
    msgs.append(expect_error(exe, tmp, "tiny", b"\x08\0\0\0TF", "too small"))
    msgs.append(expect_error(exe, tmp, "budget", offset_bomb(), "too complex"))
    msgs.append(expect_error(exe, tmp, "sparse_bad", sparse_model(bad=True), "sparsity"))
    # A well-formed sparse constant and quantized tensors parse and match.
    msgs.append(expect_error(exe, tmp, "external_bad", external_data_model(bad=True),
                             "lies outside the"))
    for name, data in [("sparse_ok", sparse_model(bad=False)), ("strings", string_model()),
                       ("external", external_data_model())]:
        path = os.path.join(tmp, name + ".tflite")
        with open(path, "wb") as f:
            f.write(data)
        compare(exe, [path])
        compare(exe, [path], misalign=True)
        if "sparse=1" not in run(exe, "summary", path) and name == "sparse_ok":
            sys.exit("sparse tensor not recognised")
    return msgs


def offset_bomb():
    """100k tensors that all share one 100k-entry shape vector: a naive reader
    copies 10^10 ints; the work budget must stop it quickly."""
    b = flatbuffers.Builder(1 << 20)
    n = 100_000
    b.StartVector(4, n, 4)
    for _ in range(n):
        b.PrependInt32(1)
    shape = b.EndVector()
    S.TensorStart(b)
    S.TensorAddShape(b, shape)
    t = S.TensorEnd(b)
    b.StartVector(4, n, 4)
    for _ in range(n):
        b.PrependUOffsetTRelative(t)
    tensors = b.EndVector()
    S.SubGraphStart(b)
    S.SubGraphAddTensors(b, tensors)
    sg = S.SubGraphEnd(b)
    b.StartVector(4, 1, 4)
    b.PrependUOffsetTRelative(sg)
    sgs = b.EndVector()
    S.BufferStart(b)
    buf = S.BufferEnd(b)
    b.StartVector(4, 1, 4)
    b.PrependUOffsetTRelative(buf)
    bufs = b.EndVector()
    S.ModelStart(b)
    S.ModelAddVersion(b, 3)
    S.ModelAddSubgraphs(b, sgs)
    S.ModelAddBuffers(b, bufs)
    b.Finish(S.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def sparse_model(bad):
    """A 4x4 float constant in 2x2 blocks, block rows CSR (TFLite's example)."""
    m = one_op_model(BO.ADD, O.AddOptions, S.AddOptionsT())
    dense = S.DimensionMetadataT()
    dense.format, dense.denseSize = 0, 2
    csr = S.DimensionMetadataT()
    csr.format = 1
    seg, idx = S.Int32VectorT(), S.Uint8VectorT()
    seg.values, idx.values = [0, 2, 3], [0, 1, 5 if bad else 1]
    csr.arraySegmentsType, csr.arraySegments = S.SparseIndexVector.Int32Vector, seg
    csr.arrayIndicesType, csr.arrayIndices = S.SparseIndexVector.Uint8Vector, idx
    blk = [S.DimensionMetadataT() for _ in range(2)]
    for d in blk:
        d.format, d.denseSize = 0, 2
    sp = S.SparsityParametersT()
    sp.traversalOrder, sp.blockMap = [0, 1, 2, 3], [0, 1]
    sp.dimMetadata = [dense, csr] + blk
    t = m.subgraphs[0].tensors[1]
    t.shape, t.sparsity, t.buffer = [4, 4], sp, 1
    b = S.BufferT()
    b.data = np.frombuffer(np.arange(12, dtype=np.float32).tobytes(), np.uint8)
    m.buffers.append(b)
    return pack(m)


def external_data_model(bad=False):
    """The large-model layout: a constant's bytes and a custom op's options
    stored after the FlatBuffer, found through Buffer.offset/size and
    Operator.large_custom_options_offset/size (offsets from the file start)."""
    m = one_op_model(BO.CUSTOM, ninputs=2)
    m.operatorCodes[0].customCode = b"MyCustomOp"
    t = m.subgraphs[0].tensors[1]
    t.shape, t.type, t.buffer = [2, 3], S.TensorType.INT16, 1
    weights = np.arange(6, dtype="<i2").tobytes()
    options = b"custom-options!"
    b = S.BufferT()
    m.buffers.append(b)
    op = m.subgraphs[0].operators[0]
    b.offset, b.size = 1 << 40, len(weights)  # placeholders of the final width
    op.largeCustomOptionsOffset, op.largeCustomOptionsSize = 1 << 40, len(options)
    size = (len(pack(m)) + 15) // 16 * 16
    b.offset = size + (1 << 30 if bad else 0)
    op.largeCustomOptionsOffset = size + 16
    data = pack(m)
    assert len(data) <= size
    return data + bytes(size - len(data)) + weights + bytes(16 - len(weights)) + options


def string_model():
    m = one_op_model(BO.ADD, O.AddOptions, S.AddOptionsT())
    strings = [b"ab", b"", b"xyz"]
    header = 4 * (len(strings) + 2)
    offs, pos = [], header
    for s in strings:
        offs.append(pos)
        pos += len(s)
    raw = struct.pack("<i", len(strings)) + struct.pack(f"<{len(strings) + 1}i", *offs, pos)
    raw += b"".join(strings)
    t = m.subgraphs[0].tensors[1]
    t.type, t.shape, t.buffer = S.TensorType.STRING, [3], 1
    b = S.BufferT()
    b.data = np.frombuffer(raw, np.uint8)
    m.buffers.append(b)
    return pack(m)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=os.path.join(os.path.dirname(ROOT), "shared", "models"))
    ap.add_argument("--ops", type=int, default=600)
    ap.add_argument("--fuzz", type=int, default=0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)
        models = sorted(glob.glob(os.path.join(args.models, "*.tflite")))
        lines = compare(exe, models) + compare(exe, models, misalign=True)
        print(f"shared models: {len(models)} files, {lines} summary lines equal (aligned and "
              f"misaligned)")
        ops = op_tests(exe, tmp, args.ops)
        print(f"op options: {len(ops)} single-op models equal")
        msgs = malformed_tests(exe, tmp)
        print(f"malformed models: {len(msgs)} rejected as expected, e.g.")
        for m in msgs[:4] + msgs[-3:]:
            print("   ", m)
        if args.fuzz:
            extra = ops[:len(SPECS)] + [os.path.join(tmp, n + ".tflite")
                                        for n in ("sparse_ok", "strings", "external")]
            print(run(exe, "fuzz", "--iters", str(args.fuzz), *models, *extra)
                  .strip().splitlines()[-1] + f" ({len(models)} shared + {len(extra)} "
                  "synthetic models)")


if __name__ == "__main__":
    main()
