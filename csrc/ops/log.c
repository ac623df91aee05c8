/* LOG: y = ln(x) (TFLite elementwise.cc).
 *  - float32: logf in reference mode. Default mode: AUTO's XNNPACK kernel
 *    (rational_3_3, FMA): x·√2 split into exponent e and mantissa m in
 *    [1, 2), t = m/√2 − 1, y = e·ln2 + t·(1 + t + a3·t²)/q(t); DAZ, and the
 *    exponent is read from the bits: 0 → −inf, negative → NaN, while inf,
 *    NaN and x > FLT_MAX/√2 give about 88.4 (exponent 128).
 *  - int8: TFLite's table (LUTPopulate) of ln, with x <= 0 mapped to the
 *    output's lowest real value (s_out·(qmin − z_out)); both modes, as
 *    XNNPACK takes float only.
 *  - int16: the same function in TFLite's 513-entry interpolated table;
 *    zero points must be 0. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

static float log_fn(float x, const void* params) {
  return x <= 0.0f ? *(const float*)params : logf(x);
}

static float log_xnnpack(float x) {
  union { float f; uint32_t u; int32_t i; } v = {.f = tff_ftz(x) * 1.4142134190f}, e, m;
  if (v.f == 0.0f) v.u |= 0x80000000u; /* 0 gets the sign: the exponent is then -inf */
  e.i = (int32_t)(v.u & 0xff800000u) >> 8; /* sign-extended: negative -> NaN */
  e.u |= 0x43800000u;                      /* 256.0f + the biased exponent */
  m.u = (v.u & 0x007fffffu) | 0x3f800000u;
  const float t = m.f * 7.0710688829e-01f - 1.0f;
  const float p = t * fmaf(t, fmaf(t, 1.824996918440e-01f, 1.0f), 1.0f);
  const float q = fmaf(t, fmaf(t, fmaf(t, 0.049584995955f, 0.599170029163f), 1.5f), 1.0f);
  return fmaf(e.f - 383.0f, 0.69314718055994531f, p / q);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare_fq(ctx, node, "LOG", &in, &out));
  tff_table_data* d = (tff_table_data*)node->user_data;
  const float qmin = in->type == kTfLiteInt16 ? INT16_MIN : INT8_MIN;
  const float out_min = (qmin - (float)tff_zero_point(out)) * tff_scale(out);
  if (in->type == kTfLiteInt8) tff_lut8_fill(in, out, 0, log_fn, &out_min, d->lut);
  if (in->type == kTfLiteInt16) tff_lut16_fill(in, out, log_fn, &out_min, d->lut16);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_table_invoke(ctx, node, tff_numerics_ref(ctx) ? logf : log_xnnpack);
}

const TfLiteRegistration* tff_register_LOG(void) {
  static const TfLiteRegistration r = {.init = tff_table_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinLog,
                                       .version = 1};
  return &r;
}
