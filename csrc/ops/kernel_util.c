/* Shared op helpers; see kernel_util.h. */
#include "kernel_util.h"

#include <limits.h>
#include <stdlib.h>

/* Invoke paths call this, so no division on the common path: while n fits
 * 32 bits, n*d (d < 2^31) is exact in 64 bits and is compared afterwards. */
size_t tff_num_elements(const TfLiteIntArray* dims) {
  uint64_t n = 1;
  for (int i = 0; i < dims->size; ++i) {
    const int d = dims->data[i];
    if (d <= 0) return 0;
    if ((n >> 32) != 0 && n > UINT64_MAX / (uint64_t)d) return SIZE_MAX / 2;
    n *= (uint64_t)d;
    if (n > SIZE_MAX / 2) return SIZE_MAX / 2;
  }
  return (size_t)n;
}

TfLiteStatus tff_resize_output(TfLiteContext* ctx, TfLiteTensor* t, int rank, const int* dims) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(rank);
  if (a == NULL) {
    TF_LITE_KERNEL_LOG(ctx, "out of memory");
    return kTfLiteError;
  }
  for (int i = 0; i < rank; ++i) a->data[i] = dims[i];
  return ctx->ResizeTensor(ctx, t, a);
}

void tff_quantize_multiplier(double d, int32_t* multiplier, int* shift) {
  if (d == 0.0 || !isfinite(d)) {
    *multiplier = 0;
    *shift = 0;
    return;
  }
  int e;
  const double f = frexp(d, &e);
  int64_t m = (int64_t)round(f * (double)(1LL << 31));
  if (m == (1LL << 31)) {
    m /= 2;
    ++e;
  }
  if (e < -31) {
    m = 0;
    e = 0;
  }
  *multiplier = (int32_t)m;
  *shift = e;
}

void tff_act_range_float(TfLiteFusedActivation act, float* lo, float* hi) {
  switch (act) {
    case kTfLiteActRelu: *lo = 0.0f; *hi = INFINITY; break;
    case kTfLiteActRelu6: *lo = 0.0f; *hi = 6.0f; break;
    case kTfLiteActReluN1To1: *lo = -1.0f; *hi = 1.0f; break;
    default: *lo = -INFINITY; *hi = INFINITY; break;
  }
}

static void type_range(TfLiteType type, int32_t* qmin, int32_t* qmax) {
  switch (type) {
    case kTfLiteUInt8: *qmin = 0; *qmax = 255; break;
    case kTfLiteInt16: *qmin = INT16_MIN; *qmax = INT16_MAX; break;
    case kTfLiteInt32: *qmin = INT32_MIN; *qmax = INT32_MAX; break;
    default: *qmin = -128; *qmax = 127; break;
  }
}

TfLiteStatus tff_act_range_quant(TfLiteContext* ctx, TfLiteFusedActivation act,
                                 const TfLiteTensor* output, int32_t* lo, int32_t* hi) {
  int32_t qmin, qmax;
  type_range(output->type, &qmin, &qmax);
  const float s = output->params.scale;
  const int32_t z = output->params.zero_point;
#define Q(f) (z + (int32_t)roundf((f) / s))
  switch (act) {
    case kTfLiteActNone: *lo = qmin; *hi = qmax; break;
    case kTfLiteActRelu: *lo = Q(0.0f) > qmin ? Q(0.0f) : qmin; *hi = qmax; break;
    case kTfLiteActRelu6:
      *lo = Q(0.0f) > qmin ? Q(0.0f) : qmin;
      *hi = Q(6.0f) < qmax ? Q(6.0f) : qmax;
      break;
    case kTfLiteActReluN1To1:
      *lo = Q(-1.0f) > qmin ? Q(-1.0f) : qmin;
      *hi = Q(1.0f) < qmax ? Q(1.0f) : qmax;
      break;
    default:
      TF_LITE_KERNEL_LOG(ctx, "Unsupported fused activation %d for a quantized output", (int)act);
      return kTfLiteError;
  }
#undef Q
  return kTfLiteOk;
}

