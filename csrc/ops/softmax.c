/* SOFTMAX over the last dim: float32, and int8 in with int8 out at scale 1/256,
 * zero point -128 (TFLite activations.cc).
 * float32 with beta 1 in default numerics: AUTO gives the node to XNNPACK,
 * whose bits this follows (softmax_xnn, f32-raddstoreexpminusmax); other
 * betas and the reference run exp((x − max)·beta)/sum in libm.
 * int8, docs/numerics.md §1.8:
 *  - reference (BUILTIN_REF): TFLite's fixed point, built here from gemmlowp's
 *    fixedpoint.h semantics: the input difference to the row max rescaled to
 *    Q5.26, exp_on_negative_values, a Q12.19 sum, 1/sum by Newton-Raphson.
 *  - default (AUTO: XNNPACK takes only float softmax, so the builtin kernel
 *    runs): a float table T[d] = expf(-s_in*beta*d) of the 256 differences,
 *    a float row sum, round_half_away(T*inv) + z_out.
 * int16 in with int16 out at scale 1/32768, zero point 0 (16x8 mode), both
 * modes TFLite's SoftmaxInt16 (ranks 1 to 4): the difference to the row max
 * rescaled by MBQM so that [-65535, 0] is [-10, 0], looked up in a 513-entry
 * interpolated exp table; the Q16.15 sum normalized, 1/(1+x) looked up in a
 * second table; each exp times it, rounded half up, clamped to [0, 32767].
 *
 * Where TFLite's reference aborts the process, this computes the same
 * formula's natural answer instead:
 *  - beta*s_in*2^26 <= 1 fails TFLite's QuantizeMultiplierGreaterThanOne
 *    check in prepare (mobilenet_v2_int8: s_in = 7.8e-9; beta 0 when the
 *    options are missing). Here the rescale is the plain double-rounding MBQM,
 *    whose exponent may then be negative (a multiplier of 0: all exps 1).
 *  - a row whose exp sum reaches 2^28 in Q12.19 (512.0) needs a right shift
 *    past 31 and fails a TFLITE_CHECK in invoke. The exact shift gives 0 for
 *    every element, so the whole row is -128 (every probability <= 1/512,
 *    which is below half an output step of 1/256). */

#include "cpu/cpu.h"
#include "fixedpoint.h"
#include "ops.h"
#include "platform.h"
#include "ukernels/f32-raddstoreexpminusmax/f32-raddstoreexpminusmax.h"
#include "ukernels/ftz.h"

typedef struct OpData {
  int fixed_point;   /* int8 reference kernel */
  float beta;
  int32_t mult;      /* reference: (mult, shift) = QM(beta*s_in*2^26), diff_min */
  int shift;
  int32_t diff_min;
  float out_scale;   /* default: the table and the output quantization */
  int32_t out_zp;
  float table[256];
  tff_f32_raddstoreexpminusmax_fn xnn_exp; /* float32 nodes that AUTO gives XNNPACK */
} OpData;

/* int16: exp on [-10, 0] and 1/(1+x) on [0, 1], both Q0.15 with outputs over
 * [-1, 1]. The same for every model: filled once per process (tff_once),
 * not by each prepare (3078 calls of exp or a division). */
static int16_t g_exp_lut[513], g_recip_lut[513];
static tff_once_flag g_luts_once;

static void softmax_fixed_point(const OpData* d, const int8_t* x, int8_t* o, int n) {
  int8_t max = INT8_MIN;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  int64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    const int32_t diff = x[i] - max;
    if (diff >= d->diff_min) sum += tff_rdbpot(tff_fp_exp_negative(tff_mbqm(diff, d->mult, d->shift)), 12);
  }
  if (sum >= (1 << 28)) {
    memset(o, INT8_MIN, (size_t)n);
    return;
  }
  int bits;
  const int32_t inv = tff_reciprocal((int32_t)sum, 12, &bits); /* sum is Q12.19 */
  for (int i = 0; i < n; ++i) {
    const int32_t diff = x[i] - max;
    int32_t v = INT8_MIN;
    if (diff >= d->diff_min) {
      const int32_t e = tff_fp_exp_negative(tff_mbqm(diff, d->mult, d->shift));
      v = tff_rdbpot(tff_srdhm(inv, e), bits + 23) - 128;
      v = v > INT8_MAX ? INT8_MAX : v;
    }
    o[i] = (int8_t)v;
  }
}

