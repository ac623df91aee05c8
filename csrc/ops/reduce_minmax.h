/* REDUCE_MAX and REDUCE_MIN (TFLite reduce.cc EvalGeneric): float32, int32,
 * int64, int8, uint8, int16 and, in reference numerics, bool (TFLite's
 * optimized kernel fails on bool). Codes are compared as they are, so
 * quantized tensors need the output's scale and zero point to equal the
 * input's (int16: zero point 0) -- except where AUTO gives int8/uint8 to
 * XNNPACK, which compares codes whatever the quantization. */
#ifndef TFLITE_FAST_OPS_REDUCE_MINMAX_H_
#define TFLITE_FAST_OPS_REDUCE_MINMAX_H_

#include <float.h>
#include <stdbool.h>

#include "reduce_common.h"

#define TFF_MAX_FOLD(a, x) ((x) > (a) ? (x) : (a))
#define TFF_MIN_FOLD(a, x) ((x) < (a) ? (x) : (a))
TFF_REDUCE_ROW(tff_max_f32, float, float, TFF_MAX_FOLD)
TFF_REDUCE_ROW(tff_max_i32, int32_t, int32_t, TFF_MAX_FOLD)
TFF_REDUCE_ROW(tff_max_i64, int64_t, int64_t, TFF_MAX_FOLD)
TFF_REDUCE_ROW(tff_max_s8, int8_t, int8_t, TFF_MAX_FOLD)
TFF_REDUCE_ROW(tff_max_u8, uint8_t, uint8_t, TFF_MAX_FOLD)
TFF_REDUCE_ROW(tff_max_s16, int16_t, int16_t, TFF_MAX_FOLD)
TFF_REDUCE_ROW(tff_max_b, bool, bool, TFF_MAX_FOLD)
TFF_REDUCE_ROW(tff_min_f32, float, float, TFF_MIN_FOLD)
TFF_REDUCE_ROW(tff_min_i32, int32_t, int32_t, TFF_MIN_FOLD)
TFF_REDUCE_ROW(tff_min_i64, int64_t, int64_t, TFF_MIN_FOLD)
TFF_REDUCE_ROW(tff_min_s8, int8_t, int8_t, TFF_MIN_FOLD)
TFF_REDUCE_ROW(tff_min_u8, uint8_t, uint8_t, TFF_MIN_FOLD)
TFF_REDUCE_ROW(tff_min_s16, int16_t, int16_t, TFF_MIN_FOLD)
TFF_REDUCE_ROW(tff_min_b, bool, bool, TFF_MIN_FOLD)

typedef struct tff_minmax {
  tff_reduce r;
  int is_max;
  tff_reduce_row_fn row;
} tff_minmax;

static inline void* tff_minmax_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  return calloc(1, sizeof(tff_minmax));
}

static inline TfLiteStatus tff_minmax_prepare(TfLiteContext* ctx, TfLiteNode* node, int is_max) {
  tff_minmax* d = (tff_minmax*)node->user_data;
  const char* op = is_max ? "REDUCE_MAX" : "REDUCE_MIN";
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_OK(ctx, tff_reduce_prepare(ctx, node, op, &d->r));
  d->is_max = is_max;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  switch (in->type) {
    case kTfLiteFloat32: d->row = is_max ? tff_max_f32 : tff_min_f32; break;
    case kTfLiteInt32: d->row = is_max ? tff_max_i32 : tff_min_i32; break;
    case kTfLiteInt64: d->row = is_max ? tff_max_i64 : tff_min_i64; break;
    case kTfLiteInt8: d->row = is_max ? tff_max_s8 : tff_min_s8; break;
    case kTfLiteUInt8: d->row = is_max ? tff_max_u8 : tff_min_u8; break;
    case kTfLiteInt16: d->row = is_max ? tff_max_s16 : tff_min_s16; break;
    case kTfLiteBool:
      TF_LITE_ENSURE_OK(ctx, tff_reduce_bool_ref_only(ctx, op));
      d->row = is_max ? tff_max_b : tff_min_b;
      break;
    default:
      TF_LITE_KERNEL_LOG(ctx, "%s: type %s not supported", op, TfLiteTypeGetName(in->type));
      return kTfLiteError;
  }
  const int q = in->type == kTfLiteInt8 || in->type == kTfLiteUInt8 || in->type == kTfLiteInt16;
  if (in->type == kTfLiteInt16) {
    TF_LITE_ENSURE_MSG(ctx, in->params.zero_point == 0 && out->params.zero_point == 0,
                       "%s: int16 zero points must be 0", op);
  }
  if (q && !(in->type != kTfLiteInt16 && tff_reduce_xnn(ctx, node))) {
    TF_LITE_ENSURE_MSG(ctx, in->params.scale == out->params.scale &&
                                in->params.zero_point == out->params.zero_point,
                       "%s: output quantization (%g, %d) differs from the input's (%g, %d)", op,
                       (double)out->params.scale, (int)out->params.zero_point,
                       (double)in->params.scale, (int)in->params.zero_point);
  }
  return kTfLiteOk;
}

/* Fills the output with the identity of the reduction, then folds. */
static inline TfLiteStatus tff_minmax_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const tff_minmax* d = (const tff_minmax*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int mx = d->is_max;
  const size_t n = d->r.out_count;
  for (size_t i = 0; i < n; ++i) {
    switch (in->type) {
      case kTfLiteFloat32: out->data.f[i] = mx ? -FLT_MAX : FLT_MAX; break;
      case kTfLiteInt32: out->data.i32[i] = mx ? INT32_MIN : INT32_MAX; break;
      case kTfLiteInt64: out->data.i64[i] = mx ? INT64_MIN : INT64_MAX; break;
      case kTfLiteInt8: out->data.int8[i] = mx ? INT8_MIN : INT8_MAX; break;
      case kTfLiteUInt8: out->data.uint8[i] = mx ? 0 : UINT8_MAX; break;
      case kTfLiteInt16: out->data.i16[i] = mx ? INT16_MIN : INT16_MAX; break;
      default: out->data.b[i] = !mx; break;
    }
  }
  const size_t elem = tff_type_size(in->type);
  tff_reduce_walk(&d->r, in->data.raw_const, elem, out->data.raw, elem, d->row, NULL);
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_REDUCE_MINMAX_H_ */