void tff_act_range_quant_xnn(TfLiteFusedActivation act, float scale, int32_t zp,
                             int32_t qmin, int32_t qmax, int32_t* lo, int32_t* hi) {
  float flo, fhi;
  tff_act_range_float(act, &flo, &fhi);
  float a = flo / scale + (float)zp, b = fhi / scale + (float)zp;
  a = a < (float)qmin ? (float)qmin : (a > (float)qmax ? (float)qmax : a);
  b = b < (float)qmin ? (float)qmin : (b > (float)qmax ? (float)qmax : b);
  *lo = (int32_t)lrintf(a);
  *hi = (int32_t)lrintf(b);
}

TfLiteStatus tff_scratch_request(TfLiteContext* ctx, TfLiteNode* node, int slot, size_t bytes) {
  if (node->temporaries == NULL || node->temporaries->size <= slot) {
    const int old = node->temporaries ? node->temporaries->size : 0;
    TfLiteIntArray* t = TfLiteIntArrayCreate(slot + 1);
    if (t == NULL) return kTfLiteError;
    for (int i = 0; i < slot + 1; ++i) t->data[i] = i < old ? node->temporaries->data[i] : -1;
    TfLiteIntArrayFree(node->temporaries);
    node->temporaries = t;
  }
  if (node->temporaries->data[slot] < 0) {
    int first;
    TF_LITE_ENSURE_OK(ctx, ctx->AddTensors(ctx, 1, &first));
    node->temporaries->data[slot] = first;
    TfLiteTensor* s = &ctx->tensors[first];
    s->type = kTfLiteUInt8;
    s->allocation_type = kTfLiteArenaRw;
  }
  TfLiteTensor* s = &ctx->tensors[node->temporaries->data[slot]];
  if (bytes > (size_t)INT_MAX) {
    TF_LITE_KERNEL_LOG(ctx, "scratch buffer of %zu bytes is too large", bytes);
    return kTfLiteError;
  }
  const int n = (int)(bytes ? bytes : 1);
  return tff_resize_output(ctx, s, 1, &n);
}

int tff_conv_out_size(TfLitePadding padding, int in, int filter, int stride, int dilation) {
  const int eff = (filter - 1) * dilation + 1;
  if (stride <= 0) return 0;
  switch (padding) {
    case kTfLitePaddingSame: return (in + stride - 1) / stride;
    case kTfLitePaddingValid: return in >= eff ? (in - eff + stride) / stride : 0;
    default: return 0;
  }
}

int tff_conv_pad(int stride, int dilation, int in, int filter, int out, int* offset) {
  const int eff = (filter - 1) * dilation + 1;
  int total = (out - 1) * stride + eff - in;
  if (total < 0) total = 0;
  *offset = total % 2;
  return total / 2;
}

