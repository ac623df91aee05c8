"""Delegates written in Python (tflite_fast.delegate.PythonDelegate, issue 5
item 7). A numpy delegate claiming ADD/MUL/SUB must get exactly the
partitions the C fixture delegate (tests/delegate/test_delegate.c) gets for
the same claim, which test_delegate.py checks against ai_edge_litert and the
worked examples of delegate-abi.md §4.4; its outputs must equal the
oracle's; the SimpleDelegate-style options pick among those partitions; and
any exception in its methods surfaces as RuntimeError. supports() sees each
node's builtin options decoded from its TfLite*Params struct: the fields the
models were built with, at the offsets the C compiler gives them."""

import gc
import os
import struct
import subprocess

import numpy as np
import pytest

import oracle
from model_builder import BUILTIN_CODES, ModelBuilder
from test_delegate import A, B, CONST, CC, G1, G4, ROOT, build, logger

import tflite_fast
import tflite_fast.interpreter as tff
from tflite_fast import _params
from tflite_fast.delegate import PythonDelegate

pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")

NUMPY_OPS = {"ADD": np.add, "MUL": np.multiply, "SUB": np.subtract}
CODES = {"ADD": 0, "MUL": 18, "SUB": 41}
MODELS = {"G1": (G1, [A, B]), "G4": (G4, [A, B]), "CONST": (CONST, [A])}
MODES = {
    "greedy": {},
    "no_clustering": {"experimental_disable_delegate_clustering": True},
    "no_fusion": {"experimental_disable_delegate_node_fusion": True},
}


class NumpyKernel:
    """Runs a partition's binary float ops in order on a dict of tensors."""

    def __init__(self, partition, fail):
        self.partition = partition
        self.fail = fail
        self.prepared = False

    def prepare(self):
        if self.fail == "prepare":
            raise ValueError("prepare failure requested")
        self.prepared = True

    def invoke(self, inputs):
        if self.fail == "invoke":
            raise ValueError("invoke failure requested")
        assert self.prepared
        values = {t["index"]: x for t, x in zip(self.partition.inputs, inputs)}
        for node in self.partition.nodes:
            a, b = (values[t["index"]] for t in node.inputs)
            values[node.outputs[0]["index"]] = NUMPY_OPS[node.op_name](a, b)
        if self.fail == "dtype":
            return [values[t["index"]].astype(np.float64) for t in self.partition.outputs]
        return [values[t["index"]] for t in self.partition.outputs]


class NumpyDelegate(PythonDelegate):
    def __init__(self, ops, fail=None, **options):
        super().__init__(**options)
        self.ops = ops
        self.fail = fail
        self.seen = []        # nodes supports() was asked about
        self.partitions = []  # (nodes, inputs, outputs) per create_kernel

    def supports(self, node):
        if self.fail == "supports":
            raise ValueError("supports failure requested")
        self.seen.append(node)
        return node.op_name in self.ops and node.outputs[0]["dtype"] is np.float32

    def create_kernel(self, partition):
        if self.fail == "create":
            raise ValueError("create failure requested")
        self.partitions.append(([n.index for n in partition.nodes], [t["index"] for t in partition.inputs],
                                [t["index"] for t in partition.outputs]))
        return NumpyKernel(partition, self.fail)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return build(tmp_path_factory)


def run(model, inputs, delegate, **kw):
    """(ops details, outputs) with `delegate` applied."""
    it = tff.Interpreter(model_content=model, experimental_delegates=[delegate], **kw)
    it.allocate_tensors()
    for detail, x in zip(it.get_input_details(), inputs):
        it.set_tensor(detail["index"], x)
    it.invoke()
    ops = [(o["index"], o["op_name"], list(map(int, o["inputs"])), list(map(int, o["outputs"])))
           for o in it._get_ops_details()]
    return ops, [it.get_tensor(o["index"]) for o in it.get_output_details()]


