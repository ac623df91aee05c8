# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""The one C/Python boundary: owns the C interpreter, turns tff_status into
Python exceptions in one place (_raise), and runs invoke without the GIL.

No numpy headers are used, so one build works with numpy 1.x and 2.x and
ARM cross-builds need no target numpy: tensors move through the buffer
protocol, except on the lean round trip (below), which reads the few parts of
numpy's C ABI that both major versions freeze, each checked at load.

Free-threaded Python (3.13t/3.14t): the module declares it needs no GIL.
What the GIL used to serialize is guarded explicitly: the lazy numpy set-up
runs once under _NP_LOCK; one interpreter admits one caller at a time
(tff_interpreter_claim, an atomic compare-and-swap in C); held tensor() views
are counted under the interpreter's critical section, the same one that
covers the check-then-move of allocate and resize. Everything else
module-level is written once at import.
"""
cimport cython
from cpython.buffer cimport PyBUF_ANY_CONTIGUOUS, PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBUF_FORMAT, PyObject_GetBuffer, PyBuffer_Release
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.object cimport PyObject
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset, strcmp

from _capi cimport *

NUMERICS_DEFAULT = TFF_NUMERICS_DEFAULT
NUMERICS_REF = TFF_NUMERICS_REF

# numpy is imported when the first interpreter is built, not at import: it is
# the bulk of `import tflite_fast.interpreter` (issue 3: <= 20 ms), and every
# use below is a method of an interpreter.
cdef object np = None
cdef cython.pymutex _NP_LOCK  # _load_numpy runs once, whichever thread comes first
cdef dict _NP_TYPES = None   # TfLiteType -> numpy type (api.md §1.5)
cdef dict _TYPE_NAMES = None  # numpy dtype -> TfLiteType name, for set_tensor's message

# Lean round trip (set_tensor/get_tensor on tiny models cost more than invoke):
# per TfLiteType, the numpy dtype get_tensor copies into (None: not copyable)
# and the buffer-protocol format char set_tensor accepts without numpy calls
# (0: always take the general path). Indexed by type; types >= _NTYPES have none.
cdef enum:
    _NTYPES = 32
cdef list _COPY_DTYPES = [None] * _NTYPES
cdef char _SET_FORMAT[_NTYPES]
cdef object _ndarray = None
cdef object _empty = None
cdef size_t _ITEMSIZE[_NTYPES]  # bytes per element of _COPY_DTYPES[type]

# The lean round trip (issue 3: tiny models are bound by set_tensor/get_tensor,
# where np.empty and a buffer export cost more than invoke) reads numpy's C ABI
# directly, without numpy's headers. Used are only parts numpy keeps
# ABI-stable from 1.x to 2.x: the PyArrayObject prefix that PyArray_DATA/NDIM/
# DIMS/FLAGS/DESCR read, the PyArray_Descr prefix up to type_num, and slot 94
# of the _ARRAY_API capsule (PyArray_NewFromDescr). _probe_np_abi checks each
# against numpy's Python-level view at load; any disagreement turns the fast
# paths off (_NP_ABI = False) and the buffer protocol does everything.
cdef extern from *:
    """
    typedef struct {
      PyObject_HEAD
      PyTypeObject* typeobj;
      char kind, type, byteorder, flags_v1;
      int type_num;
    } tff_np_descr;
    typedef struct {
      PyObject_HEAD
      char* data;
      int nd;
      Py_ssize_t* dims;
      Py_ssize_t* strides;
      PyObject* base;
      tff_np_descr* descr;
      int flags;
      PyObject* weakreflist;
    } tff_np_array;
    /* An array get_tensor returned, kept to be refilled by the next call
       (see Interpreter._recent) with the flags it was made with. */
    typedef struct {
      PyObject* arr;
      int flags;
    } tff_recent;
    /* Whether a kept array is exactly as made and unseen: the cache holds the
       only reference (no variable, view, buffer export or container has it),
       no weak reference, same dtype object, flags, shape and C strides, owns
       its data. Then refilling it in place is indistinguishable from a new
       array. Free-threaded builds never reuse: there a reference count read
       from another thread proves nothing. */
    static int tff_np_reusable(const tff_recent* r, PyObject* descr, int nd,
                               const int* dims, Py_ssize_t itemsize, size_t bytes) {
    #ifdef Py_GIL_DISABLED
      return 0;
    #else
      const tff_np_array* a = (const tff_np_array*)r->arr;
      int i;
      if (Py_REFCNT(r->arr) != 1 || a->flags != r->flags || (PyObject*)a->descr != descr ||
          a->nd != nd || a->base != NULL || a->weakreflist != NULL)
        return 0;
      for (i = nd - 1; i >= 0; --i) {
        if (a->dims[i] != dims[i] || a->strides[i] != itemsize) return 0;
        itemsize *= dims[i];
      }
      return (size_t)itemsize == bytes;
    #endif
    }
    typedef PyObject* (*tff_np_new_fn)(PyObject* subtype, PyObject* descr, int nd,
                                       const Py_ssize_t* dims, const Py_ssize_t* strides,
                                       void* data, int flags, PyObject* obj);
    #define TFF_NP_C_CONTIGUOUS 0x0001
    #define TFF_NP_SLOT_NEW_FROM_DESCR 94
    """
    ctypedef struct tff_np_descr:
        char byteorder
        int type_num
    ctypedef struct tff_np_array:
        char* data
        int nd
        Py_ssize_t* dims
        Py_ssize_t* strides
        PyObject* base
        tff_np_descr* descr
        int flags
        PyObject* weakreflist
    ctypedef struct tff_recent:
        PyObject* arr
        int flags
    bint tff_np_reusable(const tff_recent* r, PyObject* descr, int nd, const int* dims,
                         Py_ssize_t itemsize, size_t bytes)
    # Returns a new reference (NULL with an exception set); steals the descr.
    ctypedef object (*tff_np_new_fn)(PyObject*, PyObject*, int, const Py_ssize_t*,
                                     const Py_ssize_t*, void*, int, PyObject*)
    int TFF_NP_C_CONTIGUOUS
    int TFF_NP_SLOT_NEW_FROM_DESCR

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_GetName

cdef bint _NP_ABI = False
cdef tff_np_new_fn _np_new = NULL
cdef int _NP_TYPENUM[_NTYPES]  # dtype.num of _COPY_DTYPES[type], -1: none
cdef enum:
    _FAST_RANK = 16  # deeper tensors take the general path
    _RECENT_MAX = 65536  # bytes: get_tensor keeps arrays up to this size for reuse


def _np_abi_in_use():
    """Whether the lean round trip reads numpy's C ABI (False: the probe
    disagreed or no interpreter has loaded numpy yet)."""
    return _NP_ABI


cdef bint _np_native(tff_np_descr* d):
    # '=' native, '|' not applicable (1-byte types); '<'/'>' only when swapped
    # or spelled out, which the general path sorts out.
    return d.byteorder == b'=' or d.byteorder == b'|'


cdef bint _probe_np_abi(object numpy) except -1:
    """Whether the declarations above match this numpy, checked on live arrays."""
    global _np_new
    import weakref
    if int(numpy.__version__.split(".")[0]) >= 2:
        from numpy._core import _multiarray_umath as m
    else:
        from numpy.core import _multiarray_umath as m
    capsule = getattr(m, "_ARRAY_API", None)
    if capsule is None:
        return False
    cdef void** api = <void**>PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule))
    if api == NULL:
        return False
    _np_new = <tff_np_new_fn>api[TFF_NP_SLOT_NEW_FROM_DESCR]
    cdef tff_np_array* a
    cdef Py_ssize_t dims[3]
    cdef int i
    for shape, dt, order in (((3, 5), "float32", "C"), ((7,), "int8", "C"), ((2, 3), "int16", "F"),
                             ((), "float64", "C"), ((4,), ">i4", "C")):
        x = numpy.empty(shape, dtype=dt, order=order)
        v = x[...]  # a view: its base is x
        a = <tff_np_array*>x
        if (a.nd != x.ndim or tuple(a.dims[i] for i in range(a.nd)) != x.shape
                or a.descr.type_num != x.dtype.num
                or bool(a.flags & TFF_NP_C_CONTIGUOUS) != x.flags.c_contiguous
                or _np_native(a.descr) != x.dtype.isnative
                or <size_t>a.data != x.__array_interface__["data"][0]
                or tuple(a.strides[i] for i in range(a.nd)) != x.strides or a.base != NULL
                or (<tff_np_array*>v).base != <PyObject*>x or a.weakreflist != NULL):
            return False
        w = weakref.ref(x)
        if a.weakreflist == NULL:
            return False
        del w
        if a.weakreflist != NULL:
            return False
        if order == "C" and x.dtype.isnative:
            for i in range(a.nd):
                dims[i] = a.dims[i]
            dtype = x.dtype
            Py_INCREF(dtype)  # NewFromDescr steals a reference
            y = _np_new(<PyObject*>numpy.ndarray, <PyObject*>dtype, a.nd, dims, NULL, NULL, 0, NULL)
            if type(y) is not numpy.ndarray or y.shape != x.shape or y.dtype != x.dtype \
                    or not y.flags.c_contiguous or not y.flags.writeable:
                return False
    return True


cdef _ensure_numpy():
    """The lock, not a bare `np is None` test: a thread that sees np set must
    also see every table _load_numpy filled (the lock orders the memory)."""
    with _NP_LOCK:
        if np is None:
            _load_numpy()


cdef _load_numpy():
    global np, _NP_TYPES, _TYPE_NAMES, _ndarray, _empty, _NP_ABI
    import numpy
    # Packed/opaque types map to their storage type or object.
    _NP_TYPES = {
        0: None, 1: numpy.float32, 2: numpy.int32, 3: numpy.uint8, 4: numpy.int64,
        5: numpy.bytes_, 6: numpy.bool_, 7: numpy.int16, 8: numpy.complex64, 9: numpy.int8,
        10: numpy.float16, 11: numpy.float64, 12: numpy.complex128, 13: numpy.uint64,
        14: numpy.object_, 15: numpy.object_, 16: numpy.uint32, 17: numpy.uint16, 18: numpy.int8,
        20: numpy.int8, 21: numpy.uint8, 22: numpy.int8, 23: numpy.int8,
    }
    _TYPE_NAMES = {}
    cdef int ti
    for ti in range(_NTYPES):
        _SET_FORMAT[ti] = 0
        _ITEMSIZE[ti] = 0
        _NP_TYPENUM[ti] = -1
    for ti, t in _NP_TYPES.items():
        if t is not None and t is not numpy.object_ and t is not numpy.bytes_:
            dt = numpy.dtype(t)
            _COPY_DTYPES[ti] = dt
            _ITEMSIZE[ti] = dt.itemsize
            _NP_TYPENUM[ti] = dt.num
            if dt.kind in "biuf":
                _SET_FORMAT[ti] = ord(dt.char)
            if ti < 18:  # the real types, not the packed ones sharing a dtype
                _TYPE_NAMES[dt] = _s(TfLiteTypeGetName(ti))
    _ndarray = numpy.ndarray
    _empty = numpy.empty
    _NP_ABI = _probe_np_abi(numpy)
    np = numpy


_BUSY = ("Interpreter is in use by another thread (invoke() or a call that changes it is "
         "running there); an interpreter serves one thread at a time: create one per thread")

_HELD_VIEW = ("There is at least 1 reference to internal data\n"
              "      in the interpreter in the form of a numpy array or slice. Be sure to\n"
              "      only hold the function returned from tensor() if you are using raw\n"
              "      data access.")


def np_type(int ttype):
    """The numpy type of a TfLiteType (None for NOTYPE and unknown codes)."""
    _ensure_numpy()
    return _NP_TYPES.get(ttype)

cdef str _s(const char* c):
    return "" if c == NULL else c.decode("utf-8", "replace")


cdef const char* _bad_isa = NULL
if tff_cpu_init(&_bad_isa) != 0:
    raise ImportError("TFLITE_FAST_DISABLE_ISA names an unknown ISA: %r (known: sse41, avx2, "
                      "avx512vnni, neon, neondot, all)" % _s(_bad_isa))


def _isa_list(unsigned int mask):
    cdef unsigned int b = 1
    out = []
    while b != 0:
        if mask & b:
            out.append(_s(tff_isa_name(b)))
        b <<= 1
    return out


def cpu_config():
    """(compiled, detected, effective) ISA name lists."""
    return (_isa_list(tff_cpu_compiled()), _isa_list(tff_cpu_detected()),
            _isa_list(tff_cpu_effective()))



cdef _raise(tff_status st, str msg):
    if st == TFF_STATUS_OUT_OF_MEMORY:
        raise MemoryError(msg or "out of memory")
    if st in (TFF_STATUS_INVALID_MODEL, TFF_STATUS_INVALID_ARGUMENT, TFF_STATUS_IO_ERROR):
        raise ValueError(msg)
    raise RuntimeError(msg)


cdef object _int_array(const TfLiteIntArray* a):
    if a == NULL:
        return np.zeros(0, dtype=np.int32)
    out = np.empty(a.size, dtype=np.int32)
    cdef int i
    for i in range(a.size):
        out[i] = a.data[i]
    return out


cdef object _copy_out(TfLiteTensor* t, int idx):
    """A fresh numpy array holding a copy of tensor t (index idx, for messages)."""
    dt = _COPY_DTYPES[t.type] if 0 <= t.type < _NTYPES else None
    if t.data.raw == NULL or dt is None:
        if t.data.raw == NULL:
            raise ValueError("Tensor data is null. Run allocate_tensors() first")
        raise ValueError("Cannot read tensor %d of type %s" % (idx, _s(TfLiteTypeGetName(t.type))))
    cdef int rank = t.dims.size if t.dims != NULL else 0
    cdef int i
    cdef size_t nbytes = _ITEMSIZE[t.type]
    cdef Py_ssize_t dims[_FAST_RANK]
    if _NP_ABI and rank <= _FAST_RANK:
        for i in range(rank):
            dims[i] = t.dims.data[i]
            nbytes *= <size_t>t.dims.data[i]
        if nbytes == t.bytes:
            Py_INCREF(dt)  # NewFromDescr steals a reference
            out = _np_new(<PyObject*>_ndarray, <PyObject*>dt, rank, dims, NULL, NULL, 0, NULL)
            memcpy((<tff_np_array*>out).data, t.data.raw, t.bytes)
            return out
    cdef object d  # an object: SET_ITEM steals the reference INCREF adds
    shape = PyTuple_New(rank)
    for i in range(rank):
        d = t.dims.data[i]
        Py_INCREF(d)
        PyTuple_SET_ITEM(shape, i, d)
    out = _empty(shape, dt)
    cdef Py_buffer view
    PyObject_GetBuffer(out, &view, PyBUF_ANY_CONTIGUOUS | PyBUF_WRITABLE)
    try:
        if <size_t>view.len != t.bytes:
            raise ValueError("Tensor %d holds %d bytes, expected %d" % (idx, t.bytes, view.len))
        memcpy(view.buf, t.data.raw, t.bytes)
    finally:
        PyBuffer_Release(&view)
    return out


cdef tuple _tensor_info_of(TfLiteTensor* t):
    """Interpreter._tensor_info's tuple for tensor t."""
    cdef TfLiteAffineQuantization* q = NULL
    cdef int i
    shape = _int_array(t.dims)
    sig = _int_array(t.dims_signature) if t.dims_signature != NULL else shape.copy()
    scales = np.zeros(0, dtype=np.float32)
    zps = np.zeros(0, dtype=np.int32)
    qdim = 0
    if t.quantization.type == kTfLiteAffineQuantization and t.quantization.params != NULL:
        q = <TfLiteAffineQuantization*>t.quantization.params
        if q.scale != NULL:
            scales = np.empty(q.scale.size, dtype=np.float32)
            for i in range(q.scale.size):
                scales[i] = q.scale.data[i]
        if q.zero_point != NULL:
            zps = _int_array(q.zero_point)
        qdim = q.quantized_dimension
    sparsity = None
    if t.sparsity != NULL:
        sparsity = _sparsity_of(t.sparsity)
    return (_s(t.name), t.type, shape, sig, (float(t.params.scale), int(t.params.zero_point)),
            scales, zps, qdim, sparsity)


