/* EXP: y = e^x (TFLite exp.cc).
 *  - float32: expf in reference mode. Default mode: AUTO's XNNPACK kernel
 *    (rational_3_2, FMA): z' = clamp(x·log2(e), −127, 128) (NaN → −127),
 *    z = round(z'), r = z' − z, y = 2^z · p(r)/q(r), denormals flushed: so
 *    NaN gives 0 and results below 2^−126 are 0.
 *  - int8: TFLite's table (LUTPopulate with expf; XNNPACK takes float only,
 *    so both modes).
 *  - int16: TFLite's 513-entry interpolated table; zero points must be 0. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

static float exp_fn(float x, const void* params) {
  (void)params;
  return expf(x);
}

static float exp_xnnpack(float x) {
  float z = x * 1.44269504089f;
  z = z > -127.0f ? z : -127.0f; /* x86 max/min: NaN takes the bound */
  z = z < 128.0f ? z : 128.0f;
  const float k = (12582912.0f + z) - 12582912.0f;
  const float r = z - k;
  union { uint32_t u; float f; } pow2 = {.u = (uint32_t)((int32_t)k + 127) << 23};
  const float p = fmaf(r, fmaf(r, fmaf(r, 5.5380910635e-03f, 7.2068706155e-02f),
                               4.1594290733e-01f), 1.0f);
  const float q = fmaf(r, fmaf(r, 2.3986088112e-02f, -2.7720427513e-01f), 1.0f);
  return tff_ftz(pow2.f * (p / q));
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare_fq(ctx, node, "EXP", &in, &out));
  tff_table_data* d = (tff_table_data*)node->user_data;
  if (in->type == kTfLiteInt8) tff_lut8_fill(in, out, 0, exp_fn, NULL, d->lut);
  if (in->type == kTfLiteInt16) tff_lut16_fill(in, out, exp_fn, NULL, d->lut16);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_table_invoke(ctx, node, tff_numerics_ref(ctx) ? expf : exp_xnnpack);
}

const TfLiteRegistration* tff_register_EXP(void) {
  static const TfLiteRegistration r = {.init = tff_table_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinExp,
                                       .version = 1};
  return &r;
}
