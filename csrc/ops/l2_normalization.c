/* L2_NORMALIZATION over the last dim (TFLite l2norm.cc): float32
 * x / max(sqrt(sum x^2), 1e-6), and int8/uint8 with output scale 1/128 and
 * zero point 0 (int8) or 128 (uint8), in TFLite's fixed point: the int32 sum
 * of squared differences to the input zero point, its inverse square root by
 * GetInvSqrtQuantizedMultiplierExp (Newton-Raphson in Q3.28), each difference
 * times it. One kernel per type in both numerics modes (XNNPACK does not take
 * the op; TFLite's optimized kernels compute the reference formulas). */
#include "fixedpoint.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == 1 && in && out,
                     "L2_NORMALIZATION: expected 1 input and 1 output");
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) >= 1, "L2_NORMALIZATION: the input must have rank >= 1");
  const TfLiteL2NormParams* p = (const TfLiteL2NormParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p == NULL || p->activation == kTfLiteActNone,
                     "L2_NORMALIZATION: fused activation %d not supported", (int)p->activation);
  if (in->type != kTfLiteFloat32) {
    TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                       "L2_NORMALIZATION: type %s not supported (float32, int8, uint8)",
                       TfLiteTypeGetName(in->type));
    const int32_t zp = in->type == kTfLiteInt8 ? 0 : 128;
    TF_LITE_ENSURE_MSG(ctx, out->params.scale == 1.0f / 128 && out->params.zero_point == zp,
                       "L2_NORMALIZATION: output needs scale 1/128 and zero point %d, got %g "
                       "and %d", (int)zp, (double)out->params.scale, (int)out->params.zero_point);
  }
  return tff_resize_output(ctx, out, tff_rank(in), in->dims->data);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const size_t n = (size_t)tff_dim(in, tff_rank(in) - 1);
  const size_t rows = n ? tff_num_elements(in->dims) / n : 0;
  TfLiteTensor* out = tff_output(ctx, node, 0);
  for (size_t r = 0; r < rows; ++r) {
    const size_t at = r * n;
    if (in->type == kTfLiteFloat32) {
      const float* x = in->data.f + at;
      float sq = 0.0f;
      for (size_t i = 0; i < n; ++i) sq += x[i] * x[i];
      float norm = sqrtf(sq);
      norm = norm > 1e-6f ? norm : 1e-6f;
      for (size_t i = 0; i < n; ++i) out->data.f[at + i] = x[i] / norm;
      continue;
    }
    const int u8 = in->type == kTfLiteUInt8;
    const int32_t zp = tff_zero_point(in);
    uint32_t acc = 0;
    for (size_t i = 0; i < n; ++i) {
      const int32_t d = (u8 ? in->data.uint8[at + i] : in->data.int8[at + i]) - zp;
      acc += (uint32_t)(d * d);
    }
    int32_t mult;
    int shift;
    tff_fp_inv_sqrt((int32_t)acc, &mult, &shift);
    for (size_t i = 0; i < n; ++i) {
      const int32_t d = (u8 ? in->data.uint8[at + i] : in->data.int8[at + i]) - zp;
      int32_t v = u8 ? 128 + tff_mbqm(128 * d, mult, shift) : tff_mbqm(d, mult, shift + 7);
      const int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
      v = v < lo ? lo : (v > hi ? hi : v);
      out->data.uint8[at + i] = (uint8_t)v;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_L2_NORMALIZATION(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinL2Normalization,
                                       .version = 1};
  return &r;
}
