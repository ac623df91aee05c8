/* The model reader: walks a .tflite FlatBuffer once, verifying every offset,
 * length and index it follows (fb.h), and builds the plain structs of
 * model.h. Semantics follow TFLite's InterpreterBuilder (quantization and
 * sparsity parsing, buffer rules, op option decoding in
 * builtin_options.c); where TFLite trusts the file (sparsity structure,
 * string tensor headers, signature tensor indices) the reader checks too, so
 * kernels may trust what it returns.
 *
 * Errors name the place: "subgraph 0 operator 12: input 3: tensor index 999
 * out of range (subgraph has 150 tensors)". Every failure but out-of-memory
 * is TFF_STATUS_INVALID_MODEL, unsupported features included: TFLite's
 * constructor raises ValueError for anything it cannot load.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb.h"
#include "model.h"
#include "tflite_fast/builtin_ops.h"

/* The only schema version TFLite accepts. */
#define TFF_SCHEMA_VERSION 3u

/* Field ids (declaration order in the schema; a union takes two ids, its
 * type then its value). */
enum { kModelVersion = 0, kModelOperatorCodes = 1, kModelSubgraphs = 2, kModelDescription = 3,
       kModelBuffers = 4, kModelMetadataBuffer = 5, kModelMetadata = 6,
       kModelSignatureDefs = 7, kModelExternalBufferGroups = 8, kModelExternalBuffers = 9 };
enum { kExternalBufferGroupName = 0 };
enum { kExternalBufferId = 0, kExternalBufferGroup = 1, kExternalBufferOffset = 2,
       kExternalBufferLength = 3, kExternalBufferPacking = 4 };
enum { kOpCodeDeprecatedBuiltinCode = 0, kOpCodeCustomCode = 1, kOpCodeVersion = 2,
       kOpCodeBuiltinCode = 3 };
enum { kSubGraphTensors = 0, kSubGraphInputs = 1, kSubGraphOutputs = 2,
       kSubGraphOperators = 3, kSubGraphName = 4, kSubGraphDebugMetadataIndex = 5 };
enum { kTensorShape = 0, kTensorType = 1, kTensorBuffer = 2, kTensorName = 3,
       kTensorQuantization = 4, kTensorIsVariable = 5, kTensorSparsity = 6,
       kTensorShapeSignature = 7, kTensorHasRank = 8, kTensorVariantTensors = 9,
       kTensorExternalBuffer = 10 };
enum { kVariantShape = 0, kVariantType = 1, kVariantHasRank = 2 };
enum { kQuantMin = 0, kQuantMax = 1, kQuantScale = 2, kQuantZeroPoint = 3,
       kQuantDetailsType = 4, kQuantDetails = 5, kQuantQuantizedDimension = 6 };
enum { kSparsityTraversalOrder = 0, kSparsityBlockMap = 1, kSparsityDimMetadata = 2 };
enum { kDimFormat = 0, kDimDenseSize = 1, kDimSegmentsType = 2, kDimSegments = 3,
       kDimIndicesType = 4, kDimIndices = 5 };
enum { kOpOpcodeIndex = 0, kOpInputs = 1, kOpOutputs = 2, kOpBuiltinOptionsType = 3,
       kOpBuiltinOptions = 4, kOpCustomOptions = 5, kOpCustomOptionsFormat = 6,
       kOpMutatingVariableInputs = 7, kOpIntermediates = 8, kOpLargeCustomOptionsOffset = 9,
       kOpLargeCustomOptionsSize = 10, kOpBuiltinOptions2Type = 11, kOpBuiltinOptions2 = 12,
       kOpDebugMetadataIndex = 13 };
enum { kBufferData = 0, kBufferOffset = 1, kBufferSize = 2 };
enum { kMetadataName = 0, kMetadataBuffer = 1 };
enum { kTensorMapName = 0, kTensorMapTensorIndex = 1 };
enum { kSigInputs = 0, kSigOutputs = 1, kSigKey = 2, kSigDeprecatedTag = 3,
       kSigSubgraphIndex = 4 };
enum { kCustomQuantizationCustom = 0 };
enum { kIndexVectorValues = 0 };
/* Union members: QuantizationDetails and SparseIndexVector. */
enum { kDetailsCustom = 1, kDetailsBlockwise = 2, kDetailsMultiAxis = 3 };
enum { kIndexInt32 = 1, kIndexUint16 = 2, kIndexUint8 = 3 };

/* Longest int or float array the reader creates: its byte size must fit in
 * an int (TfLiteIntArrayGetSizeInBytes returns int), with room to spare. */
#define TFF_MAX_ARRAY ((INT_MAX - 64) / 8)

typedef struct reader {
  tff_fb fb;
  const uint8_t* base;  /* the whole model (external data may lie past fb.size) */
  size_t size;
  tff_model* m;
  char* err;
  size_t err_size;
  int sg;               /* location for messages: subgraph (-1 = none) */
  const char* what;     /* ... then an item kind and index (NULL = none) */
  int idx;
  const uint8_t** aligned;  /* per-buffer aligned copies, made on demand */
  int owned_cap;
  int* stamp;           /* per-tensor scratch of the overlap check */
} reader;

static tff_status fail(reader* r, tff_status st, const char* fmt, ...) {
  if (r->err == NULL || r->err_size == 0) return st;
  int n;
  if (r->sg >= 0 && r->what)
    n = snprintf(r->err, r->err_size, "subgraph %d %s %d: ", r->sg, r->what, r->idx);
  else if (r->sg >= 0)
    n = snprintf(r->err, r->err_size, "subgraph %d: ", r->sg);
  else if (r->what)
    n = snprintf(r->err, r->err_size, "%s %d: ", r->what, r->idx);
  else
    n = 0;
  if (n < 0 || (size_t)n >= r->err_size) return st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
  va_end(ap);
  return st;
}

#define INVALID(...) fail(r, TFF_STATUS_INVALID_MODEL, __VA_ARGS__)
#define OOM() fail(r, TFF_STATUS_OUT_OF_MEMORY, "out of memory")

static tff_status fb_fail(reader* r, const char* field) {
  return INVALID("%s: %s", field, r->fb.why);
}

/* A checked FlatBuffer access, naming the field when it fails. */
#define FB(call, field)                        \
  do {                                         \
    if (!(call)) return fb_fail(r, (field));   \
  } while (0)
#define TRY(call)                    \
  do {                               \
    const tff_status st_ = (call);   \
    if (st_ != TFF_OK) return st_;   \
  } while (0)

/* The reader's scratch (freed before it returns). */
static void* zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

/* What the model keeps: from its arena, released whole by tff_model_free. */
static void* keep(reader* r, size_t n, size_t size) { return tff_arena_zalloc(&r->m->arena, n, size); }

