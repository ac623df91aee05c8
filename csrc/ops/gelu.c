/* GELU: x·Φ(x), exact (erfc) or, with `approximate`, the tanh form.
 *
 * float32 is bit-exact with the oracle in both modes, because a float GELU
 * often feeds a hybrid FULLY_CONNECTED, whose on-the-fly quantization turns
 * a 1-ulp difference into a visibly different output.
 *  - default: AUTO runs XNNPACK's vgelu / vapproxgelu (its FMA3 and AVX-512
 *    kernels compute alike): x clamped to ±c, erf(x/√2) ≈ x·P(x²)/Q(x²)
 *    (Horner with fused multiply-adds), y = (x·0.5)·(P/Q + 1).
 *  - reference: TFLite's reference_ops::Gelu evaluates Eigen expressions,
 *    built for x86 with SSE and no FMA, so 4-float packets from the start of
 *    the tensor and a scalar tail:
 *      exact:       (0.5·x)·erfc(x·(−1/√2)) with Eigen's generic_fast_erfc
 *                   (erfc = 1 + x·S(x²) for x² <= 1, else
 *                   exp(−x²)·(1 − x2_lo)·P(1/x²)/(x·Q(1/x²)) [+ 2 for x < 0];
 *                   exp is Eigen's pexp on packets, libm expf on the tail);
 *      approximate: (1 + tanh(√(2/π)·(x³·0.044715 + x)))·(0.5·x) with
 *                   Eigen's rational tanh (same on packets and tail).
 *    Packet-wide branches (any lane with x² > 1; any exp argument below −87)
 *    are kept, since they change how the other lanes are computed.
 *    Constants are Eigen's and XNNPACK's, as float bit patterns where the
 *    decimal form would not round-trip obviously.
 * int8/uint8: XNNPACK does not take them, so both modes use TFLite's table
 * (LUTPopulateInt8), built with libm erfcf / tanhf in float: for each code
 * q, y = f(s_in·(q − z_in)), lut[q] = clamp((int)(roundf(y·(1/s_out)) +
 * z_out)) (1/s_out a float reciprocal, the zero point added in float). */
#include <math.h>
#include <string.h>

#include "eigen_math.h"
#include "kernel_util.h"
#include "ops.h"
#include "unary_common.h"

/* √(2/π), rounded once to float as TFLite's constexpr float. */
#define SQRT_2_OVER_PI ((float)(1.12837916709551257390 * 0.70710678118654752440))
#define MINUS_SQRT_HALF ((float)-0.70710678118654752440)

/* cvttps2dq: truncation, INT32_MIN for NaN and out-of-range values. */
static inline int32_t cvtt(float f) {
  return f >= -2147483648.0f && f < 2147483648.0f ? (int32_t)f : INT32_MIN;
}

/* SSE min/max: the second operand when the first does not win (NaN too). */
static inline float min_sse(float a, float b) { return a < b ? a : b; }
static inline float max_sse(float a, float b) { return a > b ? a : b; }

/* ---- the table transforms (TFLite LUTPopulateInt8 calls these) ---- */
static inline float gelu_libm(float x) { return 0.5f * x * erfcf(x * MINUS_SQRT_HALF); }

static inline float gelu_tanh_libm(float x) {
  return 0.5f * x * (1.0f + tanhf(SQRT_2_OVER_PI * (x + 0.044715f * x * x * x)));
}

/* ---- default mode: XNNPACK rational 12/10 ---- */
typedef struct {
  float clamp, a[6], b[5]; /* a1..a11 (odd), b2..b10 (even) */
} xnn_rational;

static const xnn_rational kXnnGelu = {
    5.1638283730e+00f,
    {7.9788452387e-01f, 6.6972173750e-02f, 9.3065137044e-03f, 3.2973114867e-04f,
     1.2609783880e-05f, 4.5835321316e-08f},
    {2.5060352683e-01f, 2.8431978077e-02f, 1.8622842617e-03f, 7.2267655923e-05f,
     1.1988805682e-06f}};

static const xnn_rational kXnnApproxGelu = {
    4.84974098e+00f,
    {7.9788458347e-01f, 6.0803253204e-02f, 7.2898347862e-03f, 2.6887017884e-04f,
     1.4302649106e-05f, 4.9544411240e-08f},
    {2.4369759858e-01f, 2.4381054565e-02f, 1.3060354395e-03f, 7.6477612311e-05f,
     1.3433452750e-06f}};

