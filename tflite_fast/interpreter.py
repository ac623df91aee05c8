"""The tflite_runtime / ai_edge_litert Interpreter API, on the tflite_fast C core.

Every method is a thin shim over tflite_fast._core (the Cython boundary);
invoke() is one C call that runs the whole plan with the GIL released.
Differences from tflite_runtime are deliberate and listed in README.md.
"""
from __future__ import annotations

import enum
import os
import sys
import warnings

# typing is ~half of this module's import time (issue 3: import <= 20 ms), and
# the annotations here are only for type checkers, which take this name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List

from . import _core

__all__ = ["Interpreter", "InterpreterWithCustomOps", "CustomOpResolver", "SignatureRunner", "OpResolverType",
           "load_delegate", "Delegate"]


@enum.unique
class OpResolverType(enum.Enum):
    """AUTO/BUILTIN/BUILTIN_WITHOUT_DEFAULT_DELEGATES select the default
    numerics (bit-exact with ai-edge-litert's default interpreter on x86);
    BUILTIN_REF selects the reference numerics (its reference kernels)."""

    AUTO = 0
    BUILTIN = 1
    BUILTIN_REF = 2
    BUILTIN_WITHOUT_DEFAULT_DELEGATES = 3


def _get_op_resolver_id(op_resolver_type=OpResolverType.AUTO):
    return {OpResolverType.AUTO: 1, OpResolverType.BUILTIN: 1, OpResolverType.BUILTIN_REF: 2,
            OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES: 3}.get(op_resolver_type)


class Delegate:
    """An external delegate library (tflite_plugin_create_delegate ABI)."""

    def __init__(self, library, options=None):
        import ctypes  # only delegates need it: kept off the import path
        import platform

        # The delegate must outlive every interpreter using it, which __del__
        # order guarantees only under CPython's reference counting.
        if platform.python_implementation() != "CPython":
            raise RuntimeError("external delegates need CPython (their lifetime follows "
                               "reference counting), not %s" % platform.python_implementation())
        c_str_array = ctypes.POINTER(ctypes.c_char_p)
        report_fn = ctypes.CFUNCTYPE(None, ctypes.c_char_p)
        lib = ctypes.pydll.LoadLibrary(library)
        for name, restype, argtypes in (
                ("tflite_plugin_create_delegate", ctypes.c_void_p,
                 [c_str_array, c_str_array, ctypes.c_int, report_fn]),
                ("tflite_plugin_destroy_delegate", None, [ctypes.c_void_p])):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        self._library = lib
        pairs = [(str(k).encode("utf-8"), str(v).encode("utf-8")) for k, v in (options or {}).items()]
        keys = (ctypes.c_char_p * len(pairs))(*(k for k, _ in pairs))
        values = (ctypes.c_char_p * len(pairs))(*(v for _, v in pairs))
        messages = []
        # Kept in a local for the whole call: ctypes frees the C thunk with it.
        report = report_fn(lambda msg: messages.append(msg.decode("utf-8", "replace") if msg else ""))
        self._delegate_ptr = lib.tflite_plugin_create_delegate(keys, values, len(pairs), report)
        if self._delegate_ptr is None:
            raise ValueError("".join(messages))

    def __del__(self):
        # Destroy once, even after a failed create (it gets NULL); quietly
        # nothing when the library or its symbols never loaded.
        lib, self._library = getattr(self, "_library", None), None
        destroy = getattr(lib, "tflite_plugin_destroy_delegate", None) if lib is not None else None
        if destroy is not None:
            destroy(getattr(self, "_delegate_ptr", None))

    def _get_native_delegate_pointer(self):
        return self._delegate_ptr


def load_delegate(library, options=None):
    try:
        return Delegate(library, options)
    except ValueError as e:
        raise ValueError("Failed to load delegate from {}\n{}".format(library, str(e)))


def _details(core, index: int, subgraph: int = 0) -> Dict[str, Any]:
    return _details_of(index, core._tensor_info(index, subgraph))


