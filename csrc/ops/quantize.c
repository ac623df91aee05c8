/* QUANTIZE: float32 -> int8/uint8/int16, and requantization among int8,
 * uint8 and int16 (TFLite quantize.cc); per-tensor output quantization.
 *
 * What each mode computes (checked bit for bit against ai-edge-litert):
 *  float -> int8/uint8: reference round_half_away(x/s) + z (float
 *    division); default = XNNPACK's f32-qs8/qu8 convert, rint(x·f32(1/s))
 *    clamped in float first (so NaN gives the maximum), + z.
 *  float -> int16 (AUTO runs TFLite's optimized kernel, its NEON code on
 *    x86): blocks of 8 rint(x·f32(1/(double)s)), the remaining n mod 8
 *    elements round_half_away((double)x/s); reference as above.
 *  Both TFLite paths convert float to int32 the x86 way (NaN and values
 *    past int32 become INT32_MIN) and then add z with wrap-around; emulated,
 *    so NaN and infinities give the oracle's codes on every platform.
 *  int8/uint8 -> int8/uint8 (a table per mode): reference MBQM(q − zi)
 *    + zo with QM((double)si/so); default = XNNPACK's qs8/qu8 convert
 *    (zo·256 − m·zi + 128 + m·q) >> 8 with m = rint(256·f32(si/so)) when the
 *    types match and si/so lies in [1/256, 128], else TFLite's optimized
 *    Requantize: MBQM with ties rounded up (vqrdmulh, vrshl) on blocks of 16
 *    and the scalar MBQM on the tail.
 *  with int16 on either side: MBQM in both modes (TFLite's generic
 *    Requantize is the reference loop; XNNPACK does not take int16).
 */
#include "ops.h"
#include "unary_common.h"

enum { kFromFloat, kEightToEight, kEightToInt16, kFromInt16 };
enum { kRef, kXnnpack, kTfliteOpt };

typedef struct OpData {
  int kind, formula;
  float s;         /* output scale (reference) */
  float inv;       /* 1/s (XNNPACK); f32(1/(double)s) (TFLite optimized) */
  int32_t zi, zo, qmin, qmax;
  int32_t m;       /* QM(si/so) with e; XNNPACK's 8.8 fixed-point si/so */
  int e;
  size_t block;    /* TFLite optimized: elements per vector block, else 0 */
  uint8_t lut[2][256]; /* 8 -> 8 bits: [0] for the blocks, [1] otherwise */
  int16_t lut16[256];  /* 8 -> 16 bits */
} OpData;

/* cvttss2si/cvtps2dq on an already rounded value: INT32_MIN when out of range. */
static inline int32_t x86_to_int32(double r) {
  return r >= -2147483648.0 && r < 2147483648.0 ? (int32_t)r : INT32_MIN;
}

static inline int32_t add_clamp(int32_t v, const OpData* d) {
  const int32_t o = (int32_t)((uint32_t)v + (uint32_t)d->zo);
  return o < d->qmin ? d->qmin : (o > d->qmax ? d->qmax : o);
}

static inline int32_t q_ref(float x, const OpData* d) {
  return add_clamp(x86_to_int32(roundf(x / d->s)), d);
}

static inline int32_t q_xnnpack(float x, const OpData* d) {
  const float hi = (float)(d->qmax - d->zo), lo = (float)(d->qmin - d->zo);
  float v = x * d->inv;
  v = v < hi ? v : hi;
  v = v > lo ? v : lo;
  return (int32_t)rintf(v) + d->zo;
}

static inline int32_t q_opt_block(float x, const OpData* d) {
  return add_clamp(x86_to_int32(rintf(x * d->inv)), d);
}

static inline int32_t q_opt_tail(float x, const OpData* d) {
  return add_clamp(x86_to_int32(round((double)x / (double)d->s)), d);
}

/* MBQM with both roundings ties-up: NEON vqrdmulh then vrshl. */
static inline int32_t mbqm_ties_up(int32_t x, int32_t m, int e) {
  const int64_t v = (int64_t)(int32_t)((uint32_t)x << (e > 0 ? e : 0));
  const int64_t h = (v * m + ((int64_t)1 << 30)) >> 31;
  return e >= 0 ? (int32_t)h : (int32_t)((h + ((int64_t)1 << (-e - 1))) >> -e);
}

/* One 8-bit code requantized by d's formula; `block` selects the vector
 * blocks of TFLite's optimized kernel. */
static int32_t requant8(int32_t v, const OpData* d, int block) {
  if (d->formula == kXnnpack) {
    const int32_t o = (d->zo * 256 + d->m * (v - d->zi) + 128) >> 8;
    return o < d->qmin ? d->qmin : (o > d->qmax ? d->qmax : o);
  }
  if (d->formula == kTfliteOpt && block) return add_clamp(mbqm_ties_up(v - d->zi, d->m, d->e), d);
  return add_clamp(tff_mbqm(v - d->zi, d->m, d->e), d);
}