/* A kept copy of a verified string; "" when absent. */
static tff_status copy_str(reader* r, const char* s, uint32_t len, char** out) {
  if (!tff_fb_charge(&r->fb, len)) return fb_fail(r, "string");
  char* c = (char*)tff_arena_alloc(&r->m->arena, (size_t)len + 1);
  if (c == NULL) return OOM();
  if (len) memcpy(c, s, len);
  c[len] = '\0';
  *out = c;
  return TFF_OK;
}

static tff_status read_str(reader* r, const tff_fb_table* t, int id, const char* field,
                           char** out) {
  const char* s;
  uint32_t len;
  FB(tff_fb_string(&r->fb, t, id, &s, &len), field);
  return copy_str(r, s ? s : "", len, out);
}

/* A kept TfLiteIntArray copy of a vector of int32, uint16 or uint8 (elem
 * bytes); size 0 for an absent vector. */
static tff_status int_array(reader* r, const tff_fb_vec* v, size_t elem, const char* field,
                            TfLiteIntArray** out) {
  if (v->len > TFF_MAX_ARRAY) return INVALID("%s: %u entries are too many", field, v->len);
  if (!tff_fb_charge(&r->fb, v->len)) return fb_fail(r, field);
  TfLiteIntArray* a =
      (TfLiteIntArray*)tff_arena_alloc(&r->m->arena, (size_t)TfLiteIntArrayGetSizeInBytes((int)v->len));
  if (a == NULL) return OOM();
  a->size = (int)v->len;
  for (uint32_t i = 0; i < v->len; ++i) {
    if (elem == 4)
      a->data[i] = tff_fb_vec_i32(&r->fb, v, i);
    else if (elem == 2)
      a->data[i] = tff_fb_vec_u16(&r->fb, v, i);
    else
      a->data[i] = tff_fb_vec_u8(&r->fb, v, i);
  }
  *out = a;
  return TFF_OK;
}

/* Tensor index lists: each entry in [0, num_tensors), or -1 (omitted) when
 * `optional`. An absent vector gives an empty list. */
static tff_status index_list(reader* r, const tff_fb_table* t, int id, const char* field,
                             int num_tensors, bool optional, TfLiteIntArray** out) {
  tff_fb_vec v;
  FB(tff_fb_vector(&r->fb, t, id, 4, &v), field);
  TRY(int_array(r, &v, 4, field, out));
  const TfLiteIntArray* a = *out;
  for (int i = 0; i < a->size; ++i) {
    const int x = a->data[i];
    if ((x < 0 || x >= num_tensors) && !(optional && x == kTfLiteOptionalTensor))
      return INVALID("%s %d: tensor index %d out of range (subgraph has %d tensors)", field, i,
                     x, num_tensors);
  }
  return TFF_OK;
}

/* "[1, 224, 224, 3]" for messages; long shapes end in "...]". n >= 24. */
static const char* shape_str(const TfLiteIntArray* dims, char* s, size_t n) {
  size_t k = 0;
  s[k++] = '[';
  int i = 0;
  for (; i < dims->size && k + 20 < n; ++i)
    k += (size_t)snprintf(s + k, n - k, i ? ", %d" : "%d", dims->data[i]);
  snprintf(s + k, n - k, i < dims->size ? "...]" : "]");
  return s;
}

/* Bytes of `count` elements; false on overflow. Packed 4- and 2-bit types
 * round up to whole bytes, types without a fixed size need none. */
static bool packed_bytes(TfLiteType type, size_t count, size_t* bytes) {
  switch (type) {
    case kTfLiteInt4:
    case kTfLiteUInt4:
      *bytes = count / 2 + count % 2;
      return true;
    case kTfLiteInt2:
      *bytes = count / 4 + (count % 4 != 0);
      return true;
    default: {
      const size_t es = tff_type_size(type);
      if (es && count > SIZE_MAX / es) return false;
      *bytes = count * es;
      return true;
    }
  }
}

/* Alignment kernels need to read the elements in place. */
static size_t data_alignment(TfLiteType type) {
  switch (type) {
    case kTfLiteComplex64: return _Alignof(float);
    case kTfLiteComplex128: return _Alignof(double);
    case kTfLiteString: return _Alignof(int32_t); /* int32 count and offsets */
    case kTfLiteInt64:
    case kTfLiteUInt64: return _Alignof(int64_t);
    case kTfLiteFloat64: return _Alignof(double);
    default: {
      const size_t es = tff_type_size(type);
      return es ? es : 1;
    }
  }
}

static tff_status add_owned(reader* r, void* p) {
  tff_model* m = r->m;
  if (m->num_owned == r->owned_cap) {
    const int cap = r->owned_cap ? 2 * r->owned_cap : 8;
    void** grown = (void**)realloc(m->owned, (size_t)cap * sizeof(void*));
    if (grown == NULL) {
      free(p);
      return OOM();
    }
    m->owned = grown;
    r->owned_cap = cap;
  }
  m->owned[m->num_owned++] = p;
  return TFF_OK;
}

/* Zero copy when the bytes are aligned for the type; otherwise one 16-byte
 * aligned copy per buffer, shared by every tensor that needs it. */
static tff_status place_data(reader* r, int buffer, TfLiteType type, const void** out) {
  const tff_buffer* b = &r->m->buffers[buffer];
  if ((uintptr_t)b->data % data_alignment(type) == 0) {
    *out = b->data;
    return TFF_OK;
  }
  if (r->aligned == NULL) {
    r->aligned = (const uint8_t**)zalloc((size_t)r->m->num_buffers, sizeof(*r->aligned));
    if (r->aligned == NULL) return OOM();
  }
  if (r->aligned[buffer] == NULL) {
    if (b->size > SIZE_MAX - 16) return OOM();
    uint8_t* raw = (uint8_t*)malloc(b->size + 16);
    if (raw == NULL) return OOM();
    uint8_t* copy = raw + ((16 - (uintptr_t)raw % 16) % 16);
    memcpy(copy, b->data, b->size);
    TRY(add_owned(r, raw));
    r->aligned[buffer] = copy;
  }
  *out = r->aligned[buffer];
  return TFF_OK;
}

/* TFLite's string tensor layout: int32 count N, N + 1 int32 offsets from the
 * buffer start (the first right after them, the last = buffer size), then
 * the bytes. Kernels index it directly, so every offset is checked. */
static tff_status check_strings(reader* r, const uint8_t* p, size_t n, size_t elements) {
  if (n < 4) return INVALID("string buffer of %zu bytes has no string count", n);
  const uint32_t count = tff_fb_ld32(p);
  if (n / 4 < 2 || count > n / 4 - 2)
    return INVALID("string buffer of %zu bytes cannot hold %u strings", n, count);
  if (count != elements)
    return INVALID("string buffer holds %u strings, the shape has %zu elements", count, elements);
  if (!tff_fb_charge(&r->fb, count)) return fb_fail(r, "string buffer");
  uint32_t prev = 4 * (count + 2);
  if (tff_fb_ld32(p + 4) != prev) return INVALID("string buffer: first offset must be %u", prev);
  for (uint32_t i = 1; i <= count; ++i) {
    const uint32_t off = tff_fb_ld32(p + 4 + 4 * (size_t)i);
    if (off < prev || off > n) return INVALID("string buffer: offset %u is invalid", i);
    prev = off;
  }
  if (prev != n) return INVALID("string buffer: last offset must be %zu", n);
  return TFF_OK;
}