cdef dict _sparsity_of(TfLiteSparsity* s):
    out = {}
    if s.traversal_order != NULL:
        out["traversal_order"] = _int_array(s.traversal_order)
    if s.block_map != NULL:
        out["block_map"] = _int_array(s.block_map)
    dims = []
    cdef int i
    for i in range(s.dim_metadata_size):
        m = s.dim_metadata[i]
        if m.format == 0:
            dims.append({"format": 0, "dense_size": m.dense_size})
        else:
            dims.append({"format": 1, "array_segments": _int_array(m.array_segments),
                         "array_indices": _int_array(m.array_indices)})
    out["dim_metadata"] = dims
    return out


cdef class TensorBuffer:
    """Exports one tensor's bytes; counts live exports so the interpreter can
    refuse to move memory while numpy views exist (the tensor() rule)."""
    cdef Interpreter owner
    cdef char* ptr
    cdef Py_ssize_t nbytes
    cdef bint readonly
    cdef Py_ssize_t shape[1]

    def __getbuffer__(self, Py_buffer* view, int flags):
        if self.readonly and (flags & PyBUF_WRITABLE):
            raise BufferError("constant tensor is read-only")
        self.shape[0] = self.nbytes
        view.buf = self.ptr
        view.obj = self
        view.len = self.nbytes
        view.readonly = self.readonly
        view.itemsize = 1
        view.format = NULL
        if flags & PyBUF_FORMAT:
            view.format = b"B"
        view.ndim = 1
        view.shape = self.shape
        view.strides = NULL
        view.suboffsets = NULL
        view.internal = NULL
        with cython.critical_section(self.owner):
            self.owner._exports += 1

    def __releasebuffer__(self, Py_buffer* view):
        with cython.critical_section(self.owner):
            self.owner._exports -= 1


