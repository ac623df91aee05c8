/* SQRT: y = √x (TFLite elementwise.cc).
 *  - float32: sqrtf in reference mode; in default mode AUTO's XNNPACK
 *    kernel, x·rsqrt(x) after one Newton step (tff_xnn_rsqrt_step), which
 *    is 1.5·√x above ~1e38.
 *  - int8 and int16 (quantized; int16 zero points 0), both modes (XNNPACK
 *    takes float only): y = (int)(sqrtf(s_in·(q − z_in)) / s_out) + z_out,
 *    truncated, clamped; int8 as a table. Inputs below z_in are negative
 *    reals: TFLite fails at invoke with "Sqrt is only defined for
 *    non-negative values", and so does this kernel. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

typedef struct OpData {
  uint8_t lut[256];
  float s_in, s_out;
  int32_t zi, zo;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static int32_t sqrt_q(int32_t q, const OpData* d, int32_t qmin, int32_t qmax) {
  const float y = sqrtf(d->s_in * (float)(q - d->zi)) / d->s_out;
  /* Clamped in float first: a huge quotient saturates. */
  const int32_t o = (int32_t)(y < 65536.0f ? y : 65536.0f) + d->zo;
  return o < qmin ? qmin : (o > qmax ? qmax : o);
}

/* XNNPACK's rsqrt kernel: x·rsqrt(x), 0 and inf passed through. */
static float sqrt_xnnpack(float x) {
  x = tff_ftz(x);
  return x == 0.0f || x == INFINITY ? x : tff_ftz(x * tff_xnn_rsqrt_step(x));
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare_fq(ctx, node, "SQRT", &in, &out));
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  OpData* d = (OpData*)node->user_data;
  d->s_in = tff_scale(in);
  d->s_out = tff_scale(out);
  d->zi = tff_zero_point(in);
  d->zo = tff_zero_point(out);
  if (in->type == kTfLiteInt8) {
    for (int32_t q = d->zi; q <= 127; ++q) d->lut[(uint8_t)q] = (uint8_t)sqrt_q(q, d, -128, 127);
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const OpData* d = (const OpData*)node->user_data;
  const size_t n = tff_num_elements(in->dims);
  if (in->type == kTfLiteFloat32) {
    tff_unary_map_f32(in, out, tff_numerics_ref(ctx) ? sqrtf : sqrt_xnnpack);
    return kTfLiteOk;
  }
  int32_t lo = INT32_MAX;
  for (size_t i = 0; i < n; ++i) {
    const int32_t q = in->type == kTfLiteInt8 ? in->data.int8[i] : in->data.i16[i];
    lo = q < lo ? q : lo;
  }
  TF_LITE_ENSURE_MSG(ctx, n == 0 || lo >= d->zi, "Sqrt is only defined for non-negative values");
  if (in->type == kTfLiteInt8) {
    tff_lut8_run(d->lut, in->data.uint8, out->data.uint8, n);
  } else {
    for (size_t i = 0; i < n; ++i) {
      out->data.i16[i] = (int16_t)sqrt_q(in->data.i16[i], d, INT16_MIN, INT16_MAX);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SQRT(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinSqrt,
                                       .version = 1};
  return &r;
}