def _details_of(index: int, info) -> Dict[str, Any]:
    """get_tensor_details()'s dict from a core _tensor_info tuple."""
    name, ttype, shape, sig, quant, scales, zps, qdim, sparsity = info
    dtype = _core.np_type(ttype)
    if dtype is None:
        raise ValueError("Tensor %d has no type" % index)
    return {
        "name": name,
        "index": index,
        "shape": shape,
        "shape_signature": sig,
        "dtype": dtype,
        "quantization": quant,
        "quantization_parameters": {"scales": scales, "zero_points": zps,
                                    "quantized_dimension": qdim, "block_size": 0},
        "sparsity_parameters": sparsity if sparsity is not None else {},
    }


class Interpreter(_core.Interpreter):
    """Interpreter(model_path=None, model_content=None, ...) as in ai_edge_litert 2.3.

    A subclass of the Cython core, so the round trip (set_tensor, invoke,
    get_tensor) is one C-level method call each, with no Python frame between."""

    # Older code (and SignatureRunner) reach the core as `_interpreter`: it is
    # this object (a property, not an attribute, to avoid a reference cycle).
    _interpreter = property(lambda self: self)

    def __init__(self, model_path=None, model_content=None, experimental_delegates=None,
                 num_threads=None, experimental_op_resolver_type=OpResolverType.AUTO,
                 experimental_preserve_all_tensors=False,
                 experimental_disable_delegate_clustering=False,
                 experimental_default_delegate_latest_features=False,
                 experimental_compress_quantization_zero_points=False,
                 experimental_disable_delegate_node_fusion=False,
                 experimental_force_delegate_node_profiling=False):
        if not isinstance(experimental_op_resolver_type, OpResolverType):
            raise ValueError("Unrecognized passed in op resolver type: {}".format(experimental_op_resolver_type))
        if num_threads is not None:
            if not isinstance(num_threads, int):
                raise ValueError("type of num_threads should be int")
            if num_threads < 1:
                raise ValueError("num_threads should >= 1")
        if experimental_preserve_all_tensors and experimental_op_resolver_type in (
                OpResolverType.AUTO, OpResolverType.BUILTIN):
            warnings.warn("Warning: Enabling `experimental_preserve_all_tensors` with the BUILTIN or "
                          "AUTO op resolver is intended for debugging purposes only. Be aware that "
                          "this can significantly increase memory usage by storing all intermediate "
                          "tensors.", UserWarning)
        numerics = (_core.NUMERICS_REF if experimental_op_resolver_type == OpResolverType.BUILTIN_REF
                    else _core.NUMERICS_DEFAULT)
        threads = int(num_threads or 1)
        preserve = bool(experimental_preserve_all_tensors)
        if model_path and not model_content:
            self._open_file(os.fspath(model_path), numerics, threads, preserve)
        elif model_content and not model_path:
            if not isinstance(model_content, bytes):
                model_content = bytes(model_content)
            self._model_content = model_content
            self._open_bytes(model_content, numerics, threads, preserve)
        elif not model_path and not model_content:
            raise ValueError("`model_path` or `model_content` must be specified.")
        else:
            raise ValueError("Can't both provide `model_path` and `model_content`")
        self._add_custom_ops()  # before delegates: they must see resolved nodes
        # Applied in list order; kept so they outlive the interpreter (__del__).
        self._delegates = list(experimental_delegates or [])
        for delegate in self._delegates:
            self._interpreter._apply_delegate(delegate._get_native_delegate_pointer(),
                                             not experimental_disable_delegate_clustering,
                                             not experimental_disable_delegate_node_fusion)

    def _add_custom_ops(self):
        """InterpreterWithCustomOps resolves its custom ops here."""

    def __del__(self):
        self._close()  # the C interpreter goes before the delegates it uses
        self._delegates = None

    # -- lifecycle --
    def allocate_tensors(self):
        self._interpreter._allocate(0)

    def _ensure_safe(self):
        if self._interpreter._exports > 0:
            raise RuntimeError(_core._HELD_VIEW)

    def _safe_to_run(self):
        return self._interpreter._exports == 0

    # -- details --
    def _get_tensor_details(self, tensor_index, subgraph_index):
        return _details(self._interpreter, int(tensor_index), int(subgraph_index))

    def get_input_details(self):
        return [_details(self._interpreter, i) for i in self._interpreter._inputs(0)]

    def get_output_details(self):
        return [_details(self._interpreter, i) for i in self._interpreter._outputs(0)]

    def get_tensor_details(self, subgraph_index=0):
        n = self.num_subgraphs()
        if subgraph_index < 0 or subgraph_index >= n:
            raise ValueError("subgraph_index is out of range: {} for the model, which has {} subgraphs."
                             .format(subgraph_index, n))
        out = []
        for i in range(self._interpreter._num_tensors(subgraph_index)):
            try:
                out.append(_details(self._interpreter, i, subgraph_index))
            except ValueError:
                pass
        return out

    def num_subgraphs(self):
        return self._interpreter._num_subgraphs()

    # -- tensors --
    # The core converts indices with int(), as these shims used to.
    def tensor(self, tensor_index):
        core = self._interpreter
        return lambda: core._tensor_view(int(tensor_index), 0)

    def resize_tensor_input(self, input_index, tensor_size, strict=False):
        self._ensure_safe()
        import numpy as np  # loaded by the interpreter already

        dims = np.array(tensor_size, dtype=np.int32).reshape(-1).tolist()
        self._interpreter._resize_input(int(input_index), dims, bool(strict), 0)

    def reset_all_variables(self):
        self._interpreter._reset_variables()

    # -- ops --
    def _get_op_details(self, op_index):
        core = self._interpreter
        if not 0 <= op_index < core._num_nodes(0):
            raise ValueError("Invalid node index")
        name, inputs, outputs, _, _, kernel = core._node(int(op_index), 0)

        def types(idx):
            return [_core.np_type(core._tensor_info(int(i), 0)[1]) for i in idx if i >= 0]

        details = {"index": op_index, "op_name": name, "inputs": inputs, "outputs": outputs,
                   "operand_types": types(inputs), "result_types": types(outputs)}
        if kernel:  # tflite_fast extension: the microkernel prepare chose
            details["kernel"] = kernel
        return details

    def _get_ops_details(self):
        return [self._get_op_details(i) for i in range(self._interpreter._num_nodes(0))]

    # -- signatures --
    def _get_full_signature_list(self):
        return {key: {"inputs": dict(ins), "outputs": dict(outs)}
                for key, _, ins, outs in self._interpreter._signatures()}

    def get_signature_list(self):
        return {key: {"inputs": [n for n, _ in ins], "outputs": [n for n, _ in outs]}
                for key, _, ins, outs in self._interpreter._signatures()}

    def get_signature_runner(self, signature_key=None):
        if signature_key is None:
            # Read here, not kept from __init__: construction is on the init-time budget.
            defs = self.get_signature_list()
            if len(defs) != 1:
                raise ValueError(
                    "SignatureDef signature_key is None and model has {0} Signatures. None is only "
                    "allowed when the model has 1 SignatureDef".format(len(defs)))
            signature_key = next(iter(defs))
        return SignatureRunner(interpreter=self, signature_key=signature_key)

    # -- tflite_fast extensions --
    @property
    def arena_bytes(self) -> int:
        """Size of the activation arena planned by the last allocate_tensors()."""
        return int(self._interpreter._arena_bytes(0))

    def memory_plan(self) -> List[Dict[str, int]]:
        """Per planned tensor: tensor, offset, size, first_step, last_step."""
        return self._interpreter._memory_plan(0)

    def _native_handle(self):
        return id(self._interpreter)