static inline float gelu_xnn(const xnn_rational* k, float x0) {
  float x = min_sse(k->clamp, x0);
  x = max_sse(-k->clamp, x);
  const float x2 = x * x;
  float p = fmaf(x2, k->a[5], k->a[4]);
  for (int i = 3; i >= 0; --i) p = fmaf(x2, p, k->a[i]);
  p = x * p;
  float q = fmaf(x2, k->b[4], k->b[3]);
  for (int i = 2; i >= 0; --i) q = fmaf(x2, q, k->b[i]);
  q = fmaf(x2, q, 1.0f);
  return (x0 * 0.5f) * (p / q + 1.0f);
}

/* ---- reference mode: Eigen ---- */

/* generic_fast_erfc<float>, coefficients highest degree first. */
static const float kErfcSmall[6] = {5.61802298761904239654541015625e-04f,
                                    -4.91381669417023658752441406250e-03f,
                                    2.67075151205062866210937500000e-02f,
                                    -1.12800106406211853027343750000e-01f,
                                    3.76122951507568359375000000000e-01f,
                                    -1.12837910652160644531250000000e+00f};
static const float kErfcNum[4] = {1.0208116471767425537109375e-01f, 4.2920666933059692382812500e-01f,
                                  3.2379078865051269531250000e-01f, 5.3971976041793823242187500e-02f};
static const float kErfcDen[5] = {1.7251677811145782470703125e-02f, 3.9137163758277893066406250e-01f,
                                  1.0f, 6.2173241376876831054687500e-01f,
                                  9.5662862062454223632812500e-02f};

/* Horner, c[0] the highest coefficient, separate multiply and add. */
static inline float polevl(float x, const float* c, int n) {
  float p = c[0] * x + c[1];
  for (int i = 2; i <= n; ++i) p = p * x + c[i];
  return p;
}

/* Eigen's pexp_float on one packet: exp(v) = 2^m·exp(r), r = v − m·ln2 in
 * two steps, degree-6 polynomial; 2^m applied at once (pldexp_fast) unless
 * some lane has |v| > 87, then in four factors (pldexp) with results below
 * e^−104 flushed to zero. */
static void pexp_packet(const float v[4], float out[4]) {
  float y[4], m[4];
  int slow = 0;
  for (int l = 0; l < 4; ++l) {
    const float x = min_sse(tff_bits_f32(0x42b1722du), v[l]); /* 88.723 */
    m[l] = floorf(x * tff_bits_f32(0x3fb8aa3bu) + 0.5f);      /* log2(e) */
    float r = m[l] * -0.693359375f + x;
    r = m[l] * tff_bits_f32(0x395e8083u) + r; /* 2.12194440e-4 */
    const float r2 = r * r;
    float pe = r2 * tff_bits_f32(0x3ab42872u) + tff_bits_f32(0x3d2aadccu); /* p6, p4 */
    const float po = r2 * tff_bits_f32(0x3c091de6u) + tff_bits_f32(0x3e2aaa47u); /* p5, p3 */
    pe = r2 * pe + tff_bits_f32(0x3efffffcu);                               /* p2 */
    y[l] = r2 * (r * po + pe) + (r + 1.0f);
    slow |= fabsf(x) > 87.0f;
  }
  for (int l = 0; l < 4; ++l) {
    float o;
    if (!slow) {
      const float eb = min_sse(255.0f, max_sse(0.0f, m[l] + 127.0f));
      o = y[l] * tff_bits_f32((uint32_t)cvtt(eb) << 23);
    } else {
      const int32_t e = cvtt(min_sse(278.0f, max_sse(-278.0f, m[l])));
      const int32_t b = e >> 2;
      const float c = tff_bits_f32((uint32_t)(b + 127) << 23);
      o = y[l] * c * c * c * tff_bits_f32((uint32_t)(e - 3 * b + 127) << 23);
    }
    o = max_sse(v[l], o);
    if (slow && !(v[l] >= -104.0f)) o = 0.0f;
    out[l] = o;
  }
}

/* The large-|x| branch of generic_fast_erfc for one lane, given exp(−x²). */
static inline float erfc_large(float x, float x2, float e) {
  /* x2_lo = x·x − x2 exactly (Dekker, Veltkamp split at 2^12 + 1). */
  const float t = x * 4097.0f;
  const float hi = (x - t) + t, lo = x - hi;
  const float x2_lo = lo * lo + (((hi * hi - x2) + hi * lo) + hi * lo);
  const float z = e - e * x2_lo;
  const float q2 = 1.0f / x2;
  const float r = polevl(q2, kErfcNum, 3) / (polevl(q2, kErfcDen, 4) * x);
  return r * z + (x < 0.0f ? 2.0f : 0.0f);
}

