/* PAD and PADV2: constant padding of every fixed-size type (TFLite pad.cc,
 * one kernel for both codes). paddings is an int32 or int64 [rank, 2] tensor
 * of (before, after) counts; when it is computed, the output is dynamic and
 * sized at invoke. The pad value is the optional third input (PADV2's
 * constant_values, quantized as the output), else the output zero point (0
 * for float types): real 0 for quantized tensors, whose codes are copied as
 * they are. */
#include "kernel_util.h"
#include "ops.h"
#include "pad_common.h"

#define PAD_MAX_DIMS 8

typedef struct OpData {
  int rank;
  int in_dims[PAD_MAX_DIMS], out_dims[PAD_MAX_DIMS], before[PAD_MAX_DIMS];
  size_t elem;
  char value[8]; /* the pad element when there is no third input */
} OpData;

/* n elements of `value`; 4-byte elements (float32, int32) as one word each
 * rather than a memcpy call each: a channel pad fills a few per row. */
static void fill(char* dst, const char* value, size_t n, size_t elem) {
  if (elem == 1) {
    memset(dst, value[0], n);
    return;
  }
  if (elem == 4) {
    uint32_t v;
    memcpy(&v, value, 4);
    for (size_t i = 0; i < n; ++i) memcpy(dst + i * 4, &v, 4);
    return;
  }
  for (size_t i = 0; i < n; ++i) memcpy(dst + i * elem, value, elem);
}

/* The zero point as an element of the output type (0 for float types). */
static TfLiteStatus zero_point_value(TfLiteContext* ctx, const TfLiteTensor* out, char* value) {
  const int32_t zp = tff_zero_point(out);
  const int is_float = out->type == kTfLiteFloat32 || out->type == kTfLiteFloat16 ||
                       out->type == kTfLiteFloat64 || out->type == kTfLiteBFloat16;
  int32_t lo = INT32_MIN, hi = INT32_MAX;
  if (out->type == kTfLiteInt8) lo = INT8_MIN, hi = INT8_MAX;
  if (out->type == kTfLiteUInt8) lo = 0, hi = UINT8_MAX;
  if (out->type == kTfLiteInt16) lo = INT16_MIN, hi = INT16_MAX;
  TF_LITE_ENSURE_MSG(ctx, zp >= lo && zp <= hi, "zero point %d out of range for %s", (int)zp,
                     TfLiteTypeGetName(out->type));
  const int64_t v = is_float ? 0 : zp;
  const int8_t v8 = (int8_t)v;
  const int16_t v16 = (int16_t)v;
  const int32_t v32 = (int32_t)v;
  switch (tff_type_size(out->type)) {
    case 1: memcpy(value, &v8, 1); break;
    case 2: memcpy(value, &v16, 2); break;
    case 4: memcpy(value, &v32, 4); break;
    default: memcpy(value, &v, 8); break;
  }
  return kTfLiteOk;
}

static TfLiteStatus check_pad_value(TfLiteContext* ctx, const TfLiteTensor* value,
                                    const TfLiteTensor* out) {
  TF_LITE_ENSURE_TYPES_EQ(ctx, value->type, out->type);
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(value->dims) == 1, "pad value must have 1 element");
  TF_LITE_ENSURE_MSG(ctx, tff_scale(value) == tff_scale(out) &&
                              tff_zero_point(value) == tff_zero_point(out),
                     "pad value quantization differs from the output's");
  return kTfLiteOk;
}

void* tff_pad_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  return calloc(1, sizeof(OpData));
}

/* Output geometry from the paddings (at prepare when constant, else at
 * invoke). */
static TfLiteStatus geometry(TfLiteContext* ctx, const TfLiteNode* node, OpData* d) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* pads = tff_input(ctx, node, 1);
  for (int i = 0; i < d->rank; ++i) {
    const int64_t before = tff_index_at(pads, 2 * i), after = tff_index_at(pads, 2 * i + 1);
    const int64_t dim = (int64_t)tff_dim(in, i) + before + after;
    TF_LITE_ENSURE_MSG(ctx, before >= 0 && after >= 0 && dim <= INT32_MAX,
                       "paddings (%lld, %lld) of dim %d are negative or too large",
                       (long long)before, (long long)after, i);
    d->in_dims[i] = tff_dim(in, i);
    d->before[i] = (int)before;
    d->out_dims[i] = (int)dim;
  }
  return kTfLiteOk;
}