static tff_status read_quantization(reader* r, const tff_fb_table* q, tff_tensor_desc* d) {
  if (q->pos == 0) return TFF_OK;
  tff_fb_vec unused, scale, zp;
  uint8_t details_type;
  tff_fb_table details;
  int32_t qd;
  FB(tff_fb_vector(&r->fb, q, kQuantMin, 4, &unused), "quantization.min");
  FB(tff_fb_vector(&r->fb, q, kQuantMax, 4, &unused), "quantization.max");
  FB(tff_fb_vector(&r->fb, q, kQuantScale, 4, &scale), "quantization.scale");
  FB(tff_fb_vector(&r->fb, q, kQuantZeroPoint, 8, &zp), "quantization.zero_point");
  FB(tff_fb_u8(&r->fb, q, kQuantDetailsType, 0, &details_type), "quantization.details_type");
  FB(tff_fb_table_field(&r->fb, q, kQuantDetails, &details), "quantization.details");
  FB(tff_fb_i32(&r->fb, q, kQuantQuantizedDimension, 0, &qd),
     "quantization.quantized_dimension");
  if (details_type == kDetailsBlockwise || details_type == kDetailsMultiAxis)
    return INVALID("%s quantization is not supported",
                   details_type == kDetailsBlockwise ? "blockwise" : "multi-axis");
  if (details_type == kDetailsCustom)
    FB(tff_fb_vector(&r->fb, &details, kCustomQuantizationCustom, 1, &unused),
       "quantization.details.custom");
  if (scale.len == 0) return TFF_OK; /* no scales: not quantized (TFLite) */
  if (zp.pos == 0) return INVALID("quantization has scales but no zero_point");
  if (zp.len != scale.len)
    return INVALID("quantization has %u zero_point values and %u scale values", zp.len,
                   scale.len);
  const TfLiteIntArray* dims = d->dims;
  if (qd < 0 || (dims->size > 0 && qd >= dims->size))
    return INVALID("quantized_dimension must be in range [0, %d), was %d", dims->size, qd);
  if (scale.len != 1 && dims->size > 0 && scale.len != (uint32_t)dims->data[qd])
    return INVALID("%u scales: must be 1 (per tensor) or dims[%d] = %d (per channel)", scale.len,
                   qd, dims->data[qd]);
  if (scale.len > TFF_MAX_ARRAY) return INVALID("quantization: too many scales");
  if (!tff_fb_charge(&r->fb, 2 * (size_t)scale.len)) return fb_fail(r, "quantization");
  TfLiteAffineQuantization* a = (TfLiteAffineQuantization*)keep(r, 1, sizeof(*a));
  if (a == NULL) return OOM();
  d->affine = a;
  a->scale = (TfLiteFloatArray*)keep(r, 1, sizeof(TfLiteFloatArray) + sizeof(float) * scale.len);
  a->zero_point = (TfLiteIntArray*)keep(r, 1, (size_t)TfLiteIntArrayGetSizeInBytes((int)scale.len));
  if (a->scale == NULL || a->zero_point == NULL) return OOM();
  a->scale->size = a->zero_point->size = (int)scale.len;
  a->quantized_dimension = qd;
  for (uint32_t i = 0; i < scale.len; ++i) {
    const int64_t z = tff_fb_vec_i64(&r->fb, &zp, i);
    if (z < INT32_MIN || z > INT32_MAX)
      return INVALID("zero_point %lld does not fit in int32", (long long)z);
    a->scale->data[i] = tff_fb_vec_f32(&r->fb, &scale, i);
    a->zero_point->data[i] = (int32_t)z;
  }
  /* The legacy view holds only per-tensor parameters. */
  if (scale.len == 1) {
    d->params.scale = a->scale->data[0];
    d->params.zero_point = a->zero_point->data[0];
  }
  return TFF_OK;
}

/* A SparseIndexVector union (Int32/Uint16/Uint8Vector): verifies it and
 * returns its values vector (pos 0 when absent or of an unknown type). */
static tff_status index_vector(reader* r, const tff_fb_table* dm, int type_id, int id,
                               const char* field, tff_fb_vec* v, size_t* elem) {
  uint8_t type;
  tff_fb_table t;
  v->pos = 0;
  v->len = 0;
  FB(tff_fb_u8(&r->fb, dm, type_id, 0, &type), field);
  FB(tff_fb_table_field(&r->fb, dm, id, &t), field);
  if (type < kIndexInt32 || type > kIndexUint8) return TFF_OK;
  *elem = type == kIndexInt32 ? 4 : type == kIndexUint16 ? 2 : 1;
  FB(tff_fb_vector(&r->fb, &t, kIndexVectorValues, *elem, v), field);
  return TFF_OK;
}

/* The values of a SparseIndexVector as an int array (required for CSR). */
static tff_status read_index_vector(reader* r, const tff_fb_table* dm, int type_id, int id,
                                    const char* field, TfLiteIntArray** out) {
  tff_fb_vec v;
  size_t elem = 1;
  TRY(index_vector(r, dm, type_id, id, field, &v, &elem));
  if (v.pos == 0) return INVALID("sparsity: %s is missing or of unknown type", field);
  return int_array(r, &v, elem, field, out);
}

/* The checks of TFLite's optional verifier (tools/verifier.cc), so that
 * DENSIFY and sparse kernels can trust the structure: the traversal order is
 * a permutation (tensor dims first, then block dims), block sizes divide the
 * dims they block, dense sizes match, segments are non-decreasing and end
 * at the index count, indices lie inside their dimension. Returns the number
 * of stored values in *nnz. */