class CustomOpResolver:
    """What a Python registerer receives: add_custom(name, op) where op is the
    address (int) of a C TfLiteRegistration, or a Python factory called with
    the node's custom options (bytes) that returns an object with
    invoke(*inputs) -> output array(s) and optionally prepare(inputs) ->
    output shapes (inputs are (shape, dtype) pairs; None keeps the model's)."""

    def __init__(self):
        self.ops = []

    def add_custom(self, name: str, op) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError("custom op name must be a non-empty str, got %r" % (name,))
        if not isinstance(op, int) and not callable(op):
            raise ValueError("custom op %s: expected a registration address (int) or a factory, "
                             "got %r" % (name, op))
        self.ops.append((name, op))


def _load_registerer(spec: str):
    """'[NAME=]path/to/lib.so:symbol' -> (NAME or None, registration address).
    symbol is `const TfLiteRegistration* symbol(void)`."""
    import ctypes

    name, _, target = spec.rpartition("=") if "=" in spec.split(":", 1)[0] else (None, "", spec)
    path, sep, symbol = target.rpartition(":")
    if not sep or not path or not symbol:
        raise ValueError("custom op registerer %r: tflite_fast takes '[NAME=]path/to/lib.so:symbol' "
                         "(a C function returning a TfLiteRegistration*) or a Python callable; "
                         "C++ op-resolver registerers are not supported" % spec)
    try:
        lib = ctypes.CDLL(path)
        fn = getattr(lib, symbol)
    except (OSError, AttributeError) as e:
        raise ValueError("custom op registerer %r: %s" % (spec, e)) from None
    fn.restype, fn.argtypes = ctypes.c_void_p, []
    address = fn()
    if not address:
        raise ValueError("custom op registerer %r returned NULL" % spec)
    return name or None, address, lib