def c_partitions(so):
    """(nodes, inputs, outputs) of each kernel the C fixture's init saw."""
    out = []
    for line in so.test_delegate_log().decode().splitlines():
        if line.startswith("init "):
            fields = dict(f.split("=") for f in line.split(" ")[1:])
            out.append(tuple([int(v) for v in fields[k].split(",") if v] for k in ("nodes", "inputs", "outputs")))
    return out


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name,ops", [("G1", ("ADD", "MUL")), ("G1", ("ADD", "MUL", "SUB")), ("G1", ("SUB",)),
                                      ("G4", ("ADD",)), ("CONST", ("ADD",)), ("G1", ())])
def test_same_partitions_as_c_delegate(lib, name, ops, mode):
    model, inputs = MODELS[name]
    so = logger(lib)
    so.test_delegate_log_clear()
    c = tff.load_delegate(lib, {"ops": ",".join(str(CODES[o]) for o in ops)})
    c_ops, c_outs = run(model, inputs, c, **MODES[mode])
    py = NumpyDelegate(ops)
    py_ops, py_outs = run(model, inputs, py, **MODES[mode])
    assert py.partitions == c_partitions(so)
    assert py_ops == c_ops
    ref = oracle.run_oracle(model, inputs, "default")
    oracle.assert_outputs_match(py_outs, ref)
    del c
    gc.collect()


def test_g1_worked_example():
    """doc §4.4: partitions [0,1,4] and [3], delegate nodes 6 and 7, plan [6,2,7,5]."""
    d = NumpyDelegate(("ADD", "MUL"))
    ops, outs = run(G1, [A, B], d)
    assert d.partitions == [([0, 1, 4], [0, 1], [2, 3, 6]), ([3], [2, 4], [5])]
    assert ops[6:] == [(6, "DELEGATE", [0, 1], [2, 3, 6]), (7, "DELEGATE", [2, 4], [5])]
    t2 = A + B
    np.testing.assert_array_equal(outs[0], A * B - ((t2 * A - B) + t2))


def test_supports_sees_node_details():
    d = NumpyDelegate(("ADD",))
    run(CONST, [A], d)
    first = d.seen[0]
    assert (first.index, first.op_name, first.builtin_code, first.version) == (0, "ADD", 0, 1)
    assert [t["index"] for t in first.inputs] == [0, 1] and first.outputs[0]["index"] == 2
    assert first.inputs[0]["dtype"] is np.float32 and list(first.inputs[0]["shape"]) == [1, 4]
    assert first.inputs[0]["quantization"] == (0.0, 0) and first.inputs[0]["data"] is None
    np.testing.assert_array_equal(first.inputs[1]["data"], [[0.5, -1, 2, 3]])  # the constant's values


def test_quantization_visible():
    b = ModelBuilder()
    x = b.tensor("x", [1, 3], np.int8, scale=[0.5], zero_point=[-3])
    y = b.tensor("y", [1, 3], np.int8, scale=[0.25], zero_point=[2])
    b.op("RELU", [x], [y])
    b.inputs([x])
    b.outputs([y])
    d = NumpyDelegate(())
    tff.Interpreter(model_content=b.build(), experimental_delegates=[d])
    node = d.seen[0]
    assert node.op_name == "RELU" and node.inputs[0]["dtype"] is np.int8
    assert node.inputs[0]["quantization"] == (0.5, -3) and node.outputs[0]["quantization"] == (0.25, 2)
    assert d.partitions == []  # nothing claimed: nothing replaced


def test_internal_tensor_not_allocated():
    d = NumpyDelegate(("ADD",))
    it = tff.Interpreter(model_content=CONST, experimental_delegates=[d])
    it.allocate_tensors()
    assert d.partitions == [([0, 1], [0, 1], [3])]
    plan = {e["tensor"] for e in it.memory_plan()}
    assert 2 not in plan and {0, 3} <= plan
    it.set_tensor(0, A)
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(3), A + 2 * np.array([[0.5, -1, 2, 3]], np.float32))


