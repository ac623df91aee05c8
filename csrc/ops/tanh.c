/* TANH. float32 uses tanhf in both modes (XNNPACK's own approximation, which
 * AUTO uses, is within 1e-5 of it). int8/uint8 run as a table over the 256
 * codes (unary_common.h), filled with the mode's formula (docs/numerics.md
 * §1.9):
 *  - reference (TFLite LUTPopulate): y = tanhf(s·(v − z)) in float,
 *    round(y·(1/s_out)) half away from zero, + z_out;
 *  - default (XNNPACK, which AUTO gives 8-bit TANH): y = tanhf((v − z)·s),
 *    rint(y·(1/s_out) + z_out), ties to even after adding the zero point.
 * Both clamp to the type's codes (tff_lut8_fill). */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

static float tanh_fn(float x, const void* params) {
  (void)params;
  return tanhf(x);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "TANH", &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "TANH: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "TANH: type %s is not supported (float32, int8, uint8)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "TANH", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "TANH", "output", out));
  tff_lut8_fill(in, out, !tff_numerics_ref(ctx), tanh_fn, NULL,
                ((tff_unary_data*)node->user_data)->lut);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (in->type != kTfLiteFloat32) {
    tff_unary_lut_run(node, in, out);
    return kTfLiteOk;
  }
  const float* x = in->data.f;
  float* y = out->data.f;
  const size_t n = tff_num_elements(in->dims);
  for (size_t i = 0; i < n; ++i) y[i] = tanhf(x[i]);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_TANH(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_unary_free,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinTanh,
                                       .version = 1};
  return &r;
}
