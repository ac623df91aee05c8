/* DEQUANTIZE to float32: int8/uint8/int16 as (q − z)·s, per tensor or, for
 * int8/uint8, per channel along quantized_dimension; float16 converted
 * exactly (subnormals, infinities and NaN payloads included).
 *
 * One formula serves both modes: q − z is exact in float, so f32(q − z)·s
 * is the single rounding that TFLite's f32((double)s·(q − z)) and XNNPACK's
 * (f32(q) − z)·s both make.
 *
 * A constant input (the float16 or int8 weights of a model) is converted
 * once at prepare into a persistent output, as TFLite does; invoke then
 * skips the node.
 */
#include <string.h>

#include "ops.h"
#include "ukernels/f16-f32-vcvt/f16-f32-vcvt.h"
#include "unary_common.h"

typedef struct OpData {
  int axis;              /* quantized dimension, -1 when per tensor */
  size_t outer, channels, inner;
  tff_f16_f32_vcvt_ukernel* f16; /* float16 input */
} OpData;

/* out[i] = f32(q[i] − z)·s over [begin, end). */
#define DEQUANTIZE_LOOP(q, z, s, out, begin, end) \
  for (size_t i = (begin); i < (end); ++i) (out)[i] = (float)((int32_t)(q)[i] - (z)) * (s)

static void run(const OpData* d, const TfLiteTensor* in, float* out) {
  if (in->type == kTfLiteFloat16) {
    d->f16(d->outer * d->channels * d->inner, (const uint16_t*)in->data.f16, out);
    return;
  }
  const TfLiteAffineQuantization* q = tff_affine(in);
  for (size_t o = 0; o < d->outer; ++o) {
    for (size_t c = 0; c < d->channels; ++c) {
      const size_t begin = (o * d->channels + c) * d->inner, end = begin + d->inner;
      const float s = d->axis < 0 ? tff_scale(in) : q->scale->data[c];
      const int32_t z = d->axis < 0 ? tff_zero_point(in) : q->zero_point->data[c];
      switch (in->type) {
        case kTfLiteInt8: DEQUANTIZE_LOOP(in->data.int8, z, s, out, begin, end); break;
        case kTfLiteUInt8: DEQUANTIZE_LOOP(in->data.uint8, z, s, out, begin, end); break;
        default: DEQUANTIZE_LOOP(in->data.i16, z, s, out, begin, end); break;
      }
    }
  }
}

/* Per-channel parameters: one scale and zero point per index of the
 * quantized dimension, zero points codes of the input type. */
static TfLiteStatus prepare_per_channel(TfLiteContext* ctx, const TfLiteTensor* in,
                                        const TfLiteAffineQuantization* q, OpData* d) {
  const int axis = q->quantized_dimension;
  TF_LITE_ENSURE_MSG(ctx, in->type != kTfLiteInt16,
                     "DEQUANTIZE: per-channel int16 input is not supported");
  TF_LITE_ENSURE_MSG(ctx, axis >= 0 && axis < tff_rank(in),
                     "DEQUANTIZE: quantized dimension %d is outside the input's %d dims", axis,
                     tff_rank(in));
  TF_LITE_ENSURE_MSG(ctx, q->scale->size == tff_dim(in, axis) && q->zero_point != NULL &&
                              q->zero_point->size == q->scale->size,
                     "DEQUANTIZE: %d scales and %d zero points for dim %d of size %d",
                     q->scale->size, q->zero_point ? q->zero_point->size : 0, axis,
                     tff_dim(in, axis));
  int32_t lo, hi;
  tff_int_range(in->type, &lo, &hi);
  for (int c = 0; c < q->scale->size; ++c) {
    TF_LITE_ENSURE_MSG(ctx, q->zero_point->data[c] >= lo && q->zero_point->data[c] <= hi,
                       "DEQUANTIZE: zero point %d of channel %d is outside [%d, %d]",
                       q->zero_point->data[c], c, (int)lo, (int)hi);
  }
  d->axis = axis;
  d->outer = d->inner = 1;
  for (int i = 0; i < axis; ++i) d->outer *= (size_t)tff_dim(in, i);
  for (int i = axis + 1; i < tff_rank(in); ++i) d->inner *= (size_t)tff_dim(in, i);
  d->channels = (size_t)tff_dim(in, axis);
  return kTfLiteOk;
}

static TfLiteStatus prepare_quantized(TfLiteContext* ctx, const TfLiteTensor* in, OpData* d) {
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8 ||
                              in->type == kTfLiteInt16,
                     "DEQUANTIZE: input type %s is not supported (int8, uint8, int16, float16)",
                     TfLiteTypeGetName(in->type));
  const TfLiteAffineQuantization* q = tff_affine(in);
  TF_LITE_ENSURE_MSG(ctx, q != NULL && q->scale != NULL && q->scale->size >= 1,
                     "DEQUANTIZE: the input has no affine quantization");
  if (q->scale->size > 1) return prepare_per_channel(ctx, in, q, d);
  TF_LITE_ENSURE_MSG(ctx, q->zero_point != NULL && q->zero_point->size >= 1,
                     "DEQUANTIZE: the input has no zero point");
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "DEQUANTIZE", "input", in));
  TF_LITE_ENSURE_MSG(ctx, in->type != kTfLiteInt16 || tff_zero_point(in) == 0,
                     "DEQUANTIZE: int16 input zero point %d must be 0", (int)tff_zero_point(in));
  return kTfLiteOk;
}

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "DEQUANTIZE", &in, &out));
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, out->type == kTfLiteFloat32,
                     "DEQUANTIZE: output type %s is not supported (float32)",
                     TfLiteTypeGetName(out->type));
  d->axis = -1; /* per tensor: one channel of every element */
  d->outer = d->channels = 1;
  d->inner = tff_num_elements(in->dims);
  d->f16 = tff_f16_f32_vcvt_select(tff_cpu_effective())->fn;
  if (in->type != kTfLiteFloat16) TF_LITE_ENSURE_OK(ctx, prepare_quantized(ctx, in, d));
  if (!tff_inputs_constant(ctx, node)) return kTfLiteOk;
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, in->dims->size, in->dims->data));
  run(d, in, out->data.f);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLitePersistentRo) return kTfLiteOk; /* done at prepare */
  run((const OpData*)node->user_data, tff_input(ctx, node, 0), out->data.f);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_DEQUANTIZE(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinDequantize,
                                       .version = 1};
  return &r;
}
