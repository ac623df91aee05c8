"""Build small .tflite models in tests.

The schema classes come from ``ai_edge_litert.schema_py_generated`` (imported, never
copied); this module only fills its object API and serialises it with ``flatbuffers``.

    from model_builder import ModelBuilder, S
    b = ModelBuilder()
    x = b.tensor('x', [1, 8, 8, 3], np.int8, scale=0.5, zero_point=-3)
    w = b.const('w', weights, scale=[...], zero_point=[...], quantized_dimension=0)
    y = b.tensor('y', [1, 8, 8, 4], np.int8, scale=0.25, zero_point=1)
    b.op('CONV_2D', [x, w, bias], [y], version=3, padding=S.Padding.SAME,
         strideW=1, strideH=1, dilationWFactor=1, dilationHFactor=1)
    b.inputs([x]); b.outputs([y])
    model_bytes = b.build()

Option kwargs are attribute names of the op's ``<X>OptionsT`` class; an unknown name is
a ``TypeError`` so a typo cannot silently leave an option at its default. ``-1`` in an
input list marks an omitted optional input.
"""

import flatbuffers
import numpy as np

import ai_edge_litert.schema_py_generated as S

__all__ = ["ModelBuilder", "S", "options_class", "tensor_type", "BUILTIN_CODES"]

BUILTIN_CODES = {k: v for k, v in vars(S.BuiltinOperator).items() if not k.startswith("_")}
_OPTIONS1 = {k: v for k, v in vars(S.BuiltinOptions).items() if not k.startswith("_") and v}
_OPTIONS2 = {k: v for k, v in vars(S.BuiltinOptions2).items() if not k.startswith("_") and v}

# Ops whose options table does not follow the CONV_2D -> Conv2DOptions naming rule.
_OPTIONS_OVERRIDES = {
    "AVERAGE_POOL_2D": "Pool2DOptions",
    "MAX_POOL_2D": "Pool2DOptions",
    "L2_POOL_2D": "Pool2DOptions",
    "L2_NORMALIZATION": "L2NormOptions",
    "UNIDIRECTIONAL_SEQUENCE_RNN": "SequenceRNNOptions",
    "MEAN": "ReducerOptions",
    "SUM": "ReducerOptions",
    "REDUCE_PROD": "ReducerOptions",
    "REDUCE_MAX": "ReducerOptions",
    "REDUCE_MIN": "ReducerOptions",
    "REDUCE_ANY": "ReducerOptions",
    "REDUCE_ALL": "ReducerOptions",
    "MAXIMUM": "MaximumMinimumOptions",
    "MINIMUM": "MaximumMinimumOptions",
    "CONV_3D_TRANSPOSE": "Conv3DOptions",
    "RANDOM_STANDARD_NORMAL": "RandomOptions",
    "RANDOM_UNIFORM": "RandomOptions",
    "MULTINOMIAL": "RandomOptions",
}


def _norm(s):
    return s.replace("_", "").lower()


_BY_NORM1 = {_norm(k[: -len("Options")]): k for k in _OPTIONS1}
_BY_NORM2 = {_norm(k[: -len("Options")]): k for k in _OPTIONS2}


def options_class(op_name):
    """(union_number, 1 or 2, OptionsT class) for a builtin op, or None if it has no options."""
    if op_name in _OPTIONS_OVERRIDES:
        name = _OPTIONS_OVERRIDES[op_name]
        return _OPTIONS1[name], 1, getattr(S, name + "T")
    key = _norm(op_name)
    if key in _BY_NORM1:
        name = _BY_NORM1[key]
        return _OPTIONS1[name], 1, getattr(S, name + "T")
    if key in _BY_NORM2:
        name = _BY_NORM2[key]
        return _OPTIONS2[name], 2, getattr(S, name + "T")
    return None


_NP_TO_TFL = {
    np.dtype(np.float32): "FLOAT32",
    np.dtype(np.float16): "FLOAT16",
    np.dtype(np.float64): "FLOAT64",
    np.dtype(np.int8): "INT8",
    np.dtype(np.uint8): "UINT8",
    np.dtype(np.int16): "INT16",
    np.dtype(np.uint16): "UINT16",
    np.dtype(np.int32): "INT32",
    np.dtype(np.uint32): "UINT32",
    np.dtype(np.int64): "INT64",
    np.dtype(np.uint64): "UINT64",
    np.dtype(np.bool_): "BOOL",
    np.dtype(np.complex64): "COMPLEX64",
    np.dtype(np.complex128): "COMPLEX128",
    np.dtype(np.bytes_): "STRING",
    np.dtype(np.object_): "STRING",
}


_TFL_TO_NP = {getattr(S.TensorType, n): d for d, n in _NP_TO_TFL.items() if n != "STRING"}


def tensor_type(dtype):
    """TensorType number for a numpy dtype-like or a TensorType name ('INT4', 'RESOURCE')."""
    if isinstance(dtype, str) and dtype.upper() in vars(S.TensorType):
        return getattr(S.TensorType, dtype.upper())
    if isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool):
        return int(dtype)
    return getattr(S.TensorType, _NP_TO_TFL[np.dtype(dtype)])