static tff_status check_sparsity(reader* r, const TfLiteSparsity* sp, const TfLiteIntArray* dims,
                                 size_t* nnz) {
  const int rank = dims->size;
  const int total = sp->traversal_order->size;
  const int* order = sp->traversal_order->data;
  const TfLiteDimensionMetadata* md = sp->dim_metadata;
  if (sp->dim_metadata_size != total || total < rank)
    return INVALID("sparsity: %d traversal levels and %d dim_metadata for a rank-%d tensor", total,
                   sp->dim_metadata_size, rank);
  const int block_rank = total - rank;
  if (block_rank > 0 && (sp->block_map == NULL || sp->block_map->size != block_rank))
    return INVALID("sparsity: block_map must have %d entries", block_rank);
  /* expanded: the size of each tensor and block dimension; seen: which
   * dimensions the traversal order already named. */
  int64_t* expanded = (int64_t*)zalloc(2 * (size_t)total, sizeof(int64_t));
  if (expanded == NULL) return OOM();
  int64_t* seen = expanded + total;
  tff_status st = TFF_OK;
  for (int d = 0; d < rank; ++d) expanded[d] = dims->data[d];
  for (int l = 0; l < total && st == TFF_OK; ++l) {
    const int d = order[l];
    const bool ok_range = l < rank ? (d >= 0 && d < rank) : (d >= rank && d < total);
    if (!ok_range || seen[d]) {
      st = INVALID("sparsity: traversal_order is not a permutation (level %d is %d)", l, d);
      break;
    }
    seen[d] = 1;
    if (d >= rank) {
      const int m = sp->block_map->data[d - rank];
      if (md[l].format != kTfLiteDimDense || md[l].dense_size <= 0 || m < 0 || m >= rank)
        st = INVALID("sparsity: block dimension %d is invalid", d);
    }
  }
  /* Block dims take their dense size; the blocked dims shrink by it. */
  for (int l = rank; l < total && st == TFF_OK; ++l) {
    const int d = order[l];
    const int m = sp->block_map->data[d - rank];
    const int64_t bsize = md[l].dense_size;
    expanded[d] = bsize;
    if (expanded[m] % bsize != 0)
      st = INVALID("sparsity: block size %lld does not divide dimension %d (%lld)",
                   (long long)bsize, m, (long long)expanded[m]);
    else
      expanded[m] /= bsize;
  }
  int64_t count = 1;
  for (int l = 0; l < total && st == TFF_OK; ++l) {
    const int64_t size = expanded[order[l]];
    if (md[l].format == kTfLiteDimDense) {
      if (md[l].dense_size != size) {
        st = INVALID("sparsity level %d: dense_size %d, expected %lld", l, md[l].dense_size,
                     (long long)size);
      } else if (size != 0 && count > INT32_MAX / size) {
        st = INVALID("sparsity level %d: too many elements", l);
      } else {
        count *= size;
      }
      continue;
    }
    const TfLiteIntArray* seg = md[l].array_segments;
    const TfLiteIntArray* idx = md[l].array_indices;
    if ((int64_t)seg->size != count + 1) {
      st = INVALID("sparsity level %d: %d array_segments, expected %lld", l, seg->size,
                   (long long)count + 1);
      break;
    }
    for (int j = 0; j < seg->size && st == TFF_OK; ++j)
      if (seg->data[j] < 0 || (j > 0 && seg->data[j] < seg->data[j - 1]))
        st = INVALID("sparsity level %d: array_segments must be non-negative and sorted", l);
    if (st == TFF_OK && seg->data[seg->size - 1] != idx->size)
      st = INVALID("sparsity level %d: array_segments ends at %d, there are %d indices", l,
                   seg->data[seg->size - 1], idx->size);
    for (int j = 0; j < idx->size && st == TFF_OK; ++j)
      if (idx->data[j] < 0 || idx->data[j] >= size)
        st = INVALID("sparsity level %d: index %d out of range [0, %lld)", l, idx->data[j],
                     (long long)size);
    count = idx->size;
  }
  free(expanded);
  *nnz = (size_t)count;
  return st;
}

static tff_status read_sparsity(reader* r, const tff_fb_table* s, tff_tensor_desc* d) {
  tff_fb_vec order, block_map, dmv;
  FB(tff_fb_vector(&r->fb, s, kSparsityTraversalOrder, 4, &order), "sparsity.traversal_order");
  FB(tff_fb_vector(&r->fb, s, kSparsityBlockMap, 4, &block_map), "sparsity.block_map");
  FB(tff_fb_vector(&r->fb, s, kSparsityDimMetadata, 4, &dmv), "sparsity.dim_metadata");
  if (order.pos == 0 || dmv.pos == 0)
    return INVALID("sparsity: traversal_order and dim_metadata are required");
  TfLiteSparsity* sp = (TfLiteSparsity*)keep(r, 1, sizeof(*sp));
  if (sp == NULL) return OOM();
  d->sparsity = sp;
  TRY(int_array(r, &order, 4, "sparsity.traversal_order", &sp->traversal_order));
  if (block_map.pos) TRY(int_array(r, &block_map, 4, "sparsity.block_map", &sp->block_map));
  if (dmv.len > TFF_MAX_ARRAY) return INVALID("sparsity: too many dim_metadata");
  sp->dim_metadata = (TfLiteDimensionMetadata*)keep(r, dmv.len, sizeof(TfLiteDimensionMetadata));
  if (sp->dim_metadata == NULL) return OOM();
  sp->dim_metadata_size = (int)dmv.len;
  for (uint32_t l = 0; l < dmv.len; ++l) {
    tff_fb_table dm;
    int8_t format;
    int32_t dense_size;
    FB(tff_fb_vec_table(&r->fb, &dmv, l, &dm), "sparsity.dim_metadata");
    FB(tff_fb_i8(&r->fb, &dm, kDimFormat, 0, &format), "sparsity.dim_metadata.format");
    FB(tff_fb_i32(&r->fb, &dm, kDimDenseSize, 0, &dense_size), "sparsity.dim_metadata.dense_size");
    TfLiteDimensionMetadata* out = &sp->dim_metadata[l];
    if (format == kTfLiteDimDense) {
      tff_fb_vec unused;
      size_t elem;
      out->format = kTfLiteDimDense;
      out->dense_size = dense_size;
      TRY(index_vector(r, &dm, kDimSegmentsType, kDimSegments, "array_segments", &unused, &elem));
      TRY(index_vector(r, &dm, kDimIndicesType, kDimIndices, "array_indices", &unused, &elem));
    } else if (format == kTfLiteDimSparseCSR) {
      out->format = kTfLiteDimSparseCSR;
      TRY(read_index_vector(r, &dm, kDimSegmentsType, kDimSegments, "array_segments",
                            &out->array_segments));
      TRY(read_index_vector(r, &dm, kDimIndicesType, kDimIndices, "array_indices",
                            &out->array_indices));
    } else {
      return INVALID("sparsity: dimension %u has unknown format %d", l, format);
    }
  }
  return TFF_OK;
}

/* Constant data of a tensor: checks its size against the shape and places it. */
static tff_status read_constant(reader* r, size_t elements, tff_tensor_desc* d) {
  const tff_buffer* b = &r->m->buffers[d->buffer];
  char s[96];
  if (d->is_variable)
    return INVALID("variable tensor with a constant buffer is not supported");
  size_t stored = elements;
  if (d->sparsity) TRY(check_sparsity(r, d->sparsity, d->dims, &stored));
  size_t need;
  if (!packed_bytes(d->type, stored, &need))
    return INVALID("shape %s is too large", shape_str(d->dims, s, sizeof(s)));
  if (d->type == kTfLiteString) {
    TRY(check_strings(r, b->data, b->size, elements));
  } else if (b->size < need) {
    return INVALID("buffer %d holds %zu bytes, a %s tensor of shape %s%s needs %zu",
                   d->buffer, b->size, TfLiteTypeGetName(d->type),
                   shape_str(d->dims, s, sizeof(s)), d->sparsity ? " (sparse)" : "", need);
  }
  TRY(place_data(r, d->buffer, d->type, &d->data));
  d->bytes = b->size;
  return TFF_OK;
}