TfLiteStatus tff_bcast_prepare(TfLiteContext* ctx, const TfLiteIntArray* a,
                               const TfLiteIntArray* b, tff_bcast* out) {
  const int rank = a->size > b->size ? a->size : b->size;
  if (rank > TFF_MAX_BCAST_DIMS) {
    TF_LITE_KERNEL_LOG(ctx, "broadcasting supports at most %d dims, got %d", TFF_MAX_BCAST_DIMS, rank);
    return kTfLiteError;
  }
  out->rank = rank;
  int64_t sa = 1, sb = 1; /* element counts so far; kept below INT_MAX */
  for (int i = rank - 1; i >= 0; --i) {
    const int ia = i - (rank - a->size), ib = i - (rank - b->size);
    const int da = ia >= 0 ? a->data[ia] : 1, db = ib >= 0 ? b->data[ib] : 1;
    if (da != db && da != 1 && db != 1) {
      TF_LITE_KERNEL_LOG(ctx, "Given shapes are not broadcastable: dim %d is %d vs %d", i, da, db);
      return kTfLiteError;
    }
    out->shape[i] = da == 1 ? db : da;
    out->stride_a[i] = da == 1 ? 0 : (int)sa;
    out->stride_b[i] = db == 1 ? 0 : (int)sb;
    sa *= da;
    sb *= db;
    if (sa > INT_MAX || sb > INT_MAX) {
      /* An empty tensor never reads a stride; anything else is too large. */
      if (tff_num_elements(a) == 0 || tff_num_elements(b) == 0) {
        sa = sa > INT_MAX ? 1 : sa;
        sb = sb > INT_MAX ? 1 : sb;
        continue;
      }
      TF_LITE_KERNEL_LOG(ctx, "broadcast operand has more than %d elements", INT_MAX);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

int tff_inputs_constant(TfLiteContext* ctx, const TfLiteNode* node) {
  for (int i = 0; i < node->inputs->size; ++i) {
    const TfLiteTensor* t = tff_input(ctx, node, i);
    if (t != NULL && !tff_is_constant(t)) return 0;
  }
  return 1;
}

TfLiteStatus tff_resize_output_persistent(TfLiteContext* ctx, TfLiteTensor* t, int rank,
                                          const int* dims) {
  t->allocation_type = kTfLitePersistentRo;
  return tff_resize_output(ctx, t, rank, dims);
}

/* Bytes of t's dims from `axis` on: one row's share (a rank-0 t: one). */
static size_t row_bytes(const TfLiteTensor* t, int axis, size_t elem) {
  for (int d = axis; d < t->dims->size; ++d) elem *= (size_t)t->dims->data[d];
  return elem;
}

/* Each of the `outer` rows of the output (its dims before axis) is that row
 * of every input in turn. Products only: a division per input cost more
 * than the copies of a small concatenation. */
static void concat_inputs(TfLiteContext* ctx, const TfLiteNode* node, int axis, TfLiteTensor* out) {
  size_t outer = 1, at = 0;
  if (axis < 0) axis += out->dims->size;
  for (int d = 0; d < axis; ++d) outer *= (size_t)out->dims->data[d];
  const size_t elem = tff_type_size(out->type), row = row_bytes(out, axis, elem);
  if (outer == 0) return;
  for (int i = 0; i < node->inputs->size; ++i) {
    const TfLiteTensor* t = tff_input(ctx, node, i);
    const size_t chunk = row_bytes(t, axis, elem);
    /* An input already in place (a view, alias.h) moves nothing. */
    if (t->data.raw_const != out->data.raw + at)
      for (size_t o = 0; o < outer; ++o)
        tff_copy(out->data.raw + o * row + at, t->data.raw_const + o * chunk, chunk);
    at += chunk;
  }
}

TfLiteStatus tff_concat_prepare_output(TfLiteContext* ctx, const TfLiteNode* node, int axis,
                                       TfLiteTensor* out, int rank, const int* dims) {
  if (!tff_inputs_constant(ctx, node)) return tff_resize_output(ctx, out, rank, dims);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, rank, dims));
  concat_inputs(ctx, node, axis, out);
  return kTfLiteOk;
}

TfLiteStatus tff_concat_invoke(TfLiteContext* ctx, const TfLiteNode* node, int axis) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type != kTfLitePersistentRo) concat_inputs(ctx, node, axis, out);
  return kTfLiteOk;
}

void tff_free_user_data(TfLiteContext* ctx, void* data) {
  (void)ctx;
  free(data);
}

TfLiteStatus tff_check_quant(TfLiteContext* ctx, const char* op, const char* what,
                             const TfLiteTensor* t) {
  int32_t lo, hi;
  type_range(t->type, &lo, &hi);
  const float s = t->params.scale;
  const int32_t z = t->params.zero_point;
  TF_LITE_ENSURE_MSG(ctx, isfinite(s) && s > 0.0f, "%s: %s scale %g must be finite and > 0",
                     op, what, (double)s);
  TF_LITE_ENSURE_MSG(ctx, z >= lo && z <= hi, "%s: %s zero point %d is outside [%d, %d]", op,
                     what, (int)z, (int)lo, (int)hi);
  return kTfLiteOk;
}

TfLiteStatus tff_resize_dynamic(TfLiteContext* ctx, TfLiteTensor* t, int rank, const int* dims) {
  if (t->data.raw != NULL && TfLiteIntArrayEqualsArray(t->dims, rank, dims)) return kTfLiteOk;
  return tff_resize_output(ctx, t, rank, dims);
}
