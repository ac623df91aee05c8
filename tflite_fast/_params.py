"""A node's builtin options for Python delegates: the TfLite*Params C struct
the runtime parsed into node->builtin_data (csrc/runtime/builtin_options.c),
which is what a C delegate reads, decoded into a dict named by the struct's
fields. The layouts follow tflite_fast/builtin_op_data.h (C natural alignment,
which struct's "@" mode reproduces)."""
import ctypes
import struct
from typing import Any, Dict

from . import _core

# Field kinds: struct codes, plus "pad" / "act" (TfLitePadding /
# TfLiteFusedActivation, given by name), "type" (a TfLiteType, given as the
# numpy type tensor details use), "str" (const char*), and pointers
# "floats" / "bytes" whose length is the field named in _COUNTS.
_PAD = "pad"
_ACT = "act"
_PADDINGS = {0: "UNKNOWN", 1: "SAME", 2: "VALID"}
_ACTIVATIONS = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT",
                6: "SIGMOID"}
_CODES = {_PAD: "i", _ACT: "i", "type": "i", "str": "P", "floats": "P", "bytes": "P"}

# array or pointer field -> the field holding its length
_COUNTS = {"shape": "num_dimensions", "squeeze_dims": "num_squeeze_dims",
           "boundaries": "num_boundaries", "attributes": "attributes_size",
           "update_window_dims": "num_update_window_dims",
           "inserted_window_dims": "num_inserted_window_dims",
           "scatter_dims_to_operand_dims": "num_scatter_dims_to_operand_dims",
           "offset_dims": "num_offset_dims", "collapsed_slice_dims": "num_collapsed_slice_dims",
           "start_index_map": "num_start_index_map", "slice_sizes": "num_slice_sizes",
           "branch_subgraph_indices": "num_branches"}


def _fields(spec: str):
    """'name:kind ...' -> [(name, kind)]; kind defaults to i (int)."""
    return [tuple(f.split(":")) if ":" in f else (f, "i") for f in spec.split()]


_CONV = _fields("padding:pad stride_width stride_height activation:act dilation_width_factor "
                "dilation_height_factor quantized_bias_type:type")
_POOL = _fields("padding:pad stride_width stride_height filter_width filter_height activation:act")
_ACT_ONLY = _fields("activation:act")
_ACT_POT = _fields("activation:act pot_scale_int16:?")
_RESIZE = _fields("align_corners:? half_pixel_centers:?")
_STABLEHLO_GATHER = _fields(
    "offset_dims:8q num_offset_dims collapsed_slice_dims:8q num_collapsed_slice_dims "
    "start_index_map:8q num_start_index_map index_vector_dim:q slice_sizes:8q num_slice_sizes "
    "indices_are_sorted:?")