/* Tensor.variant_tensors: verified, not used. */
static tff_status verify_variants(reader* r, const tff_fb_table* t) {
  tff_fb_vec v, shape;
  FB(tff_fb_vector(&r->fb, t, kTensorVariantTensors, 4, &v), "variant_tensors");
  for (uint32_t i = 0; i < v.len; ++i) {
    tff_fb_table vt;
    int8_t type;
    bool has_rank;
    FB(tff_fb_vec_table(&r->fb, &v, i, &vt), "variant_tensors");
    FB(tff_fb_vector(&r->fb, &vt, kVariantShape, 4, &shape), "variant_tensors.shape");
    FB(tff_fb_i8(&r->fb, &vt, kVariantType, 0, &type), "variant_tensors.type");
    FB(tff_fb_bool(&r->fb, &vt, kVariantHasRank, false, &has_rank), "variant_tensors.has_rank");
  }
  return TFF_OK;
}

static tff_status read_tensor(reader* r, const tff_fb_table* t, tff_tensor_desc* d) {
  tff_fb_vec shape, signature;
  int8_t type;
  uint32_t buffer, external;
  tff_fb_table quant, sparsity;
  char s[96];
  FB(tff_fb_vector(&r->fb, t, kTensorShape, 4, &shape), "shape");
  FB(tff_fb_i8(&r->fb, t, kTensorType, 0, &type), "type");
  FB(tff_fb_u32(&r->fb, t, kTensorBuffer, 0, &buffer), "buffer");
  FB(tff_fb_table_field(&r->fb, t, kTensorQuantization, &quant), "quantization");
  FB(tff_fb_bool(&r->fb, t, kTensorIsVariable, false, &d->is_variable), "is_variable");
  FB(tff_fb_table_field(&r->fb, t, kTensorSparsity, &sparsity), "sparsity");
  FB(tff_fb_vector(&r->fb, t, kTensorShapeSignature, 4, &signature), "shape_signature");
  FB(tff_fb_bool(&r->fb, t, kTensorHasRank, false, &d->has_rank), "has_rank");
  FB(tff_fb_u32(&r->fb, t, kTensorExternalBuffer, 0, &external), "external_buffer");
  TRY(verify_variants(r, t));
  TRY(read_str(r, t, kTensorName, "name", &d->name));
  TRY(int_array(r, &shape, 4, "shape", &d->dims));
  if (!tff_schema_tensor_type(type, &d->type)) return INVALID("unknown tensor type %d", type);
  if (external != 0)
    return INVALID("external buffers (weights in a separate file) are not supported");
  size_t elements = 1;
  for (int i = 0; i < d->dims->size; ++i) {
    const int dim = d->dims->data[i];
    if (dim < 0)
      return INVALID("shape %s has a negative dimension", shape_str(d->dims, s, sizeof(s)));
    if (dim != 0 && elements > SIZE_MAX / (size_t)dim)
      return INVALID("shape %s has too many elements", shape_str(d->dims, s, sizeof(s)));
    elements *= (size_t)dim;
  }
  size_t unused;
  if (!packed_bytes(d->type, elements, &unused))
    return INVALID("shape %s is too large", shape_str(d->dims, s, sizeof(s)));
  TRY(read_quantization(r, &quant, d));
  if (sparsity.pos) TRY(read_sparsity(r, &sparsity, d));
  if (buffer >= (uint32_t)r->m->num_buffers)
    return INVALID("buffer index %u out of range (model has %d buffers)", buffer,
                   r->m->num_buffers);
  d->buffer = (int)buffer;
  /* Buffer 0 is the empty sentinel; a present data vector (even empty) or
   * an external offset makes the tensor constant, as in TFLite. */
  if (buffer != 0 && r->m->buffers[buffer].data != NULL) return read_constant(r, elements, d);
  /* Like TFLite, only constant tensors keep their sparsity. */
  d->sparsity = NULL;
  if (d->is_variable &&
      (d->type == kTfLiteString || d->type == kTfLiteResource || d->type == kTfLiteVariant))
    return INVALID("%s variable tensors are not supported", TfLiteTypeGetName(d->type));
  /* TFLite keeps shape_signature for non-constant tensors only. */
  if (signature.pos) {
    TRY(int_array(r, &signature, 4, "shape_signature", &d->dims_signature));
    const TfLiteIntArray* sig = d->dims_signature;
    if (sig->size != d->dims->size)
      return INVALID("shape_signature %s has another rank than shape",
                     shape_str(sig, s, sizeof(s)));
  }
  return TFF_OK;
}

/* Options of CUSTOM ops: the custom_options bytes, or the large-model
 * layout where they live at an offset of the file (offset > 1). The fields
 * are verified for every op; builtins get none, as in TFLite. */
static tff_status read_custom_options(reader* r, const tff_fb_table* t, bool custom,
                                      tff_op_desc* op) {
  tff_fb_vec v;
  uint64_t offset, size;
  int8_t format;
  FB(tff_fb_vector(&r->fb, t, kOpCustomOptions, 1, &v), "custom_options");
  FB(tff_fb_i8(&r->fb, t, kOpCustomOptionsFormat, 0, &format), "custom_options_format");
  FB(tff_fb_u64(&r->fb, t, kOpLargeCustomOptionsOffset, 0, &offset),
     "large_custom_options_offset");
  FB(tff_fb_u64(&r->fb, t, kOpLargeCustomOptionsSize, 0, &size), "large_custom_options_size");
  if (!custom) return TFF_OK;
  if (v.pos) {
    op->custom_options = tff_fb_vec_data(&r->fb, &v);
    op->custom_options_size = v.len;
  } else if (offset > 1) {
    if (offset > (uint64_t)r->size || size > (uint64_t)r->size - offset)
      return INVALID("custom options at offset %llu, size %llu lie outside the %zu-byte model",
                     (unsigned long long)offset, (unsigned long long)size, r->size);
    op->custom_options = r->base + offset;
    op->custom_options_size = (size_t)size;
  }
  /* TfLiteNode.custom_initial_data_size is an int. */
  if (op->custom_options_size > INT_MAX)
    return INVALID("custom options of %zu bytes are too large", op->custom_options_size);
  return TFF_OK;
}

/* Builtin ops with parameters may not use a tensor as both input and output
 * (TFLite's CheckInputAndOutputForOverlap); linear with a per-tensor stamp. */