static void softmax_table(const OpData* d, const int8_t* x, int8_t* o, int n) {
  int max = INT8_MIN;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += d->table[max - x[i]];
  const float inv = 1.0f / (sum * d->out_scale);
  for (int i = 0; i < n; ++i) {
    int32_t v = (int32_t)roundf(d->table[max - x[i]] * inv) + d->out_zp;
    v = v < INT8_MIN ? INT8_MIN : (v > INT8_MAX ? INT8_MAX : v);
    o[i] = (int8_t)v;
  }
}

/* TFLite's LUTPopulate<int16_t> in double: 512 samples of f over the input
 * codes' range, each less half its midpoint interpolation error, plus f at
 * the end of the range. */
static void lut16_populate(double (*f)(double), double in_scale, int32_t in_zp,
                           double out_scale, int16_t* lut) {
  const double in_min = in_scale * (INT16_MIN - in_zp), in_max = in_scale * (INT16_MAX - in_zp);
  const double out_min = out_scale * INT16_MIN, out_max = out_scale * INT16_MAX;
  const double step = (in_max - in_min) / 512, half = step / 2;
  const double inv = 65536.0 / (out_max - out_min);
  for (int i = 0; i <= 512; ++i) {
    double v;
    if (i < 512) {
      const double val = f(in_min + i * step), mid = f(in_min + i * step + half);
      const double next = f(in_min + (i + 1) * step);
      const double sample = round(val * inv);
      const double interp = round((next * inv + round(val * inv)) / 2);
      v = sample - round((interp - round(mid * inv)) / 2);
    } else {
      v = round(f(in_max) * inv);
    }
    lut[i] = (int16_t)(v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v));
  }
}

/* TFLite's interpolating int16 table read: entry 256 + x/128, plus the
 * slope to the next entry times the low 7 bits, rounded. */
static int16_t lut16_lookup(int16_t x, const int16_t* lut) {
  const int i = 256 + (x >> 7), off = x & 0x7f;
  return (int16_t)(lut[i] + (((lut[i + 1] - lut[i]) * off + 64) >> 7));
}

static double exp_d(double v) { return exp(v); }
static double recip_d(double v) { return 1.0 / (1.0 + v); }

static void luts_init(void) {
  const double range = (double)INT16_MAX - INT16_MIN;
  lut16_populate(exp_d, 10.0 / range, INT16_MAX, 2.0 / range, g_exp_lut);
  lut16_populate(recip_d, 1.0 / range, INT16_MIN, 2.0 / range, g_recip_lut);
}

static int16_t clamp16(int32_t v) {
  return (int16_t)(v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v));
}

static void softmax_int16(const OpData* d, const int16_t* x, int16_t* o, int n) {
  int16_t max = INT16_MIN;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  int64_t sum = 0; /* Q16.15 */
  for (int i = 0; i < n; ++i) {
    const int32_t scaled = tff_mbqm(x[i] - max, d->mult, d->shift);
    o[i] = lut16_lookup(clamp16(scaled + 32767), g_exp_lut);
    sum += o[i];
  }
  /* The row max's exp is ~1 (32767), so sum > 0; capped where TFLite's
   * int32 sum would overflow. */
  const uint32_t s = sum < INT32_MAX ? (uint32_t)sum : (uint32_t)INT32_MAX;
  int hp1 = 0; /* CountLeadingZeros */
  while (!((s << hp1) & 0x80000000u)) ++hp1;
  const int32_t shifted = (int32_t)((((int64_t)s << (hp1 - 1)) + (1 << 13)) >> 14);
  const int16_t recip = lut16_lookup(clamp16(shifted - ((1 << 15) + (1 << 16))), g_recip_lut);
  const int rs = 31 - hp1;
  for (int i = 0; i < n; ++i) {
    const int32_t v = (int32_t)(((int64_t)o[i] * recip + ((int64_t)1 << (rs - 1))) >> rs);
    o[i] = (int16_t)(v < 0 ? 0 : (v > INT16_MAX ? INT16_MAX : v));
  }
}

static TfLiteStatus prepare_int16(TfLiteContext* ctx, const TfLiteTensor* in,
                                  const TfLiteTensor* out, OpData* d) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "SOFTMAX", "input", in));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) <= 4,
                     "int16 softmax supports ranks 1 to 4, got rank %d", tff_rank(in));
  const float s_out = tff_scale(out);
  TF_LITE_ENSURE_MSG(ctx, tff_zero_point(out) == 0 &&
                              fabsf(s_out - 1.0f / 32768) <= 0.001f / 32768,
                     "int16 output needs scale 1/32768 and zero point 0, got %g and %d",
                     (double)s_out, (int)tff_zero_point(out));
  tff_once(&g_luts_once, luts_init);
  const double real = (double)tff_scale(in) * (double)d->beta / (10.0 / 65535.0);
  TF_LITE_ENSURE_MSG(ctx, real >= 0.0, "beta * input scale must not be negative, got %g * %g",
                     (double)d->beta, (double)tff_scale(in));
  tff_quantize_multiplier(real < 2147483647.0 ? real : 2147483647.0, &d->mult, &d->shift);
  return kTfLiteOk;
}