_STRUCTS = {
    "ADD": _ACT_POT, "SUB": _ACT_POT, "MUL": _ACT_ONLY, "DIV": _ACT_ONLY,
    "L2_NORMALIZATION": _ACT_ONLY,
    "AVERAGE_POOL_2D": _POOL, "MAX_POOL_2D": _POOL, "L2_POOL_2D": _POOL,
    "CONV_2D": _CONV,
    "CONV_3D": _fields("padding:pad stride_width stride_height stride_depth dilation_width_factor "
                       "dilation_height_factor dilation_depth_factor activation:act"),
    "DEPTHWISE_CONV_2D": _fields("padding:pad stride_width stride_height depth_multiplier "
                                 "activation:act dilation_width_factor dilation_height_factor"),
    "TRANSPOSE_CONV": _fields("padding:pad stride_width stride_height activation:act "
                              "quantized_bias_type:type"),
    "FULLY_CONNECTED": _fields("activation:act weights_format keep_num_dims:? "
                               "asymmetric_quantize_inputs:? quantized_bias_type:type"),
    "CONCATENATION": _fields("axis activation:act"),
    "SOFTMAX": _fields("beta:f"),
    "LOCAL_RESPONSE_NORMALIZATION": _fields("radius bias:f alpha:f beta:f"),
    "RESHAPE": _fields("shape:8i num_dimensions"),
    "SQUEEZE": _fields("squeeze_dims:8i num_squeeze_dims"),
    "STRIDED_SLICE": _fields("begin_mask end_mask ellipsis_mask new_axis_mask shrink_axis_mask "
                             "offset:?"),
    "PACK": _fields("values_count axis"), "UNPACK": _fields("num axis"),
    "SPLIT": _fields("num_splits"), "SPLIT_V": _fields("num_splits"),
    "GATHER": _fields("axis batch_dims"),
    "SHAPE": _fields("out_type:type"), "CAST": _fields("in_data_type:type out_data_type:type"),
    "ARG_MAX": _fields("output_type:type"), "ARG_MIN": _fields("output_type:type"),
    "RESIZE_BILINEAR": _RESIZE, "RESIZE_NEAREST_NEIGHBOR": _RESIZE,
    "LEAKY_RELU": _fields("alpha:f"), "MIRROR_PAD": _fields("mode"),
    "DEPTH_TO_SPACE": _fields("block_size"), "SPACE_TO_DEPTH": _fields("block_size"),
    "LSTM": _fields("activation:act cell_clip:f proj_clip:f kernel_type "
                    "asymmetric_quantize_inputs:?"),
    "UNIDIRECTIONAL_SEQUENCE_LSTM": _fields("activation:act cell_clip:f proj_clip:f time_major:? "
                                            "asymmetric_quantize_inputs:? "
                                            "diagonal_recurrent_tensors:?"),
    "BIDIRECTIONAL_SEQUENCE_LSTM": _fields("activation:act cell_clip:f proj_clip:f merge_outputs:? "
                                           "time_major:? asymmetric_quantize_inputs:?"),
    "RNN": _fields("activation:act asymmetric_quantize_inputs:?"),
    "UNIDIRECTIONAL_SEQUENCE_RNN": _fields("time_major:? activation:act "
                                           "asymmetric_quantize_inputs:?"),
    "BIDIRECTIONAL_SEQUENCE_RNN": _fields("time_major:? activation:act merge_outputs:? "
                                          "asymmetric_quantize_inputs:?"),
    "SVDF": _fields("rank activation:act asymmetric_quantize_inputs:?"),
    "LSH_PROJECTION": _fields("type"), "EMBEDDING_LOOKUP_SPARSE": _fields("combiner"),
    "SKIP_GRAM": _fields("ngram_size max_skip_size include_all_ngrams:?"),
    "SPARSE_TO_DENSE": _fields("validate_indices:?"),
    "FAKE_QUANT": _fields("min:f max:f num_bits narrow_range:?"),
    "ONE_HOT": _fields("axis"), "UNIQUE": _fields("index_out_type:type"),
    "REVERSE_SEQUENCE": _fields("seq_dim batch_dim"),
    "IF": _fields("then_subgraph_index else_subgraph_index"),
    "WHILE": _fields("cond_subgraph_index body_subgraph_index"),
    "CALL_ONCE": _fields("init_subgraph_index"),
    "BATCH_MATMUL": _fields("adj_x:? adj_y:? asymmetric_quantize_inputs:?"),
    "CUMSUM": _fields("exclusive:? reverse:?"),
    "HASHTABLE": _fields("table_id key_dtype:type value_dtype:type"),
    "VAR_HANDLE": _fields("container:str shared_name:str"),
    "MULTINOMIAL": _fields("seed seed2"), "RANDOM_STANDARD_NORMAL": _fields("seed seed2"),
    "RANDOM_UNIFORM": _fields("seed seed2"),
    "BUCKETIZE": _fields("num_boundaries boundaries:floats"),
    "GELU": _fields("approximate:?"),
    "STABLEHLO_SCATTER": _fields(
        "indices_are_sorted:? update_window_dims:8q num_update_window_dims "
        "inserted_window_dims:8q num_inserted_window_dims scatter_dims_to_operand_dims:8q "
        "num_scatter_dims_to_operand_dims index_vector_dim:q unique_indices:? "
        "update_computation_subgraph_index"),
    "STABLEHLO_GATHER": _STABLEHLO_GATHER,
    "STABLEHLO_RNG_BIT_GENERATOR": _fields("algorithm"),
    "STABLEHLO_REDUCE_WINDOW": _fields("window_dimensions:8q window_strides:8q base_dilations:8q "
                                       "window_dilations:8q padding:16q body_subgraph_index"),
    "REDUCE_WINDOW": _fields("reduce_function"),
    "STABLEHLO_PAD": _fields("edge_padding_low:8q edge_padding_high:8q interior_padding:8q"),
    "STABLEHLO_COMPOSITE": _fields("name:str subgraph_index version attributes:bytes "
                                   "attributes_size:N"),
    "STABLEHLO_CASE": _fields("branch_subgraph_indices:20i num_branches:I"),
}
for _reducer in ("MEAN", "SUM", "REDUCE_PROD", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_ANY",
                 "REDUCE_ALL"):
    _STRUCTS[_reducer] = _fields("keep_dims:?")
_STRUCTS["CONV_3D_TRANSPOSE"] = _STRUCTS["CONV_3D"]

_FORMATS = {op: "@" + "".join(_CODES.get(kind, kind) for _, kind in fields)
            for op, fields in _STRUCTS.items()}


def builtin_options(op_name: str, address: int) -> Dict[str, Any]:
    """The params struct at `address` (node->builtin_data) of an op_name
    node as {field: value}; {} for ops without one (or no data)."""
    fields = _STRUCTS.get(op_name)
    if fields is None or not address:
        return {}
    fmt = _FORMATS[op_name]
    flat = list(struct.unpack(fmt, ctypes.string_at(address, struct.calcsize(fmt))))
    raw = {}
    for name, kind in fields:
        n = int(kind[:-1]) if kind[:-1].isdigit() else 1
        raw[name] = flat[:n] if n > 1 else flat[0]
        del flat[:n]
    out = {}
    for name, kind in fields:
        v = raw[name]
        if kind == _PAD:
            v = _PADDINGS.get(v, v)
        elif kind == _ACT:
            v = _ACTIVATIONS.get(v, v)
        elif kind == "type":
            v = _core.np_type(v)
        elif kind == "str":
            v = ctypes.string_at(v).decode("utf-8", "replace") if v else None
        elif kind == "floats":
            count = max(0, raw[_COUNTS[name]]) if v else 0
            v = list(struct.unpack("%df" % count, ctypes.string_at(v, 4 * count))) if count else []
        elif kind == "bytes":
            v = ctypes.string_at(v, raw[_COUNTS[name]]) if v else b""
        elif name in _COUNTS:  # a fixed array: its used prefix
            v = v[:max(0, min(len(v), raw[_COUNTS[name]]))]
        elif kind == "?":
            v = bool(v)
        out[name] = v
    return out