static tff_status check_overlap(reader* r, const tff_op_desc* op, int node) {
  for (int k = 0; k < op->outputs->size; ++k)
    if (op->outputs->data[k] >= 0) r->stamp[op->outputs->data[k]] = node;
  for (int k = 0; k < op->inputs->size; ++k) {
    const int t = op->inputs->data[k];
    if (t < 0 || r->stamp[t] != node) continue;
    int j = 0;
    while (op->outputs->data[j] != t) ++j;
    return INVALID("tensor %d is both input %d and output %d", t, k, j);
  }
  return TFF_OK;
}

static tff_status read_op(reader* r, const tff_fb_table* t, int num_tensors, int node,
                          tff_op_desc* op) {
  uint32_t opcode;
  tff_fb_vec unused;
  FB(tff_fb_u32(&r->fb, t, kOpOpcodeIndex, 0, &opcode), "opcode_index");
  if (opcode >= (uint32_t)r->m->num_opcodes)
    return INVALID("opcode_index %u out of range (model has %d operator codes)", opcode,
                   r->m->num_opcodes);
  op->opcode_index = (int)opcode;
  TRY(index_list(r, t, kOpInputs, "input", num_tensors, true, &op->inputs));
  TRY(index_list(r, t, kOpOutputs, "output", num_tensors, true, &op->outputs));
  TRY(index_list(r, t, kOpIntermediates, "intermediate", num_tensors, true, &op->intermediates));
  int32_t debug;
  FB(tff_fb_vector(&r->fb, t, kOpMutatingVariableInputs, 1, &unused),
     "mutating_variable_inputs");
  FB(tff_fb_i32(&r->fb, t, kOpDebugMetadataIndex, -1, &debug), "debug_metadata_index");
  const int code = r->m->opcodes[opcode].builtin_code;
  TRY(read_custom_options(r, t, code == kTfLiteBuiltinCustom, op));
  if (code == kTfLiteBuiltinCustom) return TFF_OK;
  /* Both unions are verified; ops from STABLEHLO_LOGISTIC on use the second. */
  uint8_t type1, type2;
  tff_fb_table opts1, opts2;
  FB(tff_fb_u8(&r->fb, t, kOpBuiltinOptionsType, 0, &type1), "builtin_options_type");
  FB(tff_fb_table_field(&r->fb, t, kOpBuiltinOptions, &opts1), "builtin_options");
  FB(tff_fb_u8(&r->fb, t, kOpBuiltinOptions2Type, 0, &type2), "builtin_options_2_type");
  FB(tff_fb_table_field(&r->fb, t, kOpBuiltinOptions2, &opts2), "builtin_options_2");
  const bool second = code >= kTfLiteBuiltinStablehloLogistic;
  op->builtin_options_type = second ? type2 : type1;
  char msg[256];
  msg[0] = '\0';
  const tff_status st =
      tff_parse_builtin_options(code, op->builtin_options_type, r->fb.buf, r->fb.size,
                                second ? opts2.pos : opts1.pos, &op->builtin_data, msg,
                                sizeof(msg));
  if (st != TFF_OK) return fail(r, st, "%s", msg);
  return op->builtin_data ? check_overlap(r, op, node) : TFF_OK;
}

static tff_status read_subgraph(reader* r, const tff_fb_table* t, tff_subgraph_desc* sg) {
  tff_fb_vec tensors, ops;
  int32_t debug;
  FB(tff_fb_i32(&r->fb, t, kSubGraphDebugMetadataIndex, -1, &debug), "debug_metadata_index");
  TRY(read_str(r, t, kSubGraphName, "name", &sg->name));
  FB(tff_fb_vector(&r->fb, t, kSubGraphTensors, 4, &tensors), "tensors");
  FB(tff_fb_vector(&r->fb, t, kSubGraphOperators, 4, &ops), "operators");
  if (tensors.pos == 0) return INVALID("no tensors vector");
  sg->tensors = (tff_tensor_desc*)keep(r, tensors.len, sizeof(tff_tensor_desc));
  if (sg->tensors == NULL) return OOM();
  sg->num_tensors = (int)tensors.len;
  r->what = "tensor";
  for (uint32_t i = 0; i < tensors.len; ++i) {
    tff_fb_table tt;
    r->idx = (int)i;
    FB(tff_fb_vec_table(&r->fb, &tensors, i, &tt), "table");
    TRY(read_tensor(r, &tt, &sg->tensors[i]));
  }
  r->what = NULL;
  TRY(index_list(r, t, kSubGraphInputs, "input", sg->num_tensors, false, &sg->inputs));
  TRY(index_list(r, t, kSubGraphOutputs, "output", sg->num_tensors, false, &sg->outputs));
  sg->ops = (tff_op_desc*)keep(r, ops.len, sizeof(tff_op_desc));
  int* stamp = (int*)realloc(r->stamp, (size_t)(sg->num_tensors ? sg->num_tensors : 1) * sizeof(int));
  if (stamp) r->stamp = stamp;
  if (sg->ops == NULL || stamp == NULL) return OOM();
  memset(r->stamp, 0xff, (size_t)sg->num_tensors * sizeof(int)); /* all -1 */
  sg->num_ops = (int)ops.len;
  r->what = "operator";
  for (uint32_t i = 0; i < ops.len; ++i) {
    tff_fb_table ot;
    r->idx = (int)i;
    FB(tff_fb_vec_table(&r->fb, &ops, i, &ot), "table");
    TRY(read_op(r, &ot, sg->num_tensors, (int)i, &sg->ops[i]));
  }
  r->what = NULL;
  return TFF_OK;
}

static tff_status read_opcodes(reader* r, const tff_fb_table* root) {
  tff_fb_vec v;
  FB(tff_fb_vector(&r->fb, root, kModelOperatorCodes, 4, &v), "operator_codes");
  r->m->opcodes = (tff_opcode*)keep(r, v.len, sizeof(tff_opcode));
  if (r->m->opcodes == NULL) return OOM();
  r->m->num_opcodes = (int)v.len;
  r->what = "operator code";
  for (uint32_t i = 0; i < v.len; ++i) {
    tff_fb_table t;
    int8_t deprecated;
    int32_t code, version;
    const char* custom;
    uint32_t len;
    tff_opcode* oc = &r->m->opcodes[i];
    r->idx = (int)i;
    FB(tff_fb_vec_table(&r->fb, &v, i, &t), "table");
    FB(tff_fb_i8(&r->fb, &t, kOpCodeDeprecatedBuiltinCode, 0, &deprecated),
       "deprecated_builtin_code");
    FB(tff_fb_string(&r->fb, &t, kOpCodeCustomCode, &custom, &len), "custom_code");
    FB(tff_fb_i32(&r->fb, &t, kOpCodeVersion, 1, &version), "version");
    FB(tff_fb_i32(&r->fb, &t, kOpCodeBuiltinCode, 0, &code), "builtin_code");
    /* Codes < 127 were written to the int8 field, newer ones to the int32. */
    if (deprecated > code) code = deprecated;
    if (code < 0 || code >= TFF_BUILTIN_COUNT)
      return INVALID("unknown builtin operator code %d", code);
    oc->builtin_code = code;
    oc->version = version;
    if (code == kTfLiteBuiltinCustom) {
      if (custom == NULL) return INVALID("operator with CUSTOM builtin_code has no custom_code");
      TRY(copy_str(r, custom, len, &oc->custom_name));
    }
  }
  r->what = NULL;
  return TFF_OK;
}