def _as_list(v, cast):
    if v is None:
        return None
    if np.ndim(v) == 0:
        return [cast(v)]
    return [cast(e) for e in np.asarray(v).ravel()]


class _AlignedBufferT(S.BufferT):
    """BufferT whose data vector starts on a 16-byte boundary, as the converter writes it
    (schema: `data:[ubyte] (force_align: 16)`); kernels may read weights as int32/float."""

    def Pack(self, builder):
        data = None
        if self.data is not None:
            raw = bytes(self.data)
            builder.StartVector(1, len(raw), 16)
            builder.head = builder.head - len(raw)
            builder.Bytes[builder.head : builder.head + len(raw)] = raw
            builder.vectorNumElems = len(raw)
            data = builder.EndVector()
        S.BufferStart(builder)
        if data is not None:
            S.BufferAddData(builder, data)
        S.BufferAddOffset(builder, self.offset)
        S.BufferAddSize(builder, self.size)
        return S.BufferEnd(builder)


def _pack_int4(values):
    """Two signed 4-bit values per byte, first value in the low nibble (TFLite's INT4 layout)."""
    v = np.asarray(values).astype(np.int8).ravel()
    if v.size and (v.min() < -8 or v.max() > 7):
        raise ValueError("INT4 constant out of range [-8, 7]")
    if v.size % 2:
        v = np.append(v, np.int8(0))
    u = (v.astype(np.uint8) & 0x0F)
    return (u[0::2] | (u[1::2] << 4)).astype(np.uint8).tobytes()


