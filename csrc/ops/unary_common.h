/* Shared by the one-input elementwise ops (RELU, RELU6, LOGISTIC,
 * HARD_SWISH, QUANTIZE, DEQUANTIZE and others): prepare checks, the 8-bit
 * lookup table, and the RELU family.
 *
 * Why tables: an op from int8/uint8 to int8/uint8 has only 256 distinct
 * inputs, so prepare evaluates the exact TFLite or XNNPACK formula once per
 * code and invoke is a gather. Which formula fills the table is all that
 * differs between the numerics modes (XNNPACK builds its LUT ops the same
 * way, from its reference kernel).
 */
#ifndef TFLITE_FAST_OPS_UNARY_COMMON_H_
#define TFLITE_FAST_OPS_UNARY_COMMON_H_

#include <stdlib.h>

#include "kernel_util.h"

/* Checks one present input and output; shapes the output like the input. */
static inline TfLiteStatus tff_unary_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                             const char* name, TfLiteTensor** in,
                                             TfLiteTensor** out) {
  TF_LITE_ENSURE_MSG(ctx, node->user_data != NULL, "%s: out of memory", name);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == 1,
                     "%s: expected 1 input and 1 output, got %d and %d", name,
                     tff_num_inputs(node), tff_num_outputs(node));
  *in = tff_input(ctx, node, 0);
  *out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, *in && *out, "%s: the input or the output is missing", name);
  return tff_resize_output(ctx, *out, (*in)->dims->size, (*in)->dims->data);
}

/* Code range of the quantized types these ops take; 0 (and [0, 0]) for
 * other types. */
static inline int tff_int_range(TfLiteType type, int32_t* lo, int32_t* hi) {
  *lo = *hi = 0;
  switch (type) {
    case kTfLiteInt8: *lo = INT8_MIN, *hi = INT8_MAX; return 1;
    case kTfLiteUInt8: *hi = UINT8_MAX; return 1;
    case kTfLiteInt16: *lo = INT16_MIN, *hi = INT16_MAX; return 1;
    default: return 0;
  }
}

/* out[i] = lut[in[i]] over 8-bit codes (int8 read as its uint8 bits). */
static inline void tff_lut8_run(const uint8_t* lut, const uint8_t* in, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = lut[in[i]];
}

/* OpData of RELU, RELU6, LOGISTIC and HARD_SWISH: float bounds (RELU
 * family) and the table of the 8-bit types. */
typedef struct tff_unary_data {
  float lo, hi;
  uint8_t lut[256];
} tff_unary_data;

TFF_ZEROED_INIT(tff_unary_init, tff_unary_data)

/* = tff_free_user_data (kept for the ops that name it). */
static inline void tff_unary_free(TfLiteContext* ctx, void* data) { tff_free_user_data(ctx, data); }

/* Invoke of an int8/uint8 op prepared as a table. */
static inline void tff_unary_lut_run(const TfLiteNode* node, const TfLiteTensor* in,
                                     TfLiteTensor* out) {
  const tff_unary_data* d = (const tff_unary_data*)node->user_data;
  tff_lut8_run(d->lut, in->data.uint8, out->data.uint8, tff_num_elements(in->dims));
}

/* Invoke head of the ops that are a table for 8-bit types and a float32
 * loop otherwise: runs the table and returns 0, or for float32 sets the
 * input x, output y and length n and returns 1. */
static inline int tff_unary_float_or_lut(TfLiteContext* ctx, const TfLiteNode* node,
                                         const float** x, float** y, size_t* n) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (in->type != kTfLiteFloat32) {
    tff_unary_lut_run(node, in, out);
    return 0;
  }
  *x = in->data.f;
  *y = out->data.f;
  *n = tff_num_elements(in->dims);
  return 1;
}

/* ---- RELU family (TFLite activations.cc ReluPrepare + QuantizedReluX) ----
 * Float: clamp to [lo, hi]. int8/uint8: requantize from the input to the
 * output scale with MBQM (double rounding) and clamp to the activation's
 * TFLite bounds; XNNPACK does not take quantized RELUs, so both modes agree.
 * `act` is kTfLiteActRelu or kTfLiteActRelu6. */
static inline TfLiteStatus tff_relu_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                            const char* name, TfLiteFusedActivation act) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, name, &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "%s: input type %s and output type %s differ",
                     name, TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  tff_unary_data* d = (tff_unary_data*)node->user_data;
  if (in->type == kTfLiteFloat32) {
    tff_act_range_float(act, &d->lo, &d->hi);
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "%s: type %s is not supported (float32, int8, uint8)", name,
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "output", out));
  /* The ratio is a float division, widened (ReluPrepare). */
  const float ratio = tff_scale(in) / tff_scale(out);
  int32_t m, lo, hi, qmin, qmax;
  int e;
  tff_quantize_multiplier((double)ratio, &m, &e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(ratio) && e <= 30 &&
                          (act == kTfLiteActRelu || 6.0f / tff_scale(out) < 2147483648.0f),
                     "%s: input scale %g and output scale %g are too far apart", name,
                     (double)tff_scale(in), (double)tff_scale(out));
  TF_LITE_ENSURE_OK(ctx, tff_act_range_quant(ctx, act, out, &lo, &hi));
  tff_int_range(in->type, &qmin, &qmax);
  const int32_t zi = tff_zero_point(in), zo = tff_zero_point(out);
  for (int32_t v = qmin; v <= qmax; ++v) {
    const int32_t o = tff_mbqm(v - zi, m, e) + zo;
    d->lut[(uint8_t)v] = (uint8_t)(o < lo ? lo : (o > hi ? hi : o));
  }
  return kTfLiteOk;
}

static inline TfLiteStatus tff_relu_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const tff_unary_data* d = (const tff_unary_data*)node->user_data;
  const float* x;
  float* y;
  size_t n;
  if (!tff_unary_float_or_lut(ctx, node, &x, &y, &n)) return kTfLiteOk;
  /* Output and input share a buffer only when the producer of the input
   * took this activation (runtime/fuse.h): the values are already final. */
  if (x == y) return kTfLiteOk;
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i] < d->lo ? d->lo : x[i];
    y[i] = v > d->hi ? d->hi : v;
  }
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_UNARY_COMMON_H_ */