static tff_status read_buffers(reader* r, const tff_fb_table* root) {
  tff_fb_vec v;
  FB(tff_fb_vector(&r->fb, root, kModelBuffers, 4, &v), "buffers");
  if (v.pos == 0) return INVALID("no buffers in the model");
  r->m->buffers = (tff_buffer*)keep(r, v.len, sizeof(tff_buffer));
  if (r->m->buffers == NULL) return OOM();
  r->m->num_buffers = (int)v.len;
  r->what = "buffer";
  for (uint32_t i = 0; i < v.len; ++i) {
    tff_fb_table t;
    tff_fb_vec data;
    uint64_t offset, size;
    tff_buffer* b = &r->m->buffers[i];
    r->idx = (int)i;
    FB(tff_fb_vec_table(&r->fb, &v, i, &t), "table");
    FB(tff_fb_vector(&r->fb, &t, kBufferData, 1, &data), "data");
    FB(tff_fb_u64(&r->fb, &t, kBufferOffset, 0, &offset), "offset");
    FB(tff_fb_u64(&r->fb, &t, kBufferSize, 0, &size), "size");
    if (data.pos) {
      b->data = tff_fb_vec_data(&r->fb, &data);
      b->size = data.len;
    } else if (offset > 1) {
      /* Offsets count from the start of the model bytes; 0 and 1 mean none. */
      if (offset > (uint64_t)r->size || size > (uint64_t)r->size - offset)
        return INVALID("data at offset %llu, size %llu lies outside the %zu-byte model",
                       (unsigned long long)offset, (unsigned long long)size, r->size);
      b->data = r->base + offset;
      b->size = (size_t)size;
    }
  }
  r->what = NULL;
  return TFF_OK;
}

/* A name -> index entry of a signature map or the metadata. */
typedef struct named {
  const char* name;  /* into the model bytes */
  int value;
  int order;
} named;

static int cmp_named(const void* a, const void* b) {
  const named* x = (const named*)a;
  const named* y = (const named*)b;
  const int c = strcmp(x->name, y->name);
  return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* TFLite keeps signature maps and metadata in std::maps: sorted by name,
 * one entry per name, the last one in the file winning. Returns the number
 * of unique entries, compacted at the front of e. */
static int sort_unique(named* e, int n) {
  qsort(e, (size_t)n, sizeof(*e), cmp_named);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (k > 0 && strcmp(e[k - 1].name, e[i].name) == 0)
      e[k - 1] = e[i];
    else
      e[k++] = e[i];
  }
  return k;
}

static tff_status read_tensor_maps(reader* r, const tff_fb_table* sig, int id, const char* field,
                                   int num_tensors, tff_signature_io** out, int* count) {
  tff_fb_vec v;
  FB(tff_fb_vector(&r->fb, sig, id, 4, &v), field);
  named* e = (named*)zalloc(v.len, sizeof(named));
  if (e == NULL) return OOM();
  int n = 0;
  tff_status st = TFF_OK;
  for (uint32_t i = 0; i < v.len && st == TFF_OK; ++i) {
    tff_fb_table t;
    const char* name;
    uint32_t len, index;
    if (!tff_fb_vec_table(&r->fb, &v, i, &t) ||
        !tff_fb_string(&r->fb, &t, kTensorMapName, &name, &len) ||
        !tff_fb_u32(&r->fb, &t, kTensorMapTensorIndex, 0, &index)) {
      st = fb_fail(r, field);
    } else if (index >= (uint32_t)num_tensors) {
      st = INVALID("%s %u: tensor index %u out of range (subgraph has %d tensors)", field, i,
                   index, num_tensors);
    } else if (name != NULL) { /* unnamed entries are skipped, as in TFLite */
      e[n].name = name;
      e[n].value = (int)index;
      e[n].order = n;
      ++n;
    }
  }
  if (st == TFF_OK) {
    n = sort_unique(e, n);
    *out = (tff_signature_io*)keep(r, (size_t)n, sizeof(tff_signature_io));
    if (*out == NULL) st = OOM();
  }
  if (st == TFF_OK) *count = n;
  for (int i = 0; i < n && st == TFF_OK; ++i) {
    (*out)[i].tensor = e[i].value;
    st = copy_str(r, e[i].name, (uint32_t)strlen(e[i].name), &(*out)[i].name);
  }
  free(e);
  return st;
}

static tff_status read_signatures(reader* r, const tff_fb_table* root) {
  tff_fb_vec v;
  FB(tff_fb_vector(&r->fb, root, kModelSignatureDefs, 4, &v), "signature_defs");
  r->m->signatures = (tff_signature*)keep(r, v.len, sizeof(tff_signature));
  if (r->m->signatures == NULL) return OOM();
  r->m->num_signatures = (int)v.len;
  r->what = "signature def";
  for (uint32_t i = 0; i < v.len; ++i) {
    tff_fb_table t;
    const char *key, *tag;
    uint32_t len, tag_len, subgraph;
    tff_signature* sig = &r->m->signatures[i];
    r->idx = (int)i;
    FB(tff_fb_vec_table(&r->fb, &v, i, &t), "table");
    FB(tff_fb_string(&r->fb, &t, kSigKey, &key, &len), "signature_key");
    FB(tff_fb_string(&r->fb, &t, kSigDeprecatedTag, &tag, &tag_len), "deprecated_tag");
    FB(tff_fb_u32(&r->fb, &t, kSigSubgraphIndex, 0, &subgraph), "subgraph_index");
    if (key == NULL) return INVALID("missing signature_key");
    if (subgraph >= (uint32_t)r->m->num_subgraphs)
      return INVALID("subgraph_index %u out of range (model has %d subgraphs)", subgraph,
                     r->m->num_subgraphs);
    sig->subgraph = (int)subgraph;
    TRY(copy_str(r, key, len, &sig->key));
    const int nt = r->m->subgraphs[subgraph].num_tensors;
    TRY(read_tensor_maps(r, &t, kSigInputs, "input", nt, &sig->inputs, &sig->num_inputs));
    TRY(read_tensor_maps(r, &t, kSigOutputs, "output", nt, &sig->outputs, &sig->num_outputs));
  }
  r->what = NULL;
  return TFF_OK;
}

/* Metadata as TFLite's ReadAllMetadata: entries without a name, with an
 * out-of-range buffer or with empty data are skipped. */