@pytest.mark.parametrize("options,kw,partitions", [
    # G1 greedy makes [0,1,4] and [3]
    ({"min_nodes_per_partition": 2}, {}, [[0, 1, 4]]),
    ({"max_delegated_partitions": 1}, {}, [[0, 1, 4]]),
    ({"min_nodes_per_partition": 4}, {}, []),
    ({"max_delegated_partitions": 2}, {}, [[0, 1, 4], [3]]),
])
def test_partition_options_g1(options, kw, partitions):
    d = NumpyDelegate(("ADD", "MUL"), **options)
    ops, outs = run(G1, [A, B], d, **kw)
    assert [p[0] for p in d.partitions] == partitions
    assert sum(o[1] == "DELEGATE" for o in ops) == len(partitions)
    oracle.assert_outputs_match(outs, oracle.run_oracle(G1, [A, B], "default"))


def test_partition_options_g4_non_greedy():
    """Non-greedy G4 claiming ADD: [0] [2] [4,5]; the largest first, then plan order."""
    kw = {"experimental_disable_delegate_clustering": True}
    d = NumpyDelegate(("ADD",), max_delegated_partitions=1)
    ops, outs = run(G4, [A, B], d, **kw)
    # claimed {4,5} alone: subsets [0,1,2,3] [4,5]* [6]
    assert d.partitions == [([4, 5], [0, 1, 4, 5], [6, 7])]
    assert ops[7:] == [(7, "DELEGATE", [0, 1, 4, 5], [6, 7])]
    oracle.assert_outputs_match(outs, oracle.run_oracle(G4, [A, B], "default"))
    d = NumpyDelegate(("ADD",), max_delegated_partitions=2)
    run(G4, [A, B], d, **kw)
    assert [p[0] for p in d.partitions] == [[0], [4, 5]]


@pytest.mark.parametrize("bad", [{"max_delegated_partitions": 0}, {"min_nodes_per_partition": 0},
                                 {"max_delegated_partitions": 1.5}])