class InterpreterWithCustomOps(Interpreter):
    """Interpreter(...) plus custom ops. Each registerer is either a string
    '[NAME=]path/to/lib.so:symbol' naming a C function that returns a
    TfLiteRegistration* (NAME defaults to the registration's custom_name), or
    a Python callable taking a CustomOpResolver."""

    def __init__(self, custom_op_registerers=None, **kwargs):
        self._custom_op_registerers = list(custom_op_registerers or [])
        self._custom_libs = []  # the loaded libraries live as long as the interpreter
        super().__init__(**kwargs)

    def _add_custom_ops(self):
        for registerer in self._custom_op_registerers:
            if isinstance(registerer, str):
                name, address, lib = _load_registerer(registerer)
                self._custom_libs.append(lib)
                self._register_custom_c(name, address)
            elif callable(registerer):
                resolver = CustomOpResolver()
                registerer(resolver)
                for name, op in resolver.ops:
                    if isinstance(op, int):
                        self._register_custom_c(name, op)
                    else:
                        self._register_custom_py(name, op)
            else:
                raise ValueError("custom op registerer must be a str or a callable, got %r"
                                 % (registerer,))


class SignatureRunner:
    """Runs one signature: runner(**inputs) -> {output_name: array}."""

    def __init__(self, interpreter=None, signature_key=None):
        if not interpreter:
            raise ValueError("None interpreter provided.")
        if not signature_key:
            raise ValueError("None signature_key provided.")
        self._interpreter = interpreter
        self._signature_key = signature_key
        for key, subgraph, ins, outs in interpreter._interpreter._signatures():
            if key == signature_key:
                self._subgraph_index = subgraph
                self._inputs = ins
                self._outputs = outs
                break
        else:
            raise ValueError('Invalid signature_key provided: "{}".'.format(signature_key))

    def __call__(self, **kwargs):
        if len(kwargs) != len(self._inputs):
            raise ValueError("Invalid number of inputs provided for running a SignatureDef, expected {} vs provided {}"
                             .format(len(self._inputs), len(kwargs)))
        core = self._interpreter._interpreter
        sg = self._subgraph_index
        index = dict(self._inputs)
        for name, value in kwargs.items():
            if name not in index:
                raise ValueError("Invalid Input name ({}) for SignatureDef".format(name))
            core._resize_input(index[name], list(value.shape), False, sg)
        core._allocate(sg)
        for name, value in kwargs.items():
            core.set_tensor(index[name], value, sg)
        core.invoke(sg)
        return {name: core.get_tensor(t, sg) for name, t in self._outputs}

    def get_input_details(self):
        core = self._interpreter._interpreter
        return {name: _details(core, t, self._subgraph_index) for name, t in self._inputs}

    def get_output_details(self):
        core = self._interpreter._interpreter
        return {name: _details(core, t, self._subgraph_index) for name, t in self._outputs}
