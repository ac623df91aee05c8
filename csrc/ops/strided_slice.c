/* STRIDED_SLICE for every fixed-size type (TFLite strided_slice.cc): begin,
 * end and strides are constant int32 (or int64) vectors; begin/end/ellipsis/
 * new_axis/shrink_axis masks, negative indices and strides, and the offset
 * flag (end counts from begin) are resolved at prepare into one first index,
 * step and length per dim of the "effective" input (the input with the new
 * axes inserted). With a constant input the slice is computed at prepare into
 * a kTfLitePersistentRo output, so shape chains (SHAPE -> STRIDED_SLICE ->
 * PACK -> RESHAPE) resolve before the arena is planned. */
#include "../runtime/alias.h"
#include "kernel_util.h"
#include "ops.h"

#define SLICE_MAX_DIMS 16

typedef struct OpData {
  int rank; /* effective rank; 0 copies a scalar */
  int start[SLICE_MAX_DIMS], step[SLICE_MAX_DIMS], count[SLICE_MAX_DIMS];
  size_t stride[SLICE_MAX_DIMS]; /* input elements per index of each effective dim */
  size_t elem;                   /* bytes of one element: a whole merged row after merge_rows */
  size_t run_at, run_bytes;      /* a slice of one contiguous run: its offset and size, else 0 */
} OpData;

/* One effective dim as TFLite's BuildStridedSliceParams leaves it. */
typedef struct Axis {
  int64_t begin, end;
  int stride, begin_mask, end_mask, shrink, size;
} Axis;

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* TFLite StartForAxis / EndForAxis (the dynamic-params version) and the
 * length of the resulting range; a shrunk dim must index one element. */
static TfLiteStatus resolve_axis(TfLiteContext* ctx, const Axis* a, int offset, int dim,
                                 int* start, int* count) {
  const int64_t size = a->size, lo = a->stride > 0 ? 0 : -1, hi = a->stride > 0 ? size : size - 1;
  int64_t s = a->begin < 0 ? a->begin + size : a->begin;
  s = clamp64(s, lo, hi);
  if (a->begin_mask) s = a->stride > 0 ? 0 : size - 1;
  *start = (int)s;
  if (a->shrink) {
    TF_LITE_ENSURE_MSG(ctx, s >= 0 && s < size, "shrunk dim %d: index %lld out of range [0, %lld)",
                       dim, (long long)a->begin, (long long)size);
    *count = 1;
    return kTfLiteOk;
  }
  int64_t e = offset ? a->end + s : a->end;
  e = e < 0 ? e + size : e;
  e = clamp64(e, lo, hi);
  if (a->end_mask) e = a->stride > 0 ? size : -1;
  const int64_t len = e - s;
  if ((len < 0) != (a->stride < 0)) {
    *count = 0;
  } else if (a->stride < 0) {
    *count = (int)((len + 1) / a->stride + 1);
  } else {
    *count = len == 0 ? 0 : (int)((len - 1) / a->stride + 1);
  }
  return kTfLiteOk;
}

/* XNNPACK's static slice, which AUTO runs for plain slices (see
 * xnnpack_takes): a negative begin or a non-positive end counts from the end
 * of the dim, so an end of 0 means "to the end" where TFLite's is empty. */
static void resolve_axis_xnnpack(const Axis* a, int offset, int* start, int* count) {
  const int64_t size = a->size, b = a->begin_mask ? 0 : a->begin;
  const int64_t e = a->end_mask ? 0 : (offset ? a->end + b : a->end);
  int64_t first = b < 0 ? (size + b > 0 ? size + b : 0) : b;
  const int64_t last = e <= 0 ? (size + e > 0 ? size + e : 0) : e;
  first = first < size ? first : size;
  *start = (int)first;
  *count = (int)(last > first ? (last < size ? last : size) - first : 0);
}

/* AUTO delegates a plain slice to XNNPACK: no ellipsis, new-axis or shrink
 * masks, unit strides, model-constant int32 indices for every dim (at most 6),
 * and float or per-tensor quantized 8-bit data. */
static int xnnpack_takes(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteStridedSliceParams* p = (const TfLiteStridedSliceParams*)node->builtin_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  if (tff_numerics_ref(ctx) || p->ellipsis_mask || p->new_axis_mask || p->shrink_axis_mask ||
      tff_rank(in) > 6) {
    return 0;
  }
  for (int i = 1; i <= 3; ++i) {
    const TfLiteTensor* t = tff_input(ctx, node, i);
    if (t->type != kTfLiteInt32 || t->allocation_type != kTfLiteMmapRo ||
        tff_dim(t, 0) != tff_rank(in)) {
      return 0;
    }
  }
  for (int k = 0; k < tff_rank(in); ++k) {
    if (tff_input(ctx, node, 3)->data.i32[k] != 1) return 0;
  }
  if (in->type == kTfLiteFloat32 || in->type == kTfLiteFloat16) return 1;
  const TfLiteAffineQuantization* q = tff_affine(in);
  return (in->type == kTfLiteInt8 || in->type == kTfLiteUInt8) && q != NULL &&
         q->scale != NULL && q->scale->size == 1 && q->quantized_dimension == 0;
}