TfLiteStatus tff_pad_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE(ctx, tff_num_inputs(node) == 2 || tff_num_inputs(node) == 3);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* pads = tff_input(ctx, node, 1);
  const TfLiteTensor* value = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && pads != NULL && out != NULL);
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  d->elem = tff_type_size(in->type);
  TF_LITE_ENSURE_MSG(ctx, d->elem > 0, "type %s not supported", TfLiteTypeGetName(in->type));
  d->rank = tff_rank(in);
  TF_LITE_ENSURE_MSG(ctx, d->rank <= PAD_MAX_DIMS, "rank %d exceeds %d", d->rank, PAD_MAX_DIMS);
  TF_LITE_ENSURE_MSG(ctx, pads->type == kTfLiteInt32 || pads->type == kTfLiteInt64,
                     "paddings type %s not supported (int32, int64)",
                     TfLiteTypeGetName(pads->type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(pads) == 2 && tff_dim(pads, 0) == d->rank && tff_dim(pads, 1) == 2,
                     "paddings must have shape [%d, 2]", d->rank);
  if (value != NULL) {
    TF_LITE_ENSURE_OK(ctx, check_pad_value(ctx, value, out));
  } else {
    TF_LITE_ENSURE_OK(ctx, zero_point_value(ctx, out, d->value));
  }
  if (!tff_is_constant(pads)) { /* computed paddings: sized at invoke (TFLite) */
    out->allocation_type = kTfLiteDynamic;
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(ctx, geometry(ctx, node, d));
  return tff_resize_output(ctx, out, d->rank, d->out_dims);
}

TfLiteStatus tff_pad_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TfLiteTensor* out_t = tff_output(ctx, node, 0);
  if (out_t->allocation_type == kTfLiteDynamic) {
    TF_LITE_ENSURE_OK(ctx, geometry(ctx, node, d));
    TF_LITE_ENSURE_OK(ctx, tff_resize_dynamic(ctx, out_t, d->rank, d->out_dims));
  }
  const char* in = tff_input(ctx, node, 0)->data.raw_const;
  const TfLiteTensor* value_tensor = tff_input(ctx, node, 2);
  const char* value = value_tensor != NULL ? value_tensor->data.raw_const : d->value;
  char* out = out_t->data.raw;
  const size_t es = d->elem;
  if (d->rank == 0) {
    memcpy(out, in, es);
    return kTfLiteOk;
  }
  /* One output row (innermost dim) at a time: all pad, or pad-input-pad. */
  const int last = d->rank - 1;
  const size_t out_row = (size_t)d->out_dims[last] * es, in_row = (size_t)d->in_dims[last] * es;
  const size_t rows = out_row ? tff_num_elements(out_t->dims) / (size_t)d->out_dims[last] : 0;
  int idx[PAD_MAX_DIMS] = {0};
  for (size_t r = 0; r < rows; ++r, out += out_row) {
    int inside = 1;
    size_t at = 0;
    for (int k = 0; k < last; ++k) {
      const int i = idx[k] - d->before[k];
      inside &= i >= 0 && i < d->in_dims[k];
      at = at * (size_t)d->in_dims[k] + (size_t)i;
    }
    if (inside) {
      const size_t pre = (size_t)d->before[last] * es;
      fill(out, value, pre / es, es);
      memcpy(out + pre, in + at * in_row, in_row);
      fill(out + pre + in_row, value, (out_row - pre - in_row) / es, es);
    } else {
      fill(out, value, out_row / es, es);
    }
    for (int k = last - 1; k >= 0 && ++idx[k] == d->out_dims[k]; --k) idx[k] = 0;
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_PAD(void) {
  static const TfLiteRegistration r = {.init = tff_pad_init,
                                       .free = tff_free_user_data,
                                       .prepare = tff_pad_prepare,
                                       .invoke = tff_pad_invoke,
                                       .builtin_code = kTfLiteBuiltinPad,
                                       .version = 1};
  return &r;
}