static TfLiteStatus prepare_from_float(TfLiteContext* ctx, const TfLiteTensor* out, OpData* d) {
  const float s = tff_scale(out);
  d->kind = kFromFloat;
  d->formula = kRef;
  d->s = s;
  if (!tff_numerics_ref(ctx)) {
    d->formula = out->type == kTfLiteInt16 ? kTfliteOpt : kXnnpack;
    d->inv = out->type == kTfLiteInt16 ? (float)(1.0 / (double)s) : 1.0f / s;
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare_requant(TfLiteContext* ctx, const TfLiteTensor* in,
                                    const TfLiteTensor* out, OpData* d) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "QUANTIZE", "input", in));
  const int in8 = in->type != kTfLiteInt16, out8 = out->type != kTfLiteInt16;
  TF_LITE_ENSURE_MSG(ctx, in8 || out->type != kTfLiteUInt8,
                     "QUANTIZE: int16 input needs an int8 or int16 output, not uint8");
  TF_LITE_ENSURE_MSG(ctx, in8 || out8 || (tff_zero_point(in) == 0 && tff_zero_point(out) == 0),
                     "QUANTIZE: int16 -> int16 needs zero points 0, got %d and %d",
                     (int)tff_zero_point(in), (int)tff_zero_point(out));
  const double ratio = (double)tff_scale(in) / (double)tff_scale(out);
  tff_quantize_multiplier(ratio, &d->m, &d->e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(ratio) && d->e <= 30,
                     "QUANTIZE: input scale %g is too large for output scale %g",
                     (double)tff_scale(in), (double)tff_scale(out));
  d->zi = tff_zero_point(in);
  int32_t lo, hi;
  tff_int_range(in->type, &lo, &hi);
  if (!in8) {
    d->kind = kFromInt16;
    return kTfLiteOk;
  }
  if (!out8) {
    d->kind = kEightToInt16;
    for (int32_t v = lo; v <= hi; ++v) {
      d->lut16[(uint8_t)v] = (int16_t)add_clamp(tff_mbqm(v - d->zi, d->m, d->e), d);
    }
    return kTfLiteOk;
  }
  d->kind = kEightToEight;
  const float fratio = tff_scale(in) / tff_scale(out);
  d->formula = kTfliteOpt;
  if (tff_numerics_ref(ctx)) {
    d->formula = kRef;
  } else if (in->type == out->type && fratio >= 1.0f / 256.0f && fratio <= 128.0f) {
    d->formula = kXnnpack;
    d->m = (int32_t)lrintf(256.0f * fratio); /* XNNPACK's 8.8 fixed-point ratio */
  }
  d->block = d->formula == kTfliteOpt ? 16 : 0;
  for (int32_t v = lo; v <= hi; ++v) {
    d->lut[0][(uint8_t)v] = (uint8_t)requant8(v, d, 1);
    d->lut[1][(uint8_t)v] = (uint8_t)requant8(v, d, 0);
  }
  return kTfLiteOk;
}

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "QUANTIZE", &in, &out));
  OpData* d = (OpData*)node->user_data;
  const TfLiteAffineQuantization* q = tff_affine(out);
  TF_LITE_ENSURE_MSG(ctx, q != NULL && q->scale != NULL && q->scale->size == 1,
                     "QUANTIZE: the output needs per-tensor affine quantization");
  TF_LITE_ENSURE_MSG(ctx, out->type == kTfLiteInt8 || out->type == kTfLiteUInt8 ||
                              out->type == kTfLiteInt16,
                     "QUANTIZE: output type %s is not supported (int8, uint8, int16)",
                     TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "QUANTIZE", "output", out));
  d->zo = tff_zero_point(out);
  tff_int_range(out->type, &d->qmin, &d->qmax);
  d->block = 0;
  if (in->type == kTfLiteFloat32) return prepare_from_float(ctx, out, d);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8 ||
                              in->type == kTfLiteInt16,
                     "QUANTIZE: input type %s is not supported (float32, int8, uint8, int16)",
                     TfLiteTypeGetName(in->type));
  return prepare_requant(ctx, in, out, d);
}

/* out[i] = (T)F(x[i], d) for i < n, T from the output type. */
#define QUANTIZE_LOOP(F)                                                                 \
  do {                                                                                    \
    if (out->type == kTfLiteInt8) {                                                       \
      for (size_t i = 0; i < n; ++i) out->data.int8[i] = (int8_t)F(x[i], d);             \
    } else if (out->type == kTfLiteUInt8) {                                               \
      for (size_t i = 0; i < n; ++i) out->data.uint8[i] = (uint8_t)F(x[i], d);           \
    } else {                                                                              \
      for (size_t i = 0; i < n; ++i) out->data.i16[i] = (int16_t)F(x[i], d);             \
    }                                                                                     \
  } while (0)

static void run_from_float(const OpData* d, const float* x, TfLiteTensor* out, size_t n) {
  if (d->formula == kRef) {
    QUANTIZE_LOOP(q_ref);
  } else if (d->formula == kXnnpack) {
    QUANTIZE_LOOP(q_xnnpack);
  } else {
    int16_t* y = out->data.i16; /* only int16 takes this path */
    const size_t nb = n - n % 8;
    for (size_t i = 0; i < nb; ++i) y[i] = (int16_t)q_opt_block(x[i], d);
    for (size_t i = nb; i < n; ++i) y[i] = (int16_t)q_opt_tail(x[i], d);
  }
}

static inline int32_t requant16(int16_t q, const OpData* d) {
  return add_clamp(tff_mbqm(q - d->zi, d->m, d->e), d);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t n = tff_num_elements(in->dims);
  switch (d->kind) {
    case kFromFloat:
      run_from_float(d, in->data.f, out, n);
      break;
    case kEightToEight: {
      const size_t nb = d->block ? n - n % d->block : 0;
      tff_lut8_run(d->lut[0], in->data.uint8, out->data.uint8, nb);
      tff_lut8_run(d->lut[1], in->data.uint8 + nb, out->data.uint8 + nb, n - nb);
      break;
    }
    case kEightToInt16:
      for (size_t i = 0; i < n; ++i) out->data.i16[i] = d->lut16[in->data.uint8[i]];
      break;
    default: {
      const int16_t* x = in->data.i16;
      QUANTIZE_LOOP(requant16);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_QUANTIZE(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinQuantize,
                                       .version = 1};
  return &r;
}