static inline float erfc_clamp(float v) { return min_sse(11.0f, max_sse(-11.0f, v)); }

static inline float erfc_small(float x, float x2) { return polevl(x2, kErfcSmall, 5) * x + 1.0f; }

static float erfc_eigen_scalar(float v) {
  const float x = erfc_clamp(v), x2 = x * x;
  return x2 > 1.0f ? erfc_large(x, x2, expf(-x2)) : erfc_small(x, x2);
}

static void erfc_eigen_packet(const float v[4], float out[4]) {
  float x[4], x2[4], neg[4], e[4];
  int large = 0;
  for (int l = 0; l < 4; ++l) {
    x[l] = erfc_clamp(v[l]);
    x2[l] = x[l] * x[l];
    neg[l] = -x2[l];
    large |= x2[l] > 1.0f;
  }
  if (large) pexp_packet(neg, e);
  for (int l = 0; l < 4; ++l)
    out[l] = x2[l] > 1.0f ? erfc_large(x[l], x2[l], e[l]) : erfc_small(x[l], x2[l]);
}

static void gelu_ref_exact(const float* in, float* out, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float v[4], e[4];
    for (int l = 0; l < 4; ++l) v[l] = in[i + l] * MINUS_SQRT_HALF;
    erfc_eigen_packet(v, e);
    for (int l = 0; l < 4; ++l) out[i + l] = (0.5f * in[i + l]) * e[l];
  }
  for (; i < n; ++i) out[i] = (0.5f * in[i]) * erfc_eigen_scalar(in[i] * MINUS_SQRT_HALF);
}

static void gelu_ref_tanh(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float x = in[i];
    const float t = tff_eigen_tanh(((x * x * x) * 0.044715f + x) * SQRT_2_OVER_PI);
    out[i] = (t + 1.0f) * (0.5f * x);
  }
}

typedef struct OpData {
  int approximate, ref;
  uint8_t lut[256];
} OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "GELU", &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "GELU: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  OpData* d = (OpData*)node->user_data;
  const TfLiteGeluParams* p = (const TfLiteGeluParams*)node->builtin_data;
  d->approximate = p != NULL && p->approximate;
  d->ref = tff_numerics_ref(ctx);
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "GELU: type %s is not supported (float32, int8, uint8)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "GELU", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "GELU", "output", out));
  int32_t qmin, qmax;
  tff_int_range(in->type, &qmin, &qmax);
  const float s = tff_scale(in), inv = 1.0f / tff_scale(out);
  const int32_t zi = tff_zero_point(in), zo = tff_zero_point(out);
  for (int32_t q = qmin; q <= qmax; ++q) {
    const float x = s * (float)(q - zi);
    const float y = d->approximate ? gelu_tanh_libm(x) : gelu_libm(x);
    const float r = roundf(y * inv) + (float)zo;
    /* TFLite casts to int32 before clamping; x86 turns an out-of-range or
     * NaN float into INT32_MIN, which then clamps to qmin. */
    int32_t v = r >= -2147483648.0f && r < 2147483648.0f ? (int32_t)r : INT32_MIN;
    v = v < qmin ? qmin : (v > qmax ? qmax : v);
    d->lut[(uint8_t)q] = (uint8_t)v;
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const OpData* d = (const OpData*)node->user_data;
  const size_t n = tff_num_elements(in->dims);
  if (in->type != kTfLiteFloat32) {
    tff_lut8_run(d->lut, in->data.uint8, out->data.uint8, n);
    return kTfLiteOk;
  }
  const float* x = in->data.f;
  float* y = out->data.f;
  if (d->ref) {
    if (d->approximate) {
      gelu_ref_tanh(x, y, n);
    } else {
      gelu_ref_exact(x, y, n);
    }
    return kTfLiteOk;
  }
  const xnn_rational* k = d->approximate ? &kXnnApproxGelu : &kXnnGelu;
  for (size_t i = 0; i < n; ++i) y[i] = gelu_xnn(k, x[i]);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_GELU(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinGelu,
                                       .version = 1};
  return &r;
}
