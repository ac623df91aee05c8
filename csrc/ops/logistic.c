/* LOGISTIC: 1/(1+e^-x). float32 computes it with expf in both modes
 * (XNNPACK's own approximation is within 1e-5 of it). int8/uint8 need the
 * output scale 1/256 (TFLite's check; any zero point) and run as a table
 * (docs/numerics.md §1.9):
 *  - reference (TFLite LUTPopulate): y = 1/(1+expf(−s·(v−z))) in float,
 *    round(y·256) half away from zero, + z_out;
 *  - default (XNNPACK, which AUTO gives every 8-bit LOGISTIC): the sigmoid
 *    in double as e^x/(1+e^x) (0 below −100, 1 above 100) rounded to
 *    float, rint(y·256 + z_out), ties to even after adding the zero point.
 * int16 (zero points 0, output scale 2^-15): TFLite's fixed-point or table
 * kernel, sigmoid_int16.h.
 */
#include <math.h>

#include "ops.h"
#include "sigmoid_int16.h"
#include "unary_common.h"

static float sigmoid_tflite(float x) { return 1.0f / (1.0f + expf(-x)); }

static float sigmoid_xnnpack(float x) {
  if (x > 100.0f) return 1.0f;
  if (x < -100.0f) return 0.0f;
  const double e = exp((double)x);
  return (float)(e / (1.0 + e));
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "LOGISTIC", &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type,
                     "LOGISTIC: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  tff_sig_data* sd = (tff_sig_data*)node->user_data;
  if (in->type == kTfLiteInt16) return tff_sig16_prepare(ctx, "LOGISTIC", 0, in, out, &sd->s16);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "LOGISTIC: type %s is not supported (float32, int8, uint8, int16)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "LOGISTIC", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "LOGISTIC", "output", out));
  TF_LITE_ENSURE_MSG(ctx, tff_scale(out) == 1.0f / 256.0f,
                     "LOGISTIC: output scale %g must be 1/256", (double)tff_scale(out));
  tff_unary_data* d = &sd->u;
  const int ref = tff_numerics_ref(ctx);
  const float s = tff_scale(in);
  const int32_t zi = tff_zero_point(in), zo = tff_zero_point(out);
  int32_t qmin, qmax;
  tff_int_range(in->type, &qmin, &qmax);
  /* y·256 is exact, so neither sum below can round or contract. */
  for (int32_t v = qmin; v <= qmax; ++v) {
    float q;
    if (ref) {
      q = roundf(sigmoid_tflite(s * (float)(v - zi)) * 256.0f) + (float)zo;
    } else {
      q = rintf(sigmoid_xnnpack(((float)v - (float)zi) * s) * 256.0f + (float)zo);
    }
    const int32_t o = (int32_t)q;
    d->lut[(uint8_t)v] = (uint8_t)(o < qmin ? qmin : (o > qmax ? qmax : o));
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  if (in->type == kTfLiteInt16) {
    tff_sig16_run(&((const tff_sig_data*)node->user_data)->s16, 0, in->data.i16,
                  tff_output(ctx, node, 0)->data.i16, tff_num_elements(in->dims));
    return kTfLiteOk;
  }
  const float* x;
  float* y;
  size_t n;
  if (!tff_unary_float_or_lut(ctx, node, &x, &y, &n)) return kTfLiteOk;
  for (size_t i = 0; i < n; ++i) y[i] = sigmoid_tflite(x[i]);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_LOGISTIC(void) {
  static const TfLiteRegistration r = {.init = tff_sig_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinLogistic,
                                       .version = 1};
  return &r;
}
