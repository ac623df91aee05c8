/* ABS: y = |x| for float32, int32 and int16 (−INT_MIN wraps to INT_MIN, as
 * TFLite's std::abs does on two's complement), and for quantized int8 and
 * int16 (TFLite elementwise.cc AbsEvalQuantized):
 *   v = |q − z_in|;  y = clamp(v + z_out)                 if s_in == s_out,
 *                    y = clamp(MBQM(v, M, e) + z_out)     otherwise,
 * with (M, e) = QM(s_in / s_out) (float division). int16 is quantized when
 * the tensor carries affine parameters (zero points 0), plain otherwise.
 * XNNPACK takes float32 only, where |x| is exact: both modes agree. */
#include "ops.h"
#include "unary_common.h"

typedef struct OpData {
  uint8_t lut[256];
  int32_t m, zi, zo;
  int e, rescale, quantized;
} OpData;

TFF_ZEROED_INIT(init, OpData)

/* The quantized formula for one code. */
static int32_t abs_q(int32_t q, const OpData* d, int32_t qmin, int32_t qmax) {
  const int32_t v = q < d->zi ? d->zi - q : q - d->zi;
  const int32_t o = (d->rescale ? tff_mbqm(v, d->m, d->e) : v) + d->zo;
  return o < qmin ? qmin : (o > qmax ? qmax : o);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare_types(
                             ctx, node, "ABS",
                             TFF_TYPE_BIT(kTfLiteFloat32) | TFF_TYPE_BIT(kTfLiteInt32) |
                                 TFF_TYPE_BIT(kTfLiteInt16) | TFF_TYPE_BIT(kTfLiteInt8),
                             "float32, int32, int16, int8", &in, &out));
  OpData* d = (OpData*)node->user_data;
  d->quantized = in->type == kTfLiteInt8 ||
                 (in->type == kTfLiteInt16 && in->quantization.type != kTfLiteNoQuantization);
  if (!d->quantized) return kTfLiteOk;
  TF_LITE_ENSURE_OK(ctx, tff_unary_check_quant(ctx, "ABS", in, out, in->type == kTfLiteInt16));
  d->zi = tff_zero_point(in);
  d->zo = tff_zero_point(out);
  d->rescale = tff_scale(in) != tff_scale(out);
  tff_quantize_multiplier((double)(tff_scale(in) / tff_scale(out)), &d->m, &d->e);
  TF_LITE_ENSURE_MSG(ctx, d->e <= 31, "ABS: input scale %g and output scale %g are too far apart",
                     (double)tff_scale(in), (double)tff_scale(out));
  if (in->type == kTfLiteInt8) {
    for (int32_t q = -128; q <= 127; ++q) d->lut[(uint8_t)q] = (uint8_t)abs_q(q, d, -128, 127);
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const OpData* d = (const OpData*)node->user_data;
  const size_t n = tff_num_elements(in->dims);
  switch (in->type) {
    case kTfLiteFloat32: tff_unary_map_f32(in, out, fabsf); break;
    case kTfLiteInt8: tff_lut8_run(d->lut, in->data.uint8, out->data.uint8, n); break;
    case kTfLiteInt32:
      for (size_t i = 0; i < n; ++i) {
        const int32_t v = in->data.i32[i];
        out->data.i32[i] = v < 0 ? (int32_t)(0u - (uint32_t)v) : v;
      }
      break;
    default: /* int16 */
      for (size_t i = 0; i < n; ++i) {
        const int32_t v = in->data.i16[i];
        out->data.i16[i] = (int16_t)(d->quantized ? abs_q(v, d, INT16_MIN, INT16_MAX)
                                                  : (v < 0 ? -v : v));
      }
      break;
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_ABS(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinAbs,
                                       .version = 1};
  return &r;
}