static tff_status read_metadata(reader* r, const tff_fb_table* root) {
  tff_fb_vec v;
  FB(tff_fb_vector(&r->fb, root, kModelMetadata, 4, &v), "metadata");
  named* e = (named*)zalloc(v.len, sizeof(named));
  if (e == NULL) return OOM();
  int n = 0;
  tff_status st = TFF_OK;
  r->what = "metadata";
  for (uint32_t i = 0; i < v.len && st == TFF_OK; ++i) {
    tff_fb_table t;
    const char* name;
    uint32_t len, buffer;
    r->idx = (int)i;
    if (!tff_fb_vec_table(&r->fb, &v, i, &t) ||
        !tff_fb_string(&r->fb, &t, kMetadataName, &name, &len) ||
        !tff_fb_u32(&r->fb, &t, kMetadataBuffer, 0, &buffer)) {
      st = fb_fail(r, "table");
    } else if (name != NULL && buffer < (uint32_t)r->m->num_buffers &&
               r->m->buffers[buffer].size > 0) {
      e[n].name = name;
      e[n].value = (int)buffer;
      e[n].order = n;
      ++n;
    }
  }
  r->what = NULL;
  if (st == TFF_OK) {
    n = sort_unique(e, n);
    r->m->metadata = (tff_metadata*)keep(r, (size_t)n, sizeof(tff_metadata));
    if (r->m->metadata == NULL) st = OOM();
  }
  if (st == TFF_OK) r->m->num_metadata = n;
  for (int i = 0; i < n && st == TFF_OK; ++i) {
    tff_metadata* md = &r->m->metadata[i];
    md->data = r->m->buffers[e[i].value].data;
    md->size = r->m->buffers[e[i].value].size;
    st = copy_str(r, e[i].name, (uint32_t)strlen(e[i].name), &md->name);
  }
  free(e);
  return st;
}

/* Model.external_buffer_groups / external_buffers describe weights in
 * separate files (unsupported: tensors using them are rejected); verified. */
static tff_status verify_external_buffers(reader* r, const tff_fb_table* root) {
  tff_fb_vec groups, buffers;
  const char* s;
  uint32_t len, u32;
  uint64_t u64;
  FB(tff_fb_vector(&r->fb, root, kModelExternalBufferGroups, 4, &groups),
     "external_buffer_groups");
  for (uint32_t i = 0; i < groups.len; ++i) {
    tff_fb_table t;
    FB(tff_fb_vec_table(&r->fb, &groups, i, &t), "external_buffer_groups");
    FB(tff_fb_string(&r->fb, &t, kExternalBufferGroupName, &s, &len),
       "external_buffer_groups.name");
  }
  FB(tff_fb_vector(&r->fb, root, kModelExternalBuffers, 4, &buffers), "external_buffers");
  for (uint32_t i = 0; i < buffers.len; ++i) {
    tff_fb_table t;
    FB(tff_fb_vec_table(&r->fb, &buffers, i, &t), "external_buffers");
    FB(tff_fb_u32(&r->fb, &t, kExternalBufferId, 0, &u32), "external_buffers.id");
    FB(tff_fb_u32(&r->fb, &t, kExternalBufferGroup, 0, &u32), "external_buffers.group");
    FB(tff_fb_u64(&r->fb, &t, kExternalBufferOffset, 0, &u64), "external_buffers.offset");
    FB(tff_fb_u64(&r->fb, &t, kExternalBufferLength, 0, &u64), "external_buffers.length");
    FB(tff_fb_string(&r->fb, &t, kExternalBufferPacking, &s, &len), "external_buffers.packing");
  }
  return TFF_OK;
}

static tff_status read_model(reader* r) {
  tff_fb_table root;
  tff_fb_vec unused, subgraphs;
  uint32_t version;
  FB(tff_fb_root(&r->fb, &root), "root table");
  FB(tff_fb_u32(&r->fb, &root, kModelVersion, 0, &version), "version");
  if (version != TFF_SCHEMA_VERSION)
    return INVALID("model provided is schema version %u not equal to supported version %u",
                   version, TFF_SCHEMA_VERSION);
  r->m->version = version;
  TRY(read_str(r, &root, kModelDescription, "description", &r->m->description));
  FB(tff_fb_vector(&r->fb, &root, kModelMetadataBuffer, 4, &unused), "metadata_buffer");
  TRY(verify_external_buffers(r, &root));
  TRY(read_opcodes(r, &root));
  TRY(read_buffers(r, &root));
  FB(tff_fb_vector(&r->fb, &root, kModelSubgraphs, 4, &subgraphs), "subgraphs");
  if (subgraphs.len == 0) return INVALID("no subgraph in the model");
  r->m->subgraphs = (tff_subgraph_desc*)keep(r, subgraphs.len, sizeof(tff_subgraph_desc));
  if (r->m->subgraphs == NULL) return OOM();
  r->m->num_subgraphs = (int)subgraphs.len;
  for (uint32_t s = 0; s < subgraphs.len; ++s) {
    tff_fb_table t;
    r->sg = (int)s;
    FB(tff_fb_vec_table(&r->fb, &subgraphs, s, &t), "table");
    TRY(read_subgraph(r, &t, &r->m->subgraphs[s]));
  }
  r->sg = -1;
  TRY(read_signatures(r, &root));
  return read_metadata(r, &root);
}

tff_status tff_model_parse(const uint8_t* buf, size_t size, tff_model** out, char* err,
                           size_t err_size) {
  reader rd;
  reader* r = &rd;
  memset(r, 0, sizeof(*r));
  r->err = err;
  r->err_size = err_size;
  r->sg = -1;
  *out = NULL;
  if (err && err_size) err[0] = '\0';
  if (buf == NULL || size < 8)
    return INVALID("the model is %zu bytes, too small for a TFLite FlatBuffer", buf ? size : 0);
  if (memcmp(buf + 4, "TFL3", 4) != 0) {
    char id[4];
    for (int i = 0; i < 4; ++i) id[i] = buf[4 + i] >= 32 && buf[4 + i] < 127 ? (char)buf[4 + i] : '?';
    return INVALID("model provided has model identifier '%.4s', should be 'TFL3'", id);
  }
  r->base = buf;
  r->size = size;
  tff_fb_init(&r->fb, buf, size);
  r->m = (tff_model*)calloc(1, sizeof(tff_model));
  if (r->m == NULL) return OOM();
  const tff_status st = read_model(r);
  free(r->aligned);
  free(r->stamp);
  if (st != TFF_OK) {
    tff_model_free(r->m);
    return st;
  }
  *out = r->m;
  return TFF_OK;
}

void tff_model_free(tff_model* m) {
  if (m == NULL) return;
  for (int s = 0; m->subgraphs && s < m->num_subgraphs; ++s) {
    const tff_subgraph_desc* sg = &m->subgraphs[s];
    for (int i = 0; sg->ops && i < sg->num_ops; ++i) free(sg->ops[i].builtin_data);
  }
  for (int i = 0; i < m->num_owned; ++i) free(m->owned[i]);
  free(m->owned);
  tff_arena_release(&m->arena);
  free(m);
}
