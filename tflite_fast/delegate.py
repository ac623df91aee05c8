"""Delegates written in Python (a tflite_fast extension; issue 5 item 7).

A PythonDelegate is a real TfLiteDelegate: pass it in
Interpreter(experimental_delegates=[...]) like one from load_delegate(). The
runtime asks supports(node) for each node of the execution plan, partitions
the claimed nodes with the same partitioner C delegates get (greedy unless
experimental_disable_delegate_clustering), and replaces each partition by a
DELEGATE node whose kernel is create_kernel(partition):

    class NumpyAdd(PythonDelegate):
        def supports(self, node):
            return (node.op_name == "ADD" and node.outputs[0]["dtype"] is np.float32
                    and node.builtin_options["activation"] == "NONE")
        def create_kernel(self, partition):
            return MyKernel(partition)   # prepare() (optional), invoke(inputs) -> outputs

invoke receives copies of the partition's input tensors (in partition.inputs
order, constants included) and returns one array per partition output, each
with that tensor's dtype and shape exactly. An exception in any method fails
the interpreter's construction, allocate_tensors or invoke with RuntimeError.
The delegate is static: its kernels prepare at construction with the shapes
known, and resizing an input re-applies it (supports/create_kernel again).
Tensors used only inside a partition get no memory from the runtime.
"""
from typing import Any, Dict, List, Optional

from . import _core, _params
from .interpreter import _details_of

__all__ = ["PythonDelegate", "Node", "Partition"]


def _tensor(record) -> Optional[Dict[str, Any]]:
    """get_tensor_details()'s dict plus "data": a constant's values, else None."""
    if record is None:
        return None
    index, info, data = record
    try:
        details = _details_of(index, info)
    except ValueError:  # a tensor without a type
        details = {"name": info[0], "index": index, "shape": info[2], "dtype": None}
    details["data"] = data
    return details


class Node:
    """One node of the plan, as supports() and Partition.nodes see it: index,
    op_name (as _get_ops_details), builtin_code, version, builtin_options,
    and inputs/outputs as tensor details (None for an omitted optional input).

    builtin_options is a dict of the op's TfLite*Params C struct (what a C
    delegate reads from node->builtin_data; tflite_fast/builtin_op_data.h),
    keyed by its field names: e.g. CONV_2D gives {"padding": "SAME",
    "stride_width": 1, "stride_height": 1, "activation": "RELU6",
    "dilation_width_factor": 1, "dilation_height_factor": 1,
    "quantized_bias_type": numpy.float32}. padding is "SAME", "VALID" or
    "UNKNOWN"; activation is "NONE", "RELU", "RELU_N1_TO_1", "RELU6",
    "TANH", "SIGN_BIT" or "SIGMOID"; TfLiteType fields are numpy types as
    in tensor details (None for NOTYPE); other enums are their C values;
    fixed arrays with a count (RESHAPE's shape, SQUEEZE's squeeze_dims, ...)
    are lists of their used entries. Ops without options (RELU, custom ops,
    DELEGATE nodes) give {}."""

    def __init__(self, record):
        self.index = record["index"]
        self.op_name = record["op_name"]
        self.builtin_code = record["builtin_code"]
        self.version = record["version"]
        self.builtin_options = _params.builtin_options(self.op_name, record["builtin_data"])
        self.inputs = [_tensor(r) for r in record["inputs"]]
        self.outputs = [_tensor(r) for r in record["outputs"]]

    def __repr__(self):
        return "Node(%d, %s)" % (self.index, self.op_name)


class Partition:
    """What one delegate node replaces: nodes in execution order, and the
    tensor details of its inputs and outputs (sorted by tensor index, as the
    runtime gives them to the kernel)."""

    def __init__(self, nodes: List[Node], inputs: List[Dict[str, Any]], outputs: List[Dict[str, Any]]):
        self.nodes = nodes
        self.inputs = inputs
        self.outputs = outputs


class PythonDelegate(_core.PythonDelegateBase):
    """Subclass and implement supports(node) and create_kernel(partition).

    max_delegated_partitions: delegate at most this many partitions, the
    largest (by node count) first; None for all. min_nodes_per_partition:
    partitions with fewer nodes stay on the CPU. Both as TFLite's
    SimpleDelegate options."""

    def __init__(self, max_delegated_partitions: Optional[int] = None, min_nodes_per_partition: int = 1):
        if max_delegated_partitions is not None and (
                not isinstance(max_delegated_partitions, int) or max_delegated_partitions < 1):
            raise ValueError("max_delegated_partitions must be None or an int >= 1, got %r"
                             % (max_delegated_partitions,))
        if not isinstance(min_nodes_per_partition, int) or min_nodes_per_partition < 1:
            raise ValueError("min_nodes_per_partition must be an int >= 1, got %r" % (min_nodes_per_partition,))
        self.max_delegated_partitions = max_delegated_partitions
        self.min_nodes_per_partition = min_nodes_per_partition
        self._records = None  # the plan's nodes while the runtime runs our Prepare

    def supports(self, node: Node) -> bool:
        raise NotImplementedError("PythonDelegate subclasses implement supports(node)")

    def create_kernel(self, partition: Partition):
        raise NotImplementedError("PythonDelegate subclasses implement create_kernel(partition)")

    # -- called by the C side (tflite_fast._core) --
    def _supports_record(self, record) -> bool:
        return bool(self.supports(Node(record)))

    def _select(self, partitions: List[List[int]]) -> List[int]:
        """The claimed nodes of the partitions the options keep."""
        keep = [p for p in partitions if len(p) >= self.min_nodes_per_partition]
        keep.sort(key=len, reverse=True)  # stable: equal sizes keep plan order
        if self.max_delegated_partitions is not None:
            keep = keep[:self.max_delegated_partitions]
        return [n for p in keep for n in p]

    def _make_kernel(self, node_records, input_records, output_records):
        return self.create_kernel(Partition([Node(r) for r in node_records],
                                            [_tensor(r) for r in input_records],
                                            [_tensor(r) for r in output_records]))
