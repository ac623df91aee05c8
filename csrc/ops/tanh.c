/* TANH. float32 uses tanhf in both modes (XNNPACK's own approximation, which
 * AUTO uses, is within 1e-5 of it). int8/uint8 run as a table over the 256
 * codes (unary_common.h), filled with the mode's formula (docs/numerics.md
 * §1.9):
 *  - reference (TFLite LUTPopulate): y = tanhf(s·(v − z)) in float,
 *    round(y·(1/s_out)) half away from zero, + z_out;
 *  - default (XNNPACK, which AUTO gives 8-bit TANH): y = tanhf((v − z)·s),
 *    rint(y·(1/s_out) + z_out), ties to even after adding the zero point.
 * Both clamp to the type's codes (tff_lut8_fill). int16 (zero points 0,
 * output scale 2^-15): TFLite's fixed-point or table kernel, sigmoid_int16.h. */
#include <math.h>

#include "ops.h"
#include "sigmoid_int16.h"
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
  tff_sig_data* d = (tff_sig_data*)node->user_data;
  if (in->type == kTfLiteInt16) return tff_sig16_prepare(ctx, "TANH", 1, in, out, &d->s16);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "TANH: type %s is not supported (float32, int8, uint8, int16)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "TANH", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "TANH", "output", out));
  tff_lut8_fill(in, out, !tff_numerics_ref(ctx), tanh_fn, NULL, d->u.lut);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (in->type == kTfLiteInt16) {
    tff_sig16_run(&((const tff_sig_data*)node->user_data)->s16, 1, in->data.i16, out->data.i16,
                  tff_num_elements(in->dims));
    return kTfLiteOk;
  }
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
  static const TfLiteRegistration r = {.init = tff_sig_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinTanh,
                                       .version = 1};
  return &r;
}