/* TFLite takes int32 indices only; int64 ones are clamped into that range,
 * which slices the same. */
static int64_t index_value(const TfLiteTensor* t, int i) {
  return clamp64(tff_index_at(t, i), INT32_MIN, INT32_MAX);
}

/* Expands the ellipsis and new axes exactly as TFLite's BuildStridedSliceParams
 * and resolves every effective dim into d; out_dims gets the kept lengths. */
static TfLiteStatus build(TfLiteContext* ctx, TfLiteNode* node, OpData* d, int* out_dims,
                          int* out_rank) {
  const TfLiteStridedSliceParams* p = (const TfLiteStridedSliceParams*)node->builtin_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* begin = tff_input(ctx, node, 1);
  const TfLiteTensor* end = tff_input(ctx, node, 2);
  const TfLiteTensor* strides = tff_input(ctx, node, 3);
  const int n = tff_dim(begin, 0), in_rank = tff_rank(in), xnnpack = xnnpack_takes(ctx, node);
  const uint32_t ellipsis = (uint32_t)p->ellipsis_mask, new_axis = (uint32_t)p->new_axis_mask;
  int num_new = 0;
  for (int i = 0; i < n; ++i) num_new += !(ellipsis >> i & 1) && (new_axis >> i & 1);
  const int rank = in_rank + num_new;
  TF_LITE_ENSURE_MSG(ctx, rank <= SLICE_MAX_DIMS, "sliced rank %d exceeds %d", rank, SLICE_MAX_DIMS);
  uint32_t eff_ellipsis = 0, eff_new = 0;
  int ellipsis_start = rank, expanded = 0;
  for (int i = 0; i < rank;) {
    if (ellipsis >> i & 1) {
      int stop = i + 1 + num_new + in_rank - n;
      stop = stop < rank ? stop : rank;
      stop = stop > i + 1 ? stop : i + 1;
      ellipsis_start = i;
      expanded = stop - i - 1;
      for (; i < stop; ++i) eff_ellipsis |= 1u << i;
      continue;
    }
    if (new_axis >> (i - expanded) & 1) eff_new |= 1u << i;
    ++i;
  }
  int added_ellipsis = 0, added_axes = 0;
  *out_rank = 0;
  for (int i = 0; i < rank; ++i) {
    Axis a = {0, 0, 1, 0, 0, 0, 1};
    int src = i - added_axes;
    if (eff_ellipsis >> i & 1) {
      added_ellipsis = i - ellipsis_start;
      a.begin_mask = a.end_mask = 1;
    } else if (eff_new >> i & 1) {
      a.end = 1;
      src = -1;
      ++added_axes;
    } else if (i >= n + expanded) {
      a.begin_mask = a.end_mask = 1;
    } else {
      const int k = i - added_ellipsis;
      TF_LITE_ENSURE_MSG(ctx, k >= 0 && k < n, "masks do not match the %d slice indices", n);
      a.begin = index_value(begin, k);
      a.end = index_value(end, k);
      a.stride = (int)index_value(strides, k);
      a.begin_mask = p->begin_mask >> k & 1;
      a.end_mask = p->end_mask >> k & 1;
      a.shrink = p->shrink_axis_mask >> k & 1;
      TF_LITE_ENSURE_MSG(ctx, a.stride != 0 && a.stride != INT32_MIN, "stride %d of index %d is not supported",
                         a.stride, k);
    }
    if (src >= 0) {
      TF_LITE_ENSURE_MSG(ctx, src < in_rank, "masks do not match the input rank %d", in_rank);
      a.size = tff_dim(in, src);
    }
    if (xnnpack) {
      resolve_axis_xnnpack(&a, p->offset, &d->start[i], &d->count[i]);
    } else {
      TF_LITE_ENSURE_OK(ctx, resolve_axis(ctx, &a, p->offset, i, &d->start[i], &d->count[i]));
    }
    d->step[i] = a.shrink ? 1 : a.stride;
    d->stride[i] = (size_t)a.size; /* turned into element strides below */
    if (!a.shrink) out_dims[(*out_rank)++] = d->count[i];
  }
  size_t s = 1;
  for (int i = rank - 1; i >= 0; --i) {
    const size_t size = d->stride[i];
    d->stride[i] = s;
    s *= size;
  }
  d->rank = rank;
  return kTfLiteOk;
}

/* While the innermost dim is taken whole (start 0, step 1, every index), it
 * folds into the next one: an element becomes that whole row, so a slice of
 * whole rows (streaming models keep the tail of a state buffer this way) is
 * one memcpy instead of one per row. The innermost stride stays 1. */