def test_bad_options(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        NumpyDelegate(("ADD",), **bad)


def test_resize_reapplies():
    """Static delegate: resizing undoes it, allocate partitions again with the new shapes."""
    d = NumpyDelegate(("ADD", "MUL"))
    it = tff.Interpreter(model_content=G1, experimental_delegates=[d])
    for i in (0, 1):
        it.resize_tensor_input(i, [2, 4])
    it.allocate_tensors()
    a, b = np.concatenate([A, 2 * A]), np.concatenate([B, -B])
    it.set_tensor(0, a)
    it.set_tensor(1, b)
    it.invoke()
    assert len(d.partitions) == 4  # two at construction, two again after the resize
    it2 = oracle.oracle_module().Interpreter(model_content=G1)
    for i in (0, 1):
        it2.resize_tensor_input(i, [2, 4])
    it2.allocate_tensors()
    it2.set_tensor(0, a)
    it2.set_tensor(1, b)
    it2.invoke()
    oracle.assert_outputs_match([it.get_tensor(7)], [it2.get_tensor(7)])


CONSTRUCTION_FAILURES = {
    "supports": "Python delegate NumpyDelegate.prepare: ValueError: supports failure requested"
                "Restored original execution plan after delegate application failure.",
    "create": "Python delegate NumpyDelegate.create_kernel: ValueError: create failure requested"
              "Failed to initialize kernel.Restored original execution plan after delegate application failure.",
    "prepare": "Python delegate kernel prepare: ValueError: prepare failure requested"
               "Node number 6 (NumpyDelegate) failed to prepare."
               "Restored original execution plan after delegate application failure.",
}


@pytest.mark.parametrize("stage", list(CONSTRUCTION_FAILURES))
def test_failure_at_construction(stage):
    with pytest.raises(RuntimeError) as e:
        tff.Interpreter(model_content=G1, experimental_delegates=[NumpyDelegate(("ADD", "MUL"), fail=stage)])
    assert str(e.value) == CONSTRUCTION_FAILURES[stage]


@pytest.mark.parametrize("stage,message", [
    ("invoke", "Python delegate kernel invoke: ValueError: invoke failure requested"),
    ("dtype", "Python delegate kernel invoke: ValueError: output 0 must be float32 (1, 4) "
              "(no implicit conversion), got float64 (1, 4)"),
])
def test_failure_at_invoke(stage, message):
    it = tff.Interpreter(model_content=G1, experimental_delegates=[NumpyDelegate(("ADD", "MUL"), fail=stage)])
    it.allocate_tensors()
    it.set_tensor(0, A)
    it.set_tensor(1, B)
    with pytest.raises(RuntimeError) as e:
        it.invoke()
    assert str(e.value) == message + "Node number 6 (NumpyDelegate) failed to invoke."


def test_abstract_methods_fail_cleanly():
    with pytest.raises(RuntimeError, match="implement supports"):
        tff.Interpreter(model_content=G1, experimental_delegates=[PythonDelegate()])


def test_kernel_without_invoke():
    class Bad(NumpyDelegate):
        def create_kernel(self, partition):
            return object()

    with pytest.raises(RuntimeError, match="invoke\\(inputs\\) method"):
        tff.Interpreter(model_content=G1, experimental_delegates=[Bad(("ADD",))])


def test_delegate_outlives_interpreter_references():
    """The interpreter keeps the delegate; kernels are released with it."""
    d = NumpyDelegate(("ADD", "MUL"))
    it = tff.Interpreter(model_content=G1, experimental_delegates=[d])
    del d
    gc.collect()
    it.allocate_tensors()
    it.set_tensor(0, A)
    it.set_tensor(1, B)
    it.invoke()
    oracle.assert_outputs_match([it.get_tensor(7)], oracle.run_oracle(G1, [A, B], "default"))


def test_after_a_c_delegate(lib):
    """C delegate (ADD) then Python delegate (MUL): the same graph as two C delegates give;
    the Python one sees the C delegate's nodes as DELEGATE."""
    def ops_with(second):
        it = tff.Interpreter(model_content=G1, experimental_delegates=[tff.load_delegate(lib, {"ops": "0"}), second])
        it.allocate_tensors()
        it.set_tensor(0, A)
        it.set_tensor(1, B)
        it.invoke()
        return ([(o["index"], o["op_name"], list(map(int, o["inputs"])), list(map(int, o["outputs"])))
                 for o in it._get_ops_details()], it.get_tensor(7))

    py = NumpyDelegate(("MUL",))
    py_ops, py_out = ops_with(py)
    so = logger(lib)
    so.test_delegate_log_clear()
    c_ops, _ = ops_with(tff.load_delegate(lib, {"ops": "18"}))
    assert py_ops == c_ops and py_ops[8][1] == "DELEGATE"
    # the plan the second C delegate's Prepare saw: [0]* [1,2,4] [3]* [5] -> 6,1,2,4,7,5
    plans = [line for line in so.test_delegate_log().decode().splitlines() if line.startswith("prepare plan=")]
    assert plans[1] == "prepare plan=6,1,2,4,7,5"
    assert [(n.index, n.op_name) for n in py.seen] == [(6, "DELEGATE"), (1, "MUL"), (2, "SUB"), (4, "MUL"),
                                                       (7, "DELEGATE"), (5, "SUB")]
    oracle.assert_outputs_match([py_out], oracle.run_oracle(G1, [A, B], "default"))


# --- builtin options (node.builtin_options) ---------------------------------------------

F32 = np.float32
ACT = {"NONE": 0, "RELU": 1, "RELU6": 3}
PAD = {"SAME": 0, "VALID": 1}  # schema Padding


def np_conv(x, w, bias, opts):
    """CONV_2D in float64 from the node's options (dilation 1): NHWC input,
    [Cout, KH, KW, Cin] weights, TFLite's SAME / VALID padding."""
    _, h, wd, _ = x.shape
    cout, kh, kw, _ = w.shape
    sh, sw = opts["stride_height"], opts["stride_width"]
    if opts["padding"] == "SAME":
        oh, ow = -(-h // sh), -(-wd // sw)
        ph, pw = max((oh - 1) * sh + kh - h, 0) // 2, max((ow - 1) * sw + kw - wd, 0) // 2
    else:
        oh, ow, ph, pw = (h - kh) // sh + 1, (wd - kw) // sw + 1, 0, 0
    xp = np.zeros((h + kh + sh * oh, wd + kw + sw * ow, x.shape[3]))
    xp[ph:ph + h, pw:pw + wd] = x[0]
    y = np.zeros((1, oh, ow, cout))
    for i in range(oh):
        for j in range(ow):
            patch = xp[i * sh:i * sh + kh, j * sw:j * sw + kw]
            y[0, i, j] = np.tensordot(w, patch, axes=([1, 2, 3], [0, 1, 2])) + bias
    lo, hi = {"NONE": (-np.inf, np.inf), "RELU": (0, np.inf), "RELU6": (0, 6)}[opts["activation"]]
    return np.clip(y, lo, hi).astype(F32)


class StrideOneConv(PythonDelegate):
    """Claims CONV_2D nodes with stride 1 only; computes them with np_conv."""

    def __init__(self):
        super().__init__()
        self.seen = {}

    def supports(self, node):
        self.seen[node.index] = node.builtin_options
        o = node.builtin_options
        return node.op_name == "CONV_2D" and o["stride_width"] == 1 and o["stride_height"] == 1

    def create_kernel(self, partition):
        return ConvKernel(partition)


class ConvKernel:
    def __init__(self, partition):
        self.partition = partition

    def invoke(self, inputs):
        values = {t["index"]: x for t, x in zip(self.partition.inputs, inputs)}
        for node in self.partition.nodes:
            x, w, b = (values[t["index"]] for t in node.inputs)
            values[node.outputs[0]["index"]] = np_conv(x, w, b, node.builtin_options)
        return [values[t["index"]] for t in self.partition.outputs]


def conv_chain():
    """x -> CONV(stride 1, SAME, RELU6) -> CONV(stride 2, VALID) -> CONV(stride 1, VALID)."""
    rng = np.random.default_rng(5)
    b = ModelBuilder()
    x = b.tensor("x", [1, 6, 6, 2], F32)
    t1, t2 = b.tensor("t1", [1, 6, 6, 3], F32), b.tensor("t2", [1, 3, 3, 4], F32)
    y = b.tensor("y", [1, 2, 2, 2], F32)
    layers = [(x, t1, [3, 3, 3, 2], dict(padding=PAD["SAME"], strideW=1, strideH=1,
                                         fusedActivationFunction=ACT["RELU6"])),
              (t1, t2, [4, 2, 2, 3], dict(padding=PAD["VALID"], strideW=2, strideH=2)),
              (t2, y, [2, 2, 2, 4], dict(padding=PAD["VALID"], strideW=1, strideH=1))]
    for k, (src, dst, wshape, opts) in enumerate(layers):
        w = b.const(f"w{k}", rng.standard_normal(wshape).astype(F32))
        bias = b.const(f"b{k}", rng.standard_normal(wshape[0]).astype(F32))
        b.op("CONV_2D", [src, w, bias], [dst], **opts)
    b.inputs([x])
    b.outputs([y])
    return b.build(), rng.standard_normal((1, 6, 6, 2)).astype(F32)


def test_delegate_claims_stride_one_convs():
    model, x = conv_chain()
    d = StrideOneConv()
    ops, outs = run(model, [x], d)
    assert d.seen[0] == {"padding": "SAME", "stride_width": 1, "stride_height": 1,
                         "activation": "RELU6", "dilation_width_factor": 1,
                         "dilation_height_factor": 1, "quantized_bias_type": F32}
    assert (d.seen[1]["stride_width"], d.seen[1]["padding"], d.seen[1]["activation"]) == (
        2, "VALID", "NONE")
    # nodes 0 and 2 delegated (as DELEGATE nodes 3 and 4), the stride-2 node 1 on the CPU
    assert [name for _, name, _, _ in ops] == ["CONV_2D"] * 3 + ["DELEGATE"] * 2
    # tensors x=0 t1=1 t2=2 y=3: t1 comes out of the first, t2 goes into the second
    assert ops[3][3] == [1] and ops[4][2][0] == 2 and ops[4][3] == [3]
    oracle.assert_outputs_match(outs, oracle.run_oracle(model, [x], "default"))


class Recorder(PythonDelegate):
    """Claims nothing; keeps (op_name, builtin_options) of every node."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def supports(self, node):
        self.seen.append((node.op_name, node.builtin_options))
        return False


def one_op(name, ins, outs, **opts):
    """A model of op `name`: ins / outs are (shape, dtype) or (shape, dtype, const values)."""
    b = ModelBuilder()

    def tensor(k, spec):
        shape, dtype = spec[:2]
        if len(spec) == 3:
            return b.const(f"c{k}", np.asarray(spec[2], dtype).reshape(shape))
        return b.tensor(f"t{k}", list(shape), dtype)

    ti = [tensor(k, s) for k, s in enumerate(ins)]
    to = [tensor(len(ins) + k, s) for k, s in enumerate(outs)]
    b.op(name, ti, to, **opts)
    b.inputs([t for t, s in zip(ti, ins) if len(s) == 2])
    b.outputs(to)
    return b.build()


I32 = np.int32
OPTION_CASES = [
    (one_op("DEPTHWISE_CONV_2D", [([1, 4, 4, 2], F32), ([1, 3, 3, 4], F32, np.ones(36)),
                                  ([4], F32, np.zeros(4))], [([1, 1, 2, 4], F32)],
            padding=PAD["VALID"], strideW=1, strideH=2, depthMultiplier=2,
            fusedActivationFunction=ACT["RELU"]),
     {"padding": "VALID", "stride_width": 1, "stride_height": 2, "depth_multiplier": 2,
      "activation": "RELU", "dilation_width_factor": 1, "dilation_height_factor": 1}),
    (one_op("MAX_POOL_2D", [([1, 4, 4, 1], F32)], [([1, 2, 2, 1], F32)], padding=PAD["SAME"],
            strideW=2, strideH=2, filterWidth=3, filterHeight=2),
     {"padding": "SAME", "stride_width": 2, "stride_height": 2, "filter_width": 3,
      "filter_height": 2, "activation": "NONE"}),
    (one_op("FULLY_CONNECTED", [([2, 3], F32), ([4, 3], F32, np.ones(12)), ([4], F32, np.ones(4))],
            [([2, 4], F32)], fusedActivationFunction=ACT["RELU6"], keepNumDims=True),
     {"activation": "RELU6", "weights_format": 0, "keep_num_dims": True,
      "asymmetric_quantize_inputs": False, "quantized_bias_type": F32}),  # schema default
    (one_op("ARG_MAX", [([2, 3], F32), ([1], I32, [1])], [([2], I32)], outputType=2),
     {"output_type": I32}),
    (one_op("ADD", [([1, 4], F32), ([1, 4], F32)], [([1, 4], F32)],
            fusedActivationFunction=ACT["RELU"]),
     {"activation": "RELU", "pot_scale_int16": True}),
    (one_op("CONCATENATION", [([1, 2], F32), ([1, 3], F32)], [([1, 5], F32)], axis=1),
     {"axis": 1, "activation": "NONE"}),
    (one_op("SOFTMAX", [([1, 4], F32)], [([1, 4], F32)], beta=0.5), {"beta": 0.5}),
    (one_op("RESHAPE", [([1, 4], F32)], [([2, 2], F32)], newShape=[2, 2]),
     {"shape": [2, 2], "num_dimensions": 2}),
    (one_op("SQUEEZE", [([1, 4], F32)], [([4], F32)], squeezeDims=[0]),
     {"squeeze_dims": [0], "num_squeeze_dims": 1}),
    (one_op("STRIDED_SLICE", [([4], F32), ([1], I32, [1]), ([1], I32, [3]), ([1], I32, [1])],
            [([3], F32)], beginMask=1),
     {"begin_mask": 1, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0,
      "shrink_axis_mask": 0, "offset": False}),
    (one_op("MEAN", [([2, 3], F32), ([1], I32, [1])], [([2, 1], F32)], keepDims=True),
     {"keep_dims": True}),
    (one_op("GATHER", [([3, 2], F32), ([2], I32)], [([2, 2], F32)], axis=0),
     {"axis": 0, "batch_dims": 0}),
    (one_op("LEAKY_RELU", [([4], F32)], [([4], F32)], alpha=0.25), {"alpha": 0.25}),
    (one_op("RESIZE_BILINEAR", [([1, 2, 2, 1], F32), ([2], I32, [4, 4])], [([1, 4, 4, 1], F32)],
            halfPixelCenters=True),
     {"align_corners": False, "half_pixel_centers": True}),
    (one_op("BATCH_MATMUL", [([2, 3], F32), ([2, 3], F32)], [([2, 2], F32)], adjY=True),
     {"adj_x": False, "adj_y": True, "asymmetric_quantize_inputs": False}),
    (one_op("SPLIT", [([], I32, 1), ([2, 4], F32)], [([2, 2], F32), ([2, 2], F32)], numSplits=2),
     {"num_splits": 2}),
    (one_op("PACK", [([2], F32), ([2], F32)], [([2, 2], F32)], valuesCount=2, axis=0),
     {"values_count": 2, "axis": 0}),
    (one_op("RELU", [([4], F32)], [([4], F32)]), {}),  # no options struct
]


@pytest.mark.parametrize("model,expected", OPTION_CASES)
def test_builtin_options_fields(model, expected):
    """The dict a Python delegate sees holds the options the model was built with (schema
    defaults for the rest), named by the TfLite*Params fields."""
    d = Recorder()
    tff.Interpreter(model_content=model, experimental_delegates=[d])
    assert d.seen[0][1] == expected


def test_builtin_options_table_names_ops():
    """Every op the options table describes is a builtin op name."""
    assert set(_params._STRUCTS) <= set(BUILTIN_CODES)


# op -> its struct in builtin_op_data.h (ops sharing one are checked once)
PARAMS_STRUCTS = dict(pair.split(":") for pair in """
    ADD:TfLiteAddParams SUB:TfLiteSubParams MUL:TfLiteMulParams DIV:TfLiteDivParams
    L2_NORMALIZATION:TfLiteL2NormParams AVERAGE_POOL_2D:TfLitePoolParams CONV_2D:TfLiteConvParams
    CONV_3D:TfLiteConv3DParams DEPTHWISE_CONV_2D:TfLiteDepthwiseConvParams
    TRANSPOSE_CONV:TfLiteTransposeConvParams FULLY_CONNECTED:TfLiteFullyConnectedParams
    CONCATENATION:TfLiteConcatenationParams SOFTMAX:TfLiteSoftmaxParams
    LOCAL_RESPONSE_NORMALIZATION:TfLiteLocalResponseNormParams RESHAPE:TfLiteReshapeParams
    SQUEEZE:TfLiteSqueezeParams STRIDED_SLICE:TfLiteStridedSliceParams PACK:TfLitePackParams
    UNPACK:TfLiteUnpackParams SPLIT:TfLiteSplitParams SPLIT_V:TfLiteSplitVParams
    GATHER:TfLiteGatherParams SHAPE:TfLiteShapeParams CAST:TfLiteCastParams
    ARG_MAX:TfLiteArgMaxParams ARG_MIN:TfLiteArgMinParams
    RESIZE_BILINEAR:TfLiteResizeBilinearParams
    RESIZE_NEAREST_NEIGHBOR:TfLiteResizeNearestNeighborParams LEAKY_RELU:TfLiteLeakyReluParams
    MIRROR_PAD:TfLiteMirrorPaddingParams DEPTH_TO_SPACE:TfLiteDepthToSpaceParams
    SPACE_TO_DEPTH:TfLiteSpaceToDepthParams LSTM:TfLiteLSTMParams
    UNIDIRECTIONAL_SEQUENCE_LSTM:TfLiteUnidirectionalSequenceLSTMParams
    BIDIRECTIONAL_SEQUENCE_LSTM:TfLiteBidirectionalSequenceLSTMParams RNN:TfLiteRNNParams
    UNIDIRECTIONAL_SEQUENCE_RNN:TfLiteSequenceRNNParams
    BIDIRECTIONAL_SEQUENCE_RNN:TfLiteBidirectionalSequenceRNNParams SVDF:TfLiteSVDFParams
    LSH_PROJECTION:TfLiteLSHProjectionParams
    EMBEDDING_LOOKUP_SPARSE:TfLiteEmbeddingLookupSparseParams SKIP_GRAM:TfLiteSkipGramParams
    SPARSE_TO_DENSE:TfLiteSparseToDenseParams FAKE_QUANT:TfLiteFakeQuantParams
    ONE_HOT:TfLiteOneHotParams UNIQUE:TfLiteUniqueParams
    REVERSE_SEQUENCE:TfLiteReverseSequenceParams IF:TfLiteIfParams WHILE:TfLiteWhileParams
    CALL_ONCE:TfLiteCallOnceParams BATCH_MATMUL:TfLiteBatchMatMulParams CUMSUM:TfLiteCumsumParams
    HASHTABLE:TfLiteHashtableParams VAR_HANDLE:TfLiteVarHandleParams
    RANDOM_UNIFORM:TfLiteRandomParams BUCKETIZE:TfLiteBucketizeParams GELU:TfLiteGeluParams
    STABLEHLO_SCATTER:TfLiteStablehloScatterParams STABLEHLO_GATHER:TfLiteStablehloGatherParams
    STABLEHLO_RNG_BIT_GENERATOR:TfLiteStablehloRngBitGeneratorParams
    STABLEHLO_REDUCE_WINDOW:TfLiteStablehloReduceWindowParams
    REDUCE_WINDOW:TfLiteReduceWindowParams STABLEHLO_PAD:TfLiteStablehloPadParams
    STABLEHLO_COMPOSITE:TfLiteStablehloCompositeParams STABLEHLO_CASE:TfLiteStablehloCaseParams
    MEAN:TfLiteReducerParams
""".split())


def test_builtin_options_layouts_match_header(tmp_path):
    """Every field the decoder reads sits at the offset the C compiler gives it in the
    installed builtin_op_data.h (the struct module's native alignment is C's)."""
    formats = {}
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "tflite_fast/builtin_op_data.h"',
             "int main(void) {"]
    for op, name in PARAMS_STRUCTS.items():
        prefix = "@"
        for field, kind in _params._STRUCTS[op]:
            code = _params._CODES.get(kind, kind)
            formats[(op, field)] = struct.calcsize(prefix + code) - struct.calcsize("@" + code)
            prefix += code
            lines.append('printf("%s %s %%zu\\n", offsetof(%s, %s));' % (op, field, name, field))
    lines.append("return 0; }")
    src, exe = tmp_path / "offsets.c", tmp_path / "offsets"
    src.write_text("\n".join(lines))
    inc = tflite_fast.get_include()
    inc = inc if os.path.isdir(inc) else os.path.join(ROOT, "csrc", "include")
    subprocess.run([CC, "-std=c11", "-I", inc, str(src), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split("\n")
    offsets = {(op, field): int(off) for op, field, off in (line.split() for line in out if line)}
    assert offsets == formats
    assert {op for op in _params._STRUCTS if _params._STRUCTS[op] not in
            [_params._STRUCTS[o] for o in PARAMS_STRUCTS]} == set()