cdef class Interpreter:
    cdef tff_interpreter* it
    cdef object model_bytes  # model_content is used in place: keep it alive
    cdef public int _exports
    # Per tensor of subgraph 0: the array get_tensor last returned (small
    # tensors only), refilled by the next call if the caller let it go. A
    # round trip of a tiny model then allocates nothing: numpy's array
    # allocation and release cost more than the invoke.
    cdef tff_recent* _recent
    cdef size_t _nrecent

    def __cinit__(self):
        self.it = NULL
        self._exports = 0
        self._recent = NULL
        self._nrecent = 0

    def __dealloc__(self):
        self._drop_recent()
        if self.it != NULL:
            tff_interpreter_destroy(self.it)
            self.it = NULL

    def _open_file(self, path, int numerics, int num_threads, bint preserve):
        self._check_unopened()
        _ensure_numpy()
        cdef bytes p = path.encode("utf-8") if isinstance(path, str) else bytes(path)
        cdef char err[4096]
        err[0] = 0
        cdef tff_status st = tff_interpreter_create_from_file(p, numerics, num_threads, preserve,
                                                              &self.it, err, sizeof(err))
        if st != TFF_OK:
            _raise(st, _s(err))

    def _open_bytes(self, bytes content, int numerics, int num_threads, bint preserve):
        self._check_unopened()
        _ensure_numpy()
        cdef char err[4096]
        err[0] = 0
        self.model_bytes = content
        cdef tff_status st = tff_interpreter_create(<const uint8_t*>PyBytes_AS_STRING(content),
                                                    <size_t>PyBytes_GET_SIZE(content), numerics,
                                                    num_threads, preserve, &self.it, err, sizeof(err))
        if st != TFF_OK:
            _raise(st, _s(err))

    cdef _check_unopened(self):
        if self.it != NULL:
            raise RuntimeError("the interpreter is already open")

    cdef _drop_recent(self):
        cdef size_t i
        if self._recent != NULL:
            for i in range(self._nrecent):
                Py_XDECREF(self._recent[i].arr)
            free(self._recent)
            self._recent = NULL

    def _close(self):
        """Destroys the C interpreter now (the facade's __del__: before its delegates go)."""
        self._drop_recent()
        if self.it != NULL:
            self._claim()
            tff_interpreter_destroy(self.it)
            self.it = NULL

    cdef _fail(self, tff_status st):
        _raise(st, _s(tff_interpreter_error(self.it)))

    # The helpers of the per-call paths (set_tensor, invoke, get_tensor) are
    # final: direct C calls the compiler can inline, not calls through the vtable.
    @cython.final
    cdef _check_safe(self):
        if self._exports > 0:
            raise RuntimeError(_HELD_VIEW)

    # One thread at a time (tff_interpreter_claim): invoke and every call that
    # changes the interpreter claim it; tensor reads and writes only check,
    # with no Python code between the check and the copy, so under the GIL
    # they cannot overlap an invoke that another thread claims meanwhile.
    @cython.final
    cdef int _claim(self) except -1:
        if not tff_interpreter_claim(self.it):
            raise RuntimeError(_BUSY)
        return 0

    @cython.final
    cdef int _check_idle(self) except -1:
        if tff_interpreter_busy(self.it):
            raise RuntimeError(_BUSY)
        return 0

    @cython.final
    cdef int _sg(self, int subgraph) except -1:
        if self.it == NULL:
            raise ValueError("the interpreter has no model (Interpreter.__init__ did not run or failed)")
        cdef int n = tff_interpreter_num_subgraphs(self.it)
        if subgraph < 0 or subgraph >= n:
            # TFLite's wording, which names the subgraph count as the max index.
            raise ValueError("Invalid subgraph index %d exceeds max subgraph index %d" % (subgraph, n))
        return subgraph

    @cython.final
    cdef TfLiteTensor* _tensor(self, int index, int subgraph) except NULL:
        cdef TfLiteContext* ctx = tff_interpreter_context(self.it, self._sg(subgraph))
        self._check_idle()
        if index < 0 or <size_t>index >= ctx.tensors_size:
            raise ValueError("Invalid tensor index %d exceeds max tensor index %d" % (index, ctx.tensors_size))
        return &ctx.tensors[index]

    # ---- graph ----
    def _num_subgraphs(self):
        return tff_interpreter_num_subgraphs(self.it)

    def _num_tensors(self, int subgraph=0):
        return tff_interpreter_context(self.it, self._sg(subgraph)).tensors_size

    def _inputs(self, int subgraph=0):
        return [int(x) for x in _int_array(tff_subgraph_inputs(self.it, self._sg(subgraph)))]

    def _outputs(self, int subgraph=0):
        return [int(x) for x in _int_array(tff_subgraph_outputs(self.it, self._sg(subgraph)))]

    @cython.critical_section
    def _allocate(self, int subgraph=0):
        self._check_safe()
        cdef int sg = self._sg(subgraph)
        cdef tff_status st
        self._claim()
        try:
            st = tff_interpreter_allocate(self.it, sg)
            if st != TFF_OK:
                self._fail(st)
        finally:
            tff_interpreter_release(self.it)

    def _is_allocated(self, int subgraph=0):
        return bool(tff_interpreter_is_allocated(self.it, self._sg(subgraph)))

    def invoke(self, int subgraph_index=0):
        self._check_safe()
        cdef int sg = self._sg(subgraph_index)
        cdef tff_status st
        self._claim()
        with nogil:
            st = tff_interpreter_invoke(self.it, sg)
        if st != TFF_OK:
            msg = _s(tff_interpreter_error(self.it))  # before another thread may claim
        tff_interpreter_release(self.it)
        if st != TFF_OK:
            _raise(st, msg)

    @cython.critical_section
    def _resize_input(self, int index, dims, bint strict, int subgraph=0):
        self._check_safe()
        self._sg(subgraph)
        cdef int rank = len(dims)
        cdef int* d = <int*>malloc(sizeof(int) * (rank if rank > 0 else 1))
        cdef int i
        cdef tff_status st
        try:
            for i in range(rank):
                d[i] = dims[i]
            self._claim()
            try:
                st = tff_interpreter_resize_input(self.it, subgraph, index, d, rank, strict)
                if st != TFF_OK:
                    _raise(TFF_STATUS_PREPARE_FAILED if st == TFF_STATUS_INVALID_ARGUMENT else st,
                           _s(tff_interpreter_error(self.it)))
            finally:
                tff_interpreter_release(self.it)
        finally:
            free(d)

    def _reset_variables(self):
        self._sg(0)
        self._claim()
        tff_interpreter_reset_variables(self.it)
        tff_interpreter_release(self.it)

    # ---- tensors ----
    def _tensor_info(self, int index, int subgraph=0):
        """(name, type, shape, shape_signature, (scale, zp), scales, zero_points,
        quantized_dimension, sparsity or None)."""
        return _tensor_info_of(self._tensor(index, subgraph))

    def get_tensor(self, tensor_index, subgraph_index=0):
        # Indices go through int() like the facade always did (int(2.0) works);
        # exact ints skip the call.
        cdef int idx = tensor_index if type(tensor_index) is int else int(tensor_index)
        cdef int sg = subgraph_index if type(subgraph_index) is int else int(subgraph_index)
        cdef TfLiteTensor* t = self._tensor(idx, sg)
        if (sg == 0 and _NP_ABI and 0 < t.bytes <= _RECENT_MAX and t.data.raw != NULL
                and 0 <= t.type < _NTYPES and _ITEMSIZE[t.type] != 0):
            return self._copy_out_recent(t, idx)
        return _copy_out(t, idx)

    @cython.final
    cdef object _copy_out_recent(self, TfLiteTensor* t, int idx):
        """_copy_out through _recent[idx] (idx is a valid index of subgraph 0)."""
        if self._recent == NULL:
            self._nrecent = tff_interpreter_context(self.it, 0).tensors_size
            self._recent = <tff_recent*>calloc(self._nrecent, sizeof(tff_recent))
            if self._recent == NULL:
                raise MemoryError("out of memory")
        cdef tff_recent* r = &self._recent[idx]
        if (r.arr != NULL and t.dims != NULL and tff_np_reusable(
                r, <PyObject*>_COPY_DTYPES[t.type], t.dims.size, t.dims.data, _ITEMSIZE[t.type], t.bytes)):
            memcpy((<tff_np_array*>r.arr).data, t.data.raw, t.bytes)
            return <object>r.arr
        out = _copy_out(t, idx)
        Py_XDECREF(r.arr)
        Py_INCREF(out)
        r.arr = <PyObject*>out
        r.flags = (<tff_np_array*>r.arr).flags
        return out

    def _tensor_view(self, int index, int subgraph=0):
        cdef TfLiteTensor* t = self._tensor(index, subgraph)
        dt = _NP_TYPES.get(t.type)
        if t.data.raw == NULL:
            raise ValueError("Tensor data is null. Run allocate_tensors() first")
        if dt is None or dt is np.object_ or dt is np.bytes_:
            raise ValueError("Cannot view tensor %d of type %s" % (index, _s(TfLiteTypeGetName(t.type))))
        cdef TensorBuffer b = TensorBuffer.__new__(TensorBuffer)
        b.owner = self
        b.ptr = t.data.raw
        b.nbytes = t.bytes
        b.readonly = t.allocation_type == kTfLiteMmapRo
        return np.frombuffer(b, dtype=dt).reshape(tuple(_int_array(t.dims).tolist()))

    @cython.final
    cdef bint _set_fast(self, TfLiteTensor* t, object value) except -1:
        """Copies a C-contiguous native-order ndarray whose format and shape
        already match t; returns 0 (nothing done) for every other case, which
        the general path then accepts, converts or rejects with its message."""
        if (t.data.raw == NULL or t.allocation_type == kTfLiteMmapRo or t.dims == NULL
                or t.type < 0 or t.type >= _NTYPES or _SET_FORMAT[t.type] == 0):
            return 0
        cdef tff_np_array* a
        cdef int i
        cdef size_t nbytes
        if _NP_ABI:
            a = <tff_np_array*>value
            if (a.descr.type_num != _NP_TYPENUM[t.type] or not _np_native(a.descr)
                    or not (a.flags & TFF_NP_C_CONTIGUOUS) or a.nd != t.dims.size):
                return 0
            nbytes = _ITEMSIZE[t.type]
            for i in range(a.nd):
                if a.dims[i] != t.dims.data[i]:
                    return 0
                nbytes *= <size_t>a.dims[i]
            if nbytes != t.bytes:
                return 0
            memcpy(t.data.raw, a.data, t.bytes)
            return 1
        cdef Py_buffer view
        try:
            PyObject_GetBuffer(value, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
        except (BufferError, ValueError):  # numpy: "ndarray is not C-contiguous"
            return 0
        cdef bint ok = (view.format != NULL and view.format[0] == _SET_FORMAT[t.type]
                        and view.format[1] == 0 and view.ndim == t.dims.size
                        and <size_t>view.len == t.bytes)
        if ok:
            for i in range(view.ndim):
                if view.shape[i] != t.dims.data[i]:
                    ok = 0
                    break
        if ok:
            memcpy(t.data.raw, view.buf, t.bytes)
        PyBuffer_Release(&view)
        return ok

    def set_tensor(self, tensor_index, value, subgraph_index=0):
        cdef int index = tensor_index if type(tensor_index) is int else int(tensor_index)
        cdef int sg = subgraph_index if type(subgraph_index) is int else int(subgraph_index)
        cdef TfLiteTensor* t = self._tensor(index, sg)
        if type(value) is _ndarray and self._set_fast(t, value):
            return
        dt = _NP_TYPES.get(t.type)
        arr = np.asarray(value)
        if dt is None or arr.dtype != dt:
            raise ValueError(
                "Cannot set tensor: Got value of type %s but expected type %s for input %d, name: %s "
                % (_TYPE_NAMES.get(arr.dtype, "NOTYPE"), _s(TfLiteTypeGetName(t.type)), index, _s(t.name)))
        cdef int rank = t.dims.size
        if arr.ndim != rank:
            raise ValueError("Cannot set tensor: Dimension mismatch. Got %d but expected %d for input %d."
                             % (arr.ndim, rank, index))
        cdef int i
        for i in range(rank):
            if arr.shape[i] != t.dims.data[i]:
                raise ValueError("Cannot set tensor: Dimension mismatch. Got %d but expected %d for dimension %d of input %d."
                                 % (arr.shape[i], t.dims.data[i], i, index))
        if t.data.raw == NULL:
            raise ValueError("Cannot set tensor: Tensor is unallocated. Try calling allocate_tensors() first")
        if t.allocation_type == kTfLiteMmapRo:
            raise ValueError("Cannot set tensor: tensor %d is a constant of the model" % index)
        arr = np.ascontiguousarray(arr)
        cdef Py_buffer view
        PyObject_GetBuffer(arr, &view, PyBUF_ANY_CONTIGUOUS)
        try:
            if <size_t>view.len != t.bytes:
                raise ValueError("Cannot set tensor: got %d bytes but expected %d for input %d."
                                 % (view.len, t.bytes, index))
            memcpy(t.data.raw, view.buf, t.bytes)
        finally:
            PyBuffer_Release(&view)

    def _node_supported(self, int index, int subgraph=0):
        """Whether node `index` resolved to a kernel (a builtin tflite_fast
        implements, a registered custom op, or a delegate kernel)."""
        cdef TfLiteNode* node
        cdef TfLiteRegistration* reg
        if tff_subgraph_node(self.it, self._sg(subgraph), index, &node, &reg) != kTfLiteOk:
            raise ValueError("Invalid node index %d" % index)
        return reg.invoke != NULL

    # ---- custom ops (InterpreterWithCustomOps) ----
    def _register_custom_c(self, name, size_t registration):
        """Resolves custom op `name` (None: the registration's custom_name) to
        the TfLiteRegistration at address `registration`; returns its nodes."""
        cdef const TfLiteRegistration* reg = <const TfLiteRegistration*>registration
        if reg == NULL:
            raise ValueError("custom op registration is NULL")
        if name is None:
            if reg.custom_name == NULL:
                raise ValueError("the registration has no custom_name: name the op, as "
                                 "'NAME=path/to/lib.so:symbol'")
            name = _s(reg.custom_name)
        cdef bytes b = name.encode("utf-8")
        cdef int n = tff_interpreter_register_custom(self.it, b, reg)
        if n < 0:
            raise ValueError(_s(tff_interpreter_error(self.it)))
        return n

    def _register_custom_py(self, str name, factory):
        """Resolves custom op `name` to Python: factory(custom_options: bytes)
        makes each node's op object (invoke(*inputs), optional prepare)."""
        cdef bytes b = name.encode("utf-8")
        cdef int n = tff_interpreter_register_custom(self.it, b, &_PY_REG)
        if n < 0:
            raise ValueError(_s(tff_interpreter_error(self.it)))
        cdef TfLiteNode* node
        cdef TfLiteRegistration* reg
        cdef int s, i
        for s in range(tff_interpreter_num_subgraphs(self.it)):
            for i in range(tff_subgraph_num_nodes(self.it, s)):
                if tff_subgraph_node(self.it, s, i, &node, &reg) != kTfLiteOk:
                    continue
                if (reg.invoke != _PY_REG.invoke or reg.custom_name == NULL
                        or strcmp(reg.custom_name, b) != 0 or node.user_data != NULL):
                    continue
                op = factory((<const char*>node.custom_initial_data)[:node.custom_initial_data_size]
                             if node.custom_initial_data != NULL else b"")
                if not callable(getattr(op, "invoke", None)):
                    raise ValueError("custom op %s: the factory must return an object with an "
                                     "invoke(*inputs) method, got %r" % (name, op))
                Py_INCREF(op)
                node.user_data = <void*>op
        return n

    # ---- nodes, signatures, plan ----
    def _num_nodes(self, int subgraph=0):
        return tff_subgraph_num_nodes(self.it, self._sg(subgraph))

    def _node(self, int index, int subgraph=0):
        """(op_name, inputs, outputs, builtin_code, version, kernel): kernel is
        what the op's profiling_string names (the chosen ukernel) or ''."""
        cdef TfLiteNode* n
        cdef TfLiteRegistration* r
        cdef int sg = self._sg(subgraph)
        if tff_subgraph_node(self.it, sg, index, &n, &r) != kTfLiteOk:
            raise ValueError("Invalid node index")
        # delegate nodes show as DELEGATE (their custom_name only in error messages), as in LiteRT
        name = (_s(r.custom_name) if r.custom_name != NULL and r.builtin_code != 51
                else _s(tff_builtin_name(r.builtin_code)))
        kernel = ""
        if r.profiling_string != NULL and tff_interpreter_is_allocated(self.it, sg):
            kernel = _s(r.profiling_string(tff_interpreter_context(self.it, sg), n))
        return (name, _int_array(n.inputs), _int_array(n.outputs), r.builtin_code, r.version, kernel)

    def _delegate_partition(self, int index, int subgraph=0):
        """For a delegate node: (replaced nodes, inputs, outputs, address of
        its TfLiteDelegate), from its TfLiteDelegateParams; else None."""
        cdef TfLiteNode* n
        cdef TfLiteRegistration* r
        if tff_subgraph_node(self.it, self._sg(subgraph), index, &n, &r) != kTfLiteOk:
            raise ValueError("Invalid node index")
        if r.builtin_code != 51 or n.delegate == NULL or n.builtin_data == NULL:
            return None
        cdef TfLiteDelegateParams* p = <TfLiteDelegateParams*>n.builtin_data
        return ([int(x) for x in _int_array(p.nodes_to_replace)], [int(x) for x in _int_array(p.input_tensors)],
                [int(x) for x in _int_array(p.output_tensors)], <size_t>n.delegate)

    def _apply_delegate(self, size_t ptr, bint greedy=True, bint fuse=True):
        """ModifyGraphWithDelegate on every subgraph (ptr: a TfLiteDelegate*)."""
        self._sg(0)
        cdef tff_status st
        self._claim()
        try:
            st = tff_interpreter_apply_delegate(self.it, <void*>ptr, greedy, fuse)
            if st != TFF_OK:
                self._fail(st)
        finally:
            tff_interpreter_release(self.it)

    def _set_profiling(self, bint on):
        self._sg(0)
        self._claim()
        cdef tff_status st = tff_interpreter_set_profiling(self.it, on)
        tff_interpreter_release(self.it)
        if st != TFF_OK:
            _raise(st, "out of memory")

    def _profile(self, int subgraph=0):
        """[(node, op_name, total_ns, count)] for nodes that ran, timed in C."""
        cdef const uint64_t* ns = NULL
        cdef const uint64_t* count = NULL
        cdef int n = tff_interpreter_profile(self.it, self._sg(subgraph), &ns, &count)
        cdef int i
        return [(i, self._node(i, subgraph)[0], ns[i], count[i]) for i in range(n) if count[i] > 0]

    def _signatures(self):
        cdef const tff_model* m = tff_interpreter_model(self.it)
        cdef int i, k
        out = []
        for i in range(m.num_signatures):
            s = m.signatures[i]
            ins = [(_s(s.inputs[k].name), s.inputs[k].tensor) for k in range(s.num_inputs)]
            outs = [(_s(s.outputs[k].name), s.outputs[k].tensor) for k in range(s.num_outputs)]
            out.append((_s(s.key), s.subgraph, ins, outs))
        return out

    def _metadata(self):
        cdef const tff_model* m = tff_interpreter_model(self.it)
        cdef int i
        out = {}
        for i in range(m.num_metadata):
            data = b""
            if m.metadata[i].data != NULL and m.metadata[i].size > 0:
                data = (<const char*>m.metadata[i].data)[:m.metadata[i].size]
            out[_s(m.metadata[i].name)] = data
        return out

    def _arena_bytes(self, int subgraph=0):
        return tff_interpreter_arena_bytes(self.it, self._sg(subgraph))

    def _memory_plan(self, int subgraph=0):
        cdef int n = 0, i
        cdef const tff_plan_entry* e = tff_interpreter_memory_plan(self.it, self._sg(subgraph), &n)
        return [{"tensor": e[i].tensor, "offset": e[i].offset, "size": e[i].size,
                 "first_step": e[i].first_step, "last_step": e[i].last_step} for i in range(n)]


# ---- custom ops implemented in Python ----
# One registration serves every Python op: each node's user_data is its op
# object (a strong reference), made by the factory given to add_custom.
# invoke runs with the GIL (taken here; invoke() released it): Python custom
# ops are the one place Python runs inside invoke, by the user's choice.

cdef TfLiteStatus _py_fail(TfLiteContext* ctx, str what, e) noexcept:
    msg = ("%s: %s: %s" % (what, type(e).__name__, e)).encode("utf-8", "replace")
    ctx.ReportError(ctx, "%s", <const char*>msg)
    return kTfLiteError


cdef list _read_inputs(TfLiteContext* ctx, TfLiteNode* node):
    """Copies of node's inputs (None for an omitted optional one)."""
    return [None if node.inputs.data[k] < 0 else _copy_out(&ctx.tensors[node.inputs.data[k]], node.inputs.data[k])
            for k in range(node.inputs.size)]


cdef _write_outputs(TfLiteContext* ctx, TfLiteNode* node, outs):
    """Copies the values a Python invoke returned into node's outputs; each
    must have the output's dtype and shape exactly."""
    cdef TfLiteTensor* t
    cdef Py_buffer view
    if node.outputs.size == 1 and not isinstance(outs, (tuple, list)):
        outs = (outs,)
    if len(outs) != node.outputs.size:
        raise ValueError("invoke returned %d values for %d outputs" % (len(outs), node.outputs.size))
    for k, value in enumerate(outs):
        t = &ctx.tensors[node.outputs.data[k]]
        arr = np.ascontiguousarray(value)
        want = tuple([t.dims.data[i] for i in range(t.dims.size)])
        if arr.dtype != np_type(t.type) or arr.shape != want:
            raise ValueError("output %d must be %s %s (no implicit conversion), got %s %s"
                             % (k, np.dtype(np_type(t.type)).name, want, arr.dtype.name, arr.shape))
        PyObject_GetBuffer(arr, &view, PyBUF_ANY_CONTIGUOUS)
        try:
            memcpy(t.data.raw, view.buf, t.bytes)
        finally:
            PyBuffer_Release(&view)


cdef TfLiteStatus _py_prepare(TfLiteContext* ctx, TfLiteNode* node) noexcept with gil:
    if node.user_data == NULL:  # its factory failed at registration
        ctx.ReportError(ctx, "Python custom op: no op object")
        return kTfLiteError
    op = <object>node.user_data
    cdef TfLiteTensor* t
    cdef TfLiteIntArray* dims
    try:
        prepare = getattr(op, "prepare", None)
        if prepare is None:
            return kTfLiteOk
        ins = []
        for k in range(node.inputs.size):
            if node.inputs.data[k] < 0:
                ins.append(None)
                continue
            t = &ctx.tensors[node.inputs.data[k]]
            ins.append((tuple([t.dims.data[i] for i in range(t.dims.size)]), np_type(t.type)))
        shapes = prepare(ins)
        if shapes is None:
            return kTfLiteOk
        shapes = list(shapes)
        if len(shapes) != node.outputs.size:
            raise ValueError("prepare returned %d shapes for %d outputs" % (len(shapes), node.outputs.size))
        for k, shape in enumerate(shapes):
            shape = [int(d) for d in shape]
            if any(d < 0 for d in shape):
                raise ValueError("output %d: negative dimension in %s" % (k, shape))
            dims = TfLiteIntArrayCreate(len(shape))
            if dims == NULL:
                raise MemoryError()
            for i, d in enumerate(shape):
                dims.data[i] = d
            if ctx.ResizeTensor(ctx, &ctx.tensors[node.outputs.data[k]], dims) != kTfLiteOk:
                raise ValueError("output %d: cannot resize to %s" % (k, shape))
        return kTfLiteOk
    except Exception as e:
        return _py_fail(ctx, "Python custom op prepare", e)


cdef TfLiteStatus _py_invoke(TfLiteContext* ctx, TfLiteNode* node) noexcept with gil:
    if node.user_data == NULL:  # its factory failed at registration
        ctx.ReportError(ctx, "Python custom op: no op object")
        return kTfLiteError
    op = <object>node.user_data
    try:
        _write_outputs(ctx, node, op.invoke(*_read_inputs(ctx, node)))
        return kTfLiteOk
    except Exception as e:
        return _py_fail(ctx, "Python custom op invoke", e)


cdef void _py_free(TfLiteContext* ctx, void* buffer) noexcept with gil:
    Py_DECREF(<object>buffer)


cdef TfLiteRegistration _PY_REG
memset(&_PY_REG, 0, sizeof(_PY_REG))
_PY_REG.prepare = _py_prepare
_PY_REG.invoke = _py_invoke
_PY_REG.free = _py_free


# ---- delegates implemented in Python (tflite_fast.delegate.PythonDelegate) ----
# A real TfLiteDelegate: its Prepare asks the Python object which plan nodes
# it supports and hands them to the runtime's ReplaceNodeSubsetsWithDelegateKernels
# (the same partitioner as C delegates); each delegate node's user_data is the
# Python kernel (a strong reference) that init made. Static: the graph's
# shapes are known when kernels prepare, and a resize re-applies the delegate.

cdef tuple _tensor_record(TfLiteContext* ctx, int index):
    """(index, Interpreter._tensor_info tuple, copy of a constant's data or None)."""
    cdef TfLiteTensor* t = &ctx.tensors[index]
    data = None
    if (t.allocation_type == kTfLiteMmapRo and t.data.raw != NULL and 0 <= t.type < _NTYPES
            and _COPY_DTYPES[t.type] is not None):
        data = _copy_out(t, index)
    return (index, _tensor_info_of(t), data)


cdef dict _node_record(TfLiteContext* ctx, int index, TfLiteNode* n, TfLiteRegistration* r):
    name = (_s(r.custom_name) if r.custom_name != NULL and r.builtin_code != 51
            else _s(tff_builtin_name(r.builtin_code)))
    # builtin_data: the address of the TfLite*Params struct (tflite_fast._params
    # decodes it at once; it is valid while the delegate's Prepare runs)
    return {"index": index, "op_name": name, "builtin_code": r.builtin_code, "version": r.version,
            "builtin_data": <size_t>n.builtin_data if r.builtin_code != 51 else 0,
            "inputs": [None if n.inputs.data[k] < 0 else _tensor_record(ctx, n.inputs.data[k])
                       for k in range(n.inputs.size)],
            "outputs": [_tensor_record(ctx, n.outputs.data[k]) for k in range(n.outputs.size)]}


cdef TfLiteIntArray* _new_int_array(list values) except NULL:
    cdef TfLiteIntArray* a = TfLiteIntArrayCreate(len(values))
    if a == NULL:
        raise MemoryError()
    for k, v in enumerate(values):
        a.data[k] = v
    return a


cdef class PythonDelegateBase:
    """The C side of tflite_fast.delegate.PythonDelegate, which implements
    _supports_record(node_record) -> bool, _select(partitions) -> node
    indices and _make_kernel(nodes, input_records, output_records)."""
    cdef TfLiteDelegate d
    cdef bytes _kernel_name  # the delegate nodes' custom_name (error messages)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(self.d))
        self.d.data_ = <void*>self  # borrowed: the struct lives inside self
        self.d.Prepare = _pyd_prepare
        self._kernel_name = type(self).__name__.encode("utf-8")

    def _get_native_delegate_pointer(self):
        return <size_t>&self.d


cdef TfLiteStatus _pyd_prepare(TfLiteContext* ctx, TfLiteDelegate* d) noexcept with gil:
    cdef PythonDelegateBase self = <PythonDelegateBase>d.data_
    cdef TfLiteIntArray* plan
    cdef TfLiteNode* node
    cdef TfLiteRegistration* reg
    cdef TfLiteDelegateParams* parts
    cdef int nparts = 0
    cdef TfLiteIntArray* claimed = NULL
    cdef TfLiteRegistration r
    cdef TfLiteStatus st
    try:
        _ensure_numpy()
        if ctx.GetExecutionPlan(ctx, &plan) != kTfLiteOk:
            return kTfLiteError
        records = {}
        wanted = []
        for i in [plan.data[k] for k in range(plan.size)]:
            if ctx.GetNodeAndRegistration(ctx, i, &node, &reg) != kTfLiteOk:
                return kTfLiteError
            records[i] = _node_record(ctx, i, node, reg)
            if self._supports_record(records[i]):
                wanted.append(i)
        self._records = records
        if wanted:  # the options pick among the partitions the runtime would make
            claimed = _new_int_array(wanted)
            if ctx.PreviewDelegatePartitioning(ctx, claimed, &parts, &nparts) != kTfLiteOk:
                return kTfLiteError
            wanted = self._select([[parts[p].nodes_to_replace.data[k]
                                    for k in range(parts[p].nodes_to_replace.size)]
                                   for p in range(nparts)])
            TfLiteIntArrayFree(claimed)
            claimed = NULL
        claimed = _new_int_array(sorted(wanted))
        memset(&r, 0, sizeof(r))
        r.init = _pyd_init
        r.free = _py_free
        r.prepare = _pyd_kernel_prepare
        r.invoke = _pyd_invoke
        r.custom_name = self._kernel_name
        r.version = 1
        st = ctx.ReplaceNodeSubsetsWithDelegateKernels(ctx, r, claimed, d)
        return st
    except Exception as e:
        return _py_fail(ctx, "Python delegate %s.prepare" % type(self).__name__, e)
    finally:
        TfLiteIntArrayFree(claimed)
        self._records = None


cdef void* _pyd_init(TfLiteContext* ctx, const char* buffer, size_t length) noexcept with gil:
    cdef const TfLiteDelegateParams* p = <const TfLiteDelegateParams*>buffer
    self = <object>p.delegate.data_
    try:
        kernel = self._make_kernel(
            [self._records[p.nodes_to_replace.data[k]] for k in range(p.nodes_to_replace.size)],
            [_tensor_record(ctx, p.input_tensors.data[k]) for k in range(p.input_tensors.size)],
            [_tensor_record(ctx, p.output_tensors.data[k]) for k in range(p.output_tensors.size)])
        if not callable(getattr(kernel, "invoke", None)):
            raise ValueError("create_kernel must return an object with an invoke(inputs) method, "
                             "got %r" % (kernel,))
        Py_INCREF(kernel)
        return <void*>kernel
    except Exception as e:
        _py_fail(ctx, "Python delegate %s.create_kernel" % type(self).__name__, e)
        return TfLiteKernelInitFailed()


cdef TfLiteStatus _pyd_kernel_prepare(TfLiteContext* ctx, TfLiteNode* node) noexcept with gil:
    kernel = <object>node.user_data
    try:
        prepare = getattr(kernel, "prepare", None)
        if prepare is not None:
            prepare()
        return kTfLiteOk
    except Exception as e:
        return _py_fail(ctx, "Python delegate kernel prepare", e)


cdef TfLiteStatus _pyd_invoke(TfLiteContext* ctx, TfLiteNode* node) noexcept with gil:
    kernel = <object>node.user_data
    try:
        _write_outputs(ctx, node, kernel.invoke(_read_inputs(ctx, node)))
        return kTfLiteOk
    except Exception as e:
        return _py_fail(ctx, "Python delegate kernel invoke", e)