class ModelBuilder:
    def __init__(self, description="tflite_fast test model"):
        self._model = S.ModelT()
        self._model.version = 3
        self._model.description = description
        self._model.buffers = [_AlignedBufferT()]  # buffer 0: the empty sentinel
        self._model.operatorCodes = []
        self._model.subgraphs = []
        self._model.signatureDefs = []
        self._opcode_index = {}
        self.new_subgraph()

    # -- subgraphs ---------------------------------------------------------------

    def new_subgraph(self, name=None):
        """Append a subgraph and make it current; returns its index."""
        sg = S.SubGraphT()
        sg.tensors, sg.operators, sg.inputs, sg.outputs = [], [], [], []
        if name is not None:
            sg.name = name
        self._model.subgraphs.append(sg)
        self._sg = sg
        return len(self._model.subgraphs) - 1

    def use_subgraph(self, index):
        self._sg = self._model.subgraphs[index]

    # -- tensors -----------------------------------------------------------------

    def _quant(self, scale, zero_point, quantized_dimension):
        if scale is None:
            if zero_point is not None:
                raise ValueError("zero_point given without scale")
            return None
        q = S.QuantizationParametersT()
        q.scale = _as_list(scale, float)
        q.zeroPoint = _as_list(zero_point, int) if zero_point is not None else [0] * len(q.scale)
        q.quantizedDimension = int(quantized_dimension)
        return q

    def tensor(self, name, shape, dtype, scale=None, zero_point=None, quantized_dimension=0,
               shape_signature=None, is_variable=False, buffer=0):
        t = S.TensorT()
        t.name = name
        t.shape = [int(d) for d in shape]
        t.type = tensor_type(dtype)
        t.buffer = buffer
        t.quantization = self._quant(scale, zero_point, quantized_dimension)
        if shape_signature is not None:
            t.shapeSignature = [int(d) for d in shape_signature]
        t.isVariable = bool(is_variable)
        self._sg.tensors.append(t)
        return len(self._sg.tensors) - 1

    def buffer(self, data):
        """Add a buffer holding `data` (bytes-like); returns its index."""
        buf = _AlignedBufferT()
        buf.data = bytes(data)
        self._model.buffers.append(buf)
        return len(self._model.buffers) - 1

    def const(self, name, array, scale=None, zero_point=None, quantized_dimension=0, dtype=None):
        """Constant tensor with the array's bytes. `dtype` overrides the array's dtype
        ('INT4' packs two values per byte)."""
        array = np.asarray(array)
        ttype = tensor_type(array.dtype if dtype is None else dtype)
        if ttype == S.TensorType.INT4:
            raw = _pack_int4(array)
        else:
            if dtype is not None and ttype in _TFL_TO_NP:
                array = array.astype(_TFL_TO_NP[ttype])
            raw = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        idx = self.tensor(name, array.shape, ttype, scale=scale, zero_point=zero_point,
                          quantized_dimension=quantized_dimension, buffer=self.buffer(raw))
        return idx

    def sparse_const(self, name, shape, values, traversal_order, dim_metadata, block_map=None,
                     scale=None, zero_point=None, quantized_dimension=0):
        """Constant sparse tensor of dense `shape` storing `values` (the kept elements in
        traversal order). dim_metadata: one entry per level, an int for a DENSE level (its
        dense_size) or (segments, indices, index_dtype) for a SPARSE_CSR level, index_dtype
        np.int32, np.uint16 or np.uint8 (the SparseIndexVector type)."""
        values = np.asarray(values)
        idx = self.const(name, values.ravel(), scale=scale, zero_point=zero_point,
                         quantized_dimension=quantized_dimension)
        t = self._sg.tensors[idx]
        t.shape = [int(d) for d in shape]
        sp = S.SparsityParametersT()
        sp.traversalOrder = [int(d) for d in traversal_order]
        if block_map is not None:
            sp.blockMap = [int(d) for d in block_map]
        vector = {np.int32: (S.SparseIndexVector.Int32Vector, S.Int32VectorT),
                  np.uint16: (S.SparseIndexVector.Uint16Vector, S.Uint16VectorT),
                  np.uint8: (S.SparseIndexVector.Uint8Vector, S.Uint8VectorT)}
        sp.dimMetadata = []
        for level in dim_metadata:
            dm = S.DimensionMetadataT()
            if isinstance(level, (int, np.integer)):
                dm.format, dm.denseSize = S.DimensionType.DENSE, int(level)
            else:
                segments, indices, index_dtype = level
                dm.format = S.DimensionType.SPARSE_CSR
                kind, cls = vector[index_dtype]
                dm.arraySegmentsType, dm.arraySegments = kind, cls()
                dm.arraySegments.values = [int(v) for v in segments]
                dm.arrayIndicesType, dm.arrayIndices = kind, cls()
                dm.arrayIndices.values = [int(v) for v in indices]
            sp.dimMetadata.append(dm)
        t.sparsity = sp
        return idx

    # -- operators ---------------------------------------------------------------

    def _opcode(self, builtin, custom_code, version):
        key = (builtin, custom_code, version)
        if key not in self._opcode_index:
            oc = S.OperatorCodeT()
            oc.builtinCode = builtin
            oc.deprecatedBuiltinCode = min(builtin, S.BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES)
            oc.customCode = custom_code
            oc.version = version
            self._model.operatorCodes.append(oc)
            self._opcode_index[key] = len(self._model.operatorCodes) - 1
        return self._opcode_index[key]

    def op(self, name, inputs, outputs, version=1, custom_code=None, custom_options=None,
           intermediates=None, **options):
        """Append an operator to the current subgraph; returns its node index."""
        o = S.OperatorT()
        o.inputs = [int(i) for i in inputs]
        o.outputs = [int(i) for i in outputs]
        if intermediates is not None:
            o.intermediates = [int(i) for i in intermediates]
        if custom_code is not None:
            if options:
                raise TypeError("custom ops take custom_options bytes, not option kwargs")
            o.opcodeIndex = self._opcode(S.BuiltinOperator.CUSTOM, custom_code, version)
            if custom_options is not None:
                o.customOptions = list(bytes(custom_options))
        else:
            if name not in BUILTIN_CODES:
                raise ValueError(f"unknown builtin op {name!r} (pass custom_code= for custom ops)")
            o.opcodeIndex = self._opcode(BUILTIN_CODES[name], None, version)
            oc = options_class(name)
            if oc is None:
                if options:
                    raise TypeError(f"{name} has no options table, got {sorted(options)}")
            else:
                number, which, cls = oc
                opt = cls()
                for k, v in options.items():
                    if not hasattr(opt, k):
                        known = sorted(a for a in vars(opt))
                        raise TypeError(f"{cls.__name__} has no attribute {k!r}; known: {known}")
                    setattr(opt, k, v)
                if which == 1:
                    o.builtinOptionsType, o.builtinOptions = number, opt
                else:
                    o.builtinOptions2Type, o.builtinOptions2 = number, opt
        self._sg.operators.append(o)
        return len(self._sg.operators) - 1

    def inputs(self, indices):
        self._sg.inputs = [int(i) for i in indices]

    def outputs(self, indices):
        self._sg.outputs = [int(i) for i in indices]

    def signature(self, key, inputs, outputs, subgraph_index=0):
        """Add a SignatureDef mapping names to tensor indices of `subgraph_index`."""
        def maps(d):
            out = []
            for n, i in d.items():
                m = S.TensorMapT()
                m.name = n
                m.tensorIndex = int(i)
                out.append(m)
            return out

        sd = S.SignatureDefT()
        sd.signatureKey = key
        sd.inputs = maps(inputs)
        sd.outputs = maps(outputs)
        sd.subgraphIndex = subgraph_index
        self._model.signatureDefs.append(sd)

    def metadata(self, name, data):
        """Add a model metadata entry `name` (e.g. "TFLITE_METADATA") holding `data`
        in a new buffer; returns the buffer index."""
        m = S.MetadataT()
        m.name = name
        m.buffer = self.buffer(data)
        if self._model.metadata is None:
            self._model.metadata = []
        self._model.metadata.append(m)
        return m.buffer

    # -- serialisation -----------------------------------------------------------

    def model(self):
        """The ModelT object, for tests that want to tamper with it before build()."""
        return self._model

    def build(self):
        fb = flatbuffers.Builder(1024)
        fb.Finish(self._model.Pack(fb), file_identifier=b"TFL3")
        return bytes(fb.Output())
