/* LEAKY_RELU: y = x for x > 0, alpha·x below (TFLite activations.cc).
 *  - float32: the same in both modes (XNNPACK selects by the sign bit; the
 *    values agree, ±0 aside).
 *  - int8/uint8/int16 (int16 zero points 0), TFLite's QuantizeLeakyRelu:
 *      v = q − z_in;  y = clamp(MBQM(v, M_id, e_id) + z_out)   v >= 0
 *                         clamp(±MBQM(v, |M_a|, e_a) + z_out)  v < 0
 *    with (M_id, e_id) = QM(s_in/s_out) and M_a·2^e_a = s_in·alpha/s_out,
 *    both computed in float and widened.
 *  - default mode, int8/uint8 when AUTO delegates it to XNNPACK (alpha
 *    normal, p = s_in/s_out in [1/256, 128], n = p·alpha in
 *    [−127.99609375, 128] with |n| >= 1/256): with m = lrintf(256·p or 256·n)
 *    by the sign of v,  y = clamp(((v·m + 128) >> 8) + z_out).
 * The 8-bit types run as tables; int16 per element. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

typedef struct OpData {
  uint8_t lut[256];
  int32_t m_id, m_a, zi, zo;
  int e_id, e_a, neg_alpha;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static int32_t leaky_q(int32_t q, const OpData* d, int32_t qmin, int32_t qmax) {
  const int32_t v = q - d->zi;
  int32_t o;
  if (v >= 0) {
    o = tff_mbqm(v, d->m_id, d->e_id);
  } else {
    o = tff_mbqm(v, d->m_a, d->e_a);
    o = d->neg_alpha ? -o : o;
  }
  o += d->zo;
  return o < qmin ? qmin : (o > qmax ? qmax : o);
}

/* Whether AUTO hands this 8-bit node to XNNPACK (its delegate's checks). */
static int xnnpack_takes(float alpha, float pos, float neg) {
  return isnormal(alpha) && pos >= 1.0f / 256.0f && pos <= 128.0f && neg >= -127.99609375f &&
         neg <= 128.0f && fabsf(neg) >= 1.0f / 256.0f;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare_types(
                             ctx, node, "LEAKY_RELU",
                             TFF_TYPE_BIT(kTfLiteFloat32) | TFF_TYPE_BIT(kTfLiteInt8) |
                                 TFF_TYPE_BIT(kTfLiteUInt8) | TFF_TYPE_BIT(kTfLiteInt16),
                             "float32, int8, uint8, int16", &in, &out));
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  const int int16 = in->type == kTfLiteInt16;
  TF_LITE_ENSURE_OK(ctx, tff_unary_check_quant(ctx, "LEAKY_RELU", in, out, int16));
  OpData* d = (OpData*)node->user_data;
  const float alpha = ((const TfLiteLeakyReluParams*)node->builtin_data)->alpha;
  const float s_in = tff_scale(in), s_out = tff_scale(out);
  const float ratio = s_in / s_out, ratio_a = s_in * alpha / s_out;
  d->zi = tff_zero_point(in);
  d->zo = tff_zero_point(out);
  d->neg_alpha = ratio_a < 0.0f;
  tff_quantize_multiplier((double)ratio, &d->m_id, &d->e_id);
  tff_quantize_multiplier(fabs((double)ratio_a), &d->m_a, &d->e_a);
  TF_LITE_ENSURE_MSG(ctx, isfinite(ratio) && isfinite(ratio_a) && d->e_id <= 31 && d->e_a <= 31,
                     "LEAKY_RELU: input scale %g, output scale %g and alpha %g are out of range",
                     (double)s_in, (double)s_out, (double)alpha);
  if (int16) return kTfLiteOk;
  int32_t qmin, qmax;
  tff_int_range(in->type, &qmin, &qmax);
  const float neg = ratio * alpha;
  const int xnn = !tff_numerics_ref(ctx) && xnnpack_takes(alpha, ratio, neg);
  const int32_t mp = (int32_t)lrintf(256.0f * ratio), mn = (int32_t)lrintf(256.0f * neg);
  for (int32_t q = qmin; q <= qmax; ++q) {
    int32_t o;
    if (xnn) {
      const int32_t v = q - d->zi;
      o = ((v * (v >= 0 ? mp : mn) + 128) >> 8) + d->zo;
      o = o < qmin ? qmin : (o > qmax ? qmax : o);
    } else {
      o = leaky_q(q, d, qmin, qmax);
    }
    d->lut[(uint8_t)q] = (uint8_t)o;
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const OpData* d = (const OpData*)node->user_data;
  const size_t n = tff_num_elements(in->dims);
  if (in->type == kTfLiteFloat32) {
    const float alpha = ((const TfLiteLeakyReluParams*)node->builtin_data)->alpha;
    for (size_t i = 0; i < n; ++i) {
      const float v = in->data.f[i];
      out->data.f[i] = v > 0.0f ? v : v * alpha;
    }
  } else if (in->type == kTfLiteInt16) {
    for (size_t i = 0; i < n; ++i) {
      out->data.i16[i] = (int16_t)leaky_q(in->data.i16[i], d, INT16_MIN, INT16_MAX);
    }
  } else {
    tff_lut8_run(d->lut, in->data.uint8, out->data.uint8, n);
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_LEAKY_RELU(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinLeakyRelu,
                                       .version = 1};
  return &r;
}