static void merge_rows(OpData* d) {
  while (d->rank > 1) {
    const int last = d->rank - 1;
    const size_t n = (size_t)d->count[last];
    if (d->start[last] != 0 || d->step[last] != 1 || n == 0 || n != d->stride[last - 1]) return;
    d->elem *= n;
    for (int k = 0; k < last; ++k) d->stride[k] /= n;
    d->rank = last;
  }
}

/* A slice that is one contiguous run of the input (every dim but the last
 * at one index, the last at step 1: a streaming model's state tail) is one
 * copy at an offset known at prepare, where slice() would walk its rows. */
static void find_run(OpData* d) {
  d->run_at = d->run_bytes = 0;
  const int last = d->rank - 1;
  if (d->rank == 0 || d->step[last] != 1 || d->count[last] == 0) return;
  ptrdiff_t at = d->start[last];
  for (int k = 0; k < last; ++k) {
    if (d->count[k] != 1) return;
    at += (ptrdiff_t)d->start[k] * (ptrdiff_t)d->stride[k];
  }
  d->run_at = (size_t)at * d->elem;
  d->run_bytes = (size_t)d->count[last] * d->elem;
}

/* Copies n elements taken `step` apart (type-agnostic, by element size). */
static void gather(char* dst, const char* src, int n, int step, size_t elem) {
  if (step == 1) {
    tff_copy(dst, src, (size_t)n * elem);
    return;
  }
  const ptrdiff_t jump = (ptrdiff_t)step * (ptrdiff_t)elem;
  for (int j = 0; j < n; ++j, dst += elem, src += jump) memcpy(dst, src, elem);
}

static void slice(const OpData* d, const char* in, char* out) {
  if (d->rank == 0) {
    memcpy(out, in, d->elem);
    return;
  }
  const int last = d->rank - 1;
  if (d->count[last] == 0) return;
  size_t rows = 1;
  for (int k = 0; k < last; ++k) rows *= (size_t)d->count[k];
  int idx[SLICE_MAX_DIMS] = {0};
  for (size_t r = 0; r < rows; ++r) {
    ptrdiff_t at = d->start[last];
    for (int k = 0; k < last; ++k) {
      at += ((ptrdiff_t)d->start[k] + (ptrdiff_t)idx[k] * d->step[k]) * (ptrdiff_t)d->stride[k];
    }
    gather(out, in + at * (ptrdiff_t)d->elem, d->count[last], d->step[last], d->elem);
    out += (size_t)d->count[last] * d->elem;
    for (int k = last - 1; k >= 0 && ++idx[k] == d->count[k]; --k) idx[k] = 0;
  }
}

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus check_index_tensor(TfLiteContext* ctx, TfLiteNode* node, int i, int n) {
  static const char* const kNames[] = {"", "begin", "end", "strides"};
  const TfLiteTensor* t = tff_input(ctx, node, i);
  TF_LITE_ENSURE(ctx, t != NULL);
  TF_LITE_ENSURE_MSG(ctx, t->type == kTfLiteInt32 || t->type == kTfLiteInt64,
                     "%s type %s not supported (int32, int64)", kNames[i], TfLiteTypeGetName(t->type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(t) == 1 && tff_dim(t, 0) == n,
                     "%s must be a vector of %d elements like begin", kNames[i], n);
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(t),
                     "%s tensor %d is not constant; dynamic shapes are not supported yet", kNames[i],
                     node->inputs->data[i]);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL && node->builtin_data != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 4);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* begin = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && begin != NULL && out != NULL);
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  d->elem = tff_type_size(in->type);
  TF_LITE_ENSURE_MSG(ctx, d->elem > 0, "type %s not supported", TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(begin) == 1 && tff_dim(begin, 0) <= 31,
                     "begin must be a vector of at most 31 elements");
  for (int i = 1; i <= 3; ++i) TF_LITE_ENSURE_OK(ctx, check_index_tensor(ctx, node, i, tff_dim(begin, 0)));
  int dims[SLICE_MAX_DIMS], rank;
  TF_LITE_ENSURE_OK(ctx, build(ctx, node, d, dims, &rank));
  merge_rows(d);
  find_run(d);
  if (!tff_is_constant(in)) {
    /* One run: the output may be those bytes of the input (alias.h). */
    if (d->run_bytes) tff_view_offer(ctx, node->outputs->data[0], node->inputs->data[0], d->run_at);
    return tff_resize_output(ctx, out, rank, dims);
  }
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, rank, dims));
  slice(d, in->data.raw_const, out->data.raw);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const OpData* d = (const OpData*)node->user_data;
  if (out->allocation_type == kTfLitePersistentRo) return kTfLiteOk;
  const char* in = tff_input(ctx, node, 0)->data.raw_const;
  if (d->run_bytes) {
    if (out->data.raw != in + d->run_at) tff_copy(out->data.raw, in + d->run_at, d->run_bytes);
  } else
    slice(d, in, out->data.raw);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_STRIDED_SLICE(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinStridedSlice,
                                       .version = 1};
  return &r;
}