/* XNNPACK's float softmax: the row max, exp(x − max) and its sum by the
 * f32-raddstoreexpminusmax kernel, then each times 1/sum, flushed. */
static void softmax_xnn(tff_f32_raddstoreexpminusmax_fn exp_sum, const float* x, float* o,
                        int n) {
  float max = -INFINITY;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  const float scale = 1.0f / exp_sum((size_t)n, x, max, o);
  for (int i = 0; i < n; ++i) o[i] = tff_ftz(o[i] * scale);
}

static void softmax_f32(float beta, const float* x, float* o, int n) {
  float max = -INFINITY;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) {
    o[i] = expf((x[i] - max) * beta);
    sum += o[i];
  }
  for (int i = 0; i < n; ++i) o[i] /= sum;
}

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare_int8(TfLiteContext* ctx, const TfLiteTensor* in,
                                 const TfLiteTensor* out, OpData* d) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "SOFTMAX", "input", in));
  const float s_out = tff_scale(out);
  TF_LITE_ENSURE_MSG(ctx, tff_zero_point(out) == -128 && fabsf(s_out - 1.0f / 256) <= 0.001f / 256,
                     "int8 output needs scale 1/256 and zero point -128, got %g and %d",
                     (double)s_out, (int)tff_zero_point(out));
  const double real = (double)d->beta * (double)tff_scale(in) * (double)(1 << 26);
  TF_LITE_ENSURE_MSG(ctx, real >= 0.0, "beta * input scale must not be negative, got %g * %g",
                     (double)d->beta, (double)tff_scale(in));
  d->fixed_point = tff_numerics_ref(ctx);
  if (d->fixed_point) {
    tff_quantize_multiplier(real < 2147483647.0 ? real : 2147483647.0, &d->mult, &d->shift);
    /* CalculateInputRadius: differences below -radius give exp() ~ 0. */
    const double radius = floor(31.0 * (double)(1 << 26) / ldexp(1.0, d->shift));
    d->diff_min = -(int32_t)(radius < 2147483647.0 ? radius : 2147483647.0);
  } else {
    const float scale = -tff_scale(in) * d->beta;
    for (int i = 0; i < 256; ++i) d->table[i] = expf(scale * (float)i);
    d->out_scale = s_out;
    d->out_zp = tff_zero_point(out);
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 1);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const TfLiteSoftmaxParams* p = (const TfLiteSoftmaxParams*)node->builtin_data;
  TF_LITE_ENSURE(ctx, in != NULL && out != NULL && p != NULL);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) >= 1, "input must have rank >= 1");
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteInt8 ||
                              in->type == kTfLiteInt16,
                     "type %s not supported (float32, int8, int16)", TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  d->beta = p->beta;
  d->xnn_exp = NULL;
  if (in->type == kTfLiteFloat32 && !tff_numerics_ref(ctx) && p->beta == 1.0f) {
    d->xnn_exp = tff_f32_raddstoreexpminusmax_select(tff_cpu_effective())->fn;
  }
  if (in->type == kTfLiteInt8) TF_LITE_ENSURE_OK(ctx, prepare_int8(ctx, in, out, d));
  if (in->type == kTfLiteInt16) TF_LITE_ENSURE_OK(ctx, prepare_int16(ctx, in, out, d));
  return tff_resize_output(ctx, out, tff_rank(in), in->dims->data);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int n = tff_dim(in, tff_rank(in) - 1);
  const size_t rows = n ? tff_num_elements(in->dims) / (size_t)n : 0;
  for (size_t r = 0; r < rows; ++r) {
    const size_t at = r * (size_t)n;
    if (d->xnn_exp != NULL) {
      softmax_xnn(d->xnn_exp, in->data.f + at, out->data.f + at, n);
    } else if (in->type == kTfLiteFloat32) {
      softmax_f32(d->beta, in->data.f + at, out->data.f + at, n);
    } else if (in->type == kTfLiteInt16) {
      softmax_int16(d, in->data.i16 + at, out->data.i16 + at, n);
    } else if (d->fixed_point) {
      softmax_fixed_point(d, in->data.int8 + at, out->data.int8 + at, n);
    } else {
      softmax_table(d, in->data.int8 + at, out->data.int8 + at, n);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SOFTMAX(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinSoftmax,
                                       .version = 1};
  return &r;
}
