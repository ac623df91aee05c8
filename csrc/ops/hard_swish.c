/* HARD_SWISH: x·relu6(x+3)/6.
 * float32: TFLite's reference order x·min(6, max(0, x+3))/6 in reference
 * mode, XNNPACK's x·clamp(x·(1/6) + 1/2, 0, 1) in default mode (AUTO
 * delegates float HARD_SWISH).
 * int8/uint8: TFLite's 16-bit fixed-point reference (docs/numerics.md §1.12)
 * in both modes: XNNPACK does not take them and on x86 TFLite's optimized
 * kernel is the reference loop. Evaluated once per code into a table.
 */
#include "ops.h"
#include "unary_common.h"

/* gemmlowp's 16-bit SaturatingRoundingDoublingHighMul: round(a·b/2^15),
 * ties away from zero. */
static int16_t srdhm16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  const int32_t p = (int32_t)a * b;
  return (int16_t)((p + (p >= 0 ? (1 << 14) : 1 - (1 << 14))) / (1 << 15));
}

/* The truncating variant (TFLite's SaturatingDoublingHighMul). */
static int16_t sdhm16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  return (int16_t)(((int32_t)a * b) / (1 << 15));
}

/* gemmlowp's RoundingDivideByPOT on int16, 0 <= k <= 31, including its
 * int16 truncation of the mask when k >= 16. */
static int16_t rdbpot16(int16_t x, int k) {
  const int16_t mask = (int16_t)((1LL << k) - 1);
  const int16_t rem = (int16_t)(x & mask);
  const int16_t thr = (int16_t)((mask >> 1) + (x < 0 ? 1 : 0));
  return (int16_t)((x >> k) + (rem > thr ? 1 : 0));
}

/* Saturating v·2^k; k is capped where the result saturates anyway. */
static int16_t sat_shl16(int16_t v, int k) {
  const int64_t r = (int64_t)v * ((int64_t)1 << (k < 32 ? k : 32));
  return (int16_t)(r < INT16_MIN ? INT16_MIN : (r > INT16_MAX ? INT16_MAX : r));
}

/* DownScaleInt32ToInt16Multiplier. */
static int16_t down16(int32_t m) {
  return m >= INT32_MAX - (1 << 15) ? INT16_MAX : (int16_t)((m + (1 << 15)) >> 16);
}

static TfLiteStatus prepare_q8(TfLiteContext* ctx, const TfLiteTensor* in,
                               const TfLiteTensor* out, uint8_t* lut) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "HARD_SWISH", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "HARD_SWISH", "output", out));
  /* HardSwishPrepare, in float32. */
  const float hires_scale = (1.0f / 128.0f) * tff_scale(in);
  int32_t mo32, mr32;
  int eo, er;
  tff_quantize_multiplier((double)(hires_scale / tff_scale(out)), &mo32, &eo);
  tff_quantize_multiplier((double)(hires_scale / (3.0f / 32768.0f)), &mr32, &er);
  TF_LITE_ENSURE_MSG(ctx, eo <= 0,
                     "HARD_SWISH: output scale %g is too small for input scale %g (needs "
                     "s_in/128/s_out < 1)", (double)tff_scale(out), (double)tff_scale(in));
  const int16_t mo = down16(mo32), mr = down16(mr32);
  const int32_t zi = tff_zero_point(in), zo = tff_zero_point(out);
  int32_t qmin, qmax;
  tff_int_range(in->type, &qmin, &qmax);
  for (int32_t v = qmin; v <= qmax; ++v) {
    const int16_t hires = (int16_t)((v - zi) * 128);
    const int16_t preshift = srdhm16(hires, mo);
    /* The relu-ish factor: x rescaled so that 3 is 2^15, saturated, then
     * mapped from [-1, 1] to [0, 1]. */
    int16_t r = hires;
    if (er > 0) r = sat_shl16(r, er - 1);
    r = srdhm16(r, mr);
    if (er > 0) r = sat_shl16(r, 1);
    if (er < 0) r = rdbpot16(r, -er);
    r = (int16_t)((r + (1 << 15)) >> 1);
    /* The zero point is added in int16, wrapping like TFLite's. */
    const int32_t o = (int16_t)(rdbpot16(sdhm16(r, preshift), -eo) + zo);
    lut[(uint8_t)v] = (uint8_t)(o < qmin ? qmin : (o > qmax ? qmax : o));
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "HARD_SWISH", &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type,
                     "HARD_SWISH: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "HARD_SWISH: type %s is not supported (float32, int8, uint8)",
                     TfLiteTypeGetName(in->type));
  return prepare_q8(ctx, in, out, ((tff_unary_data*)node->user_data)->lut);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const float* x;
  float* y;
  size_t n;
  if (!tff_unary_float_or_lut(ctx, node, &x, &y, &n)) return kTfLiteOk;
  if (tff_numerics_ref(ctx)) {
    for (size_t i = 0; i < n; ++i) {
      const float t = x[i] + 3.0f;
      y[i] = x[i] * (t < 0.0f ? 0.0f : (t > 6.0f ? 6.0f : t)) / 6.0f;
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      const float t = x[i] * 0x1.555556p-3f + 0.5f;
      y[i] = (t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t)) * x[i];
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_HARD_SWISH(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinHardSwish,
                                       .version = 1};
  return &r;
}
