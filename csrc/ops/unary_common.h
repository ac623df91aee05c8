/* Shared by the one-input elementwise ops (RELU, RELU6, LOGISTIC,
 * HARD_SWISH, QUANTIZE, DEQUANTIZE and others): prepare checks, the 8-bit
 * lookup table, and the RELU family.
 *
 * Why tables: an op from int8/uint8 to int8/uint8 has only 256 distinct
 * inputs, so prepare evaluates the exact TFLite or XNNPACK formula once per
 * code and invoke is a gather. Which formula fills the table is all that
 * differs between the numerics modes (XNNPACK builds its LUT ops the same
 * way, from its reference kernel).
 */
#ifndef TFLITE_FAST_OPS_UNARY_COMMON_H_
#define TFLITE_FAST_OPS_UNARY_COMMON_H_

#include <float.h>
#include <stdlib.h>

#include "kernel_util.h"
#include "ukernels/f32-vrsqrt/f32-vrsqrt.h"

/* Checks one present input and output; shapes the output like the input. */
static inline TfLiteStatus tff_unary_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                             const char* name, TfLiteTensor** in,
                                             TfLiteTensor** out) {
  TF_LITE_ENSURE_MSG(ctx, node->user_data != NULL, "%s: out of memory", name);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == 1,
                     "%s: expected 1 input and 1 output, got %d and %d", name,
                     tff_num_inputs(node), tff_num_outputs(node));
  *in = tff_input(ctx, node, 0);
  *out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, *in && *out, "%s: the input or the output is missing", name);
  return tff_resize_output(ctx, *out, (*in)->dims->size, (*in)->dims->data);
}

/* Code range of the quantized types these ops take; 0 (and [0, 0]) for
 * other types. */
static inline int tff_int_range(TfLiteType type, int32_t* lo, int32_t* hi) {
  *lo = *hi = 0;
  switch (type) {
    case kTfLiteInt8: *lo = INT8_MIN, *hi = INT8_MAX; return 1;
    case kTfLiteUInt8: *hi = UINT8_MAX; return 1;
    case kTfLiteInt16: *lo = INT16_MIN, *hi = INT16_MAX; return 1;
    default: return 0;
  }
}

/* out[i] = lut[in[i]] over 8-bit codes (int8 read as its uint8 bits). */
static inline void tff_lut8_run(const uint8_t* lut, const uint8_t* in, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = lut[in[i]];
}

/* OpData of RELU, RELU6, LOGISTIC and HARD_SWISH: float bounds (RELU
 * family) and the table of the 8-bit types. */
typedef struct tff_unary_data {
  float lo, hi;
  uint8_t lut[256];
} tff_unary_data;

TFF_ZEROED_INIT(tff_unary_init, tff_unary_data)

/* = tff_free_user_data (kept for the ops that name it). */
static inline void tff_unary_free(TfLiteContext* ctx, void* data) { tff_free_user_data(ctx, data); }

/* Invoke of an int8/uint8 op prepared as a table. */
static inline void tff_unary_lut_run(const TfLiteNode* node, const TfLiteTensor* in,
                                     TfLiteTensor* out) {
  const tff_unary_data* d = (const tff_unary_data*)node->user_data;
  tff_lut8_run(d->lut, in->data.uint8, out->data.uint8, tff_num_elements(in->dims));
}

/* Invoke head of the ops that are a table for 8-bit types and a float32
 * loop otherwise: runs the table and returns 0, or for float32 sets the
 * input x, output y and length n and returns 1. */
static inline int tff_unary_float_or_lut(TfLiteContext* ctx, const TfLiteNode* node,
                                         const float** x, float** y, size_t* n) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (in->type != kTfLiteFloat32) {
    tff_unary_lut_run(node, in, out);
    return 0;
  }
  *x = in->data.f;
  *y = out->data.f;
  *n = tff_num_elements(in->dims);
  return 1;
}

/* ---- RELU family (TFLite activations.cc ReluPrepare + QuantizedReluX) ----
 * Float: clamp to [fmin, fmax]. int8/uint8: requantize from the input to the
 * output scale with MBQM (double rounding) and clamp to
 *   [max(qmin, z_out + roundf(fmin/s_out)), min(qmax, z_out + roundf(fmax/s_out))]
 * (fmax = +inf: qmax); XNNPACK does not take quantized RELUs, so both modes
 * agree. RELU, RELU6, RELU_N1_TO_1 and RELU_0_TO_1 differ only in the bounds. */
static inline TfLiteStatus tff_relu_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                            const char* name, float fmin, float fmax) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, name, &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "%s: input type %s and output type %s differ",
                     name, TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  tff_unary_data* d = (tff_unary_data*)node->user_data;
  if (in->type == kTfLiteFloat32) {
    d->lo = fmin;
    d->hi = fmax;
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "%s: type %s is not supported (float32, int8, uint8)", name,
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "output", out));
  /* The ratio is a float division, widened (ReluPrepare). */
  const float ratio = tff_scale(in) / tff_scale(out);
  const float bmin = fmin / tff_scale(out), bmax = isinf(fmax) ? 0.0f : fmax / tff_scale(out);
  int32_t m, qmin, qmax;
  int e;
  tff_quantize_multiplier((double)ratio, &m, &e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(ratio) && e <= 30 && fabsf(bmin) < 2147483648.0f &&
                          fabsf(bmax) < 2147483648.0f,
                     "%s: input scale %g and output scale %g are too far apart", name,
                     (double)tff_scale(in), (double)tff_scale(out));
  tff_int_range(in->type, &qmin, &qmax);
  const int32_t zi = tff_zero_point(in), zo = tff_zero_point(out);
  const int64_t lo64 = (int64_t)zo + (int32_t)roundf(bmin);
  const int64_t hi64 = isinf(fmax) ? qmax : (int64_t)zo + (int32_t)roundf(bmax);
  const int32_t lo = lo64 < qmin ? qmin : (int32_t)(lo64 > qmax ? qmax : lo64);
  const int32_t hi = hi64 > qmax ? qmax : (int32_t)(hi64 < qmin ? qmin : hi64);
  for (int32_t v = qmin; v <= qmax; ++v) {
    const int32_t o = tff_mbqm(v - zi, m, e) + zo;
    d->lut[(uint8_t)v] = (uint8_t)(o < lo ? lo : (o > hi ? hi : o));
  }
  return kTfLiteOk;
}

static inline TfLiteStatus tff_relu_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const tff_unary_data* d = (const tff_unary_data*)node->user_data;
  const float* x;
  float* y;
  size_t n;
  if (!tff_unary_float_or_lut(ctx, node, &x, &y, &n)) return kTfLiteOk;
  /* Output and input share a buffer only when the producer of the input
   * took this activation (runtime/fuse.h): the values are already final. */
  if (x == y) return kTfLiteOk;
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i] < d->lo ? d->lo : x[i];
    y[i] = v > d->hi ? d->hi : v;
  }
  return kTfLiteOk;
}

/* ---- ops that keep the type (ABS, FLOOR, EXP, LOG, ...) ---- */

/* TFF_TYPE_BIT(kTfLiteFloat32) | ...: a set of types for tff_unary_prepare_types. */
#define TFF_TYPE_BIT(t) (1ull << (t))

/* tff_unary_prepare plus: the output has the input's type, one of `types`
 * (a TFF_TYPE_BIT set; `names` lists them for the message). */
static inline TfLiteStatus tff_unary_prepare_types(TfLiteContext* ctx, TfLiteNode* node,
                                                   const char* name, uint64_t types,
                                                   const char* names, TfLiteTensor** in,
                                                   TfLiteTensor** out) {
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, name, in, out));
  TF_LITE_ENSURE_MSG(ctx, (*in)->type == (*out)->type,
                     "%s: input type %s and output type %s differ", name,
                     TfLiteTypeGetName((*in)->type), TfLiteTypeGetName((*out)->type));
  TF_LITE_ENSURE_MSG(ctx, (unsigned)(*in)->type < 64 && (types & TFF_TYPE_BIT((*in)->type)),
                     "%s: type %s is not supported (%s)", name,
                     TfLiteTypeGetName((*in)->type), names);
  return kTfLiteOk;
}

/* Quantized input and output (TFLite's elementwise GenericPrepare): both
 * affine with valid per-tensor parameters; `zero_zp` also needs zero points 0
 * (the int16 kernels). */
static inline TfLiteStatus tff_unary_check_quant(TfLiteContext* ctx, const char* name,
                                                 const TfLiteTensor* in,
                                                 const TfLiteTensor* out, int zero_zp) {
  TF_LITE_ENSURE_MSG(ctx, in->quantization.type == kTfLiteAffineQuantization &&
                          out->quantization.type == kTfLiteAffineQuantization,
                     "%s: %s input and output must be quantized", name,
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "output", out));
  TF_LITE_ENSURE_MSG(ctx, !zero_zp || (tff_zero_point(in) == 0 && tff_zero_point(out) == 0),
                     "%s: %s zero points must be 0, got %d and %d", name,
                     TfLiteTypeGetName(in->type), (int)tff_zero_point(in),
                     (int)tff_zero_point(out));
  return kTfLiteOk;
}

/* Prepare of the ops that take float32 only. */
static inline TfLiteStatus tff_unary_prepare_f32(TfLiteContext* ctx, TfLiteNode* node,
                                                 const char* name) {
  TfLiteTensor *in, *out;
  return tff_unary_prepare_types(ctx, node, name, TFF_TYPE_BIT(kTfLiteFloat32), "float32", &in,
                                 &out);
}

/* y = f(x) over float32. */
static inline void tff_unary_map_f32(const TfLiteTensor* in, TfLiteTensor* out,
                                     float (*f)(float)) {
  const float* x = in->data.f;
  float* y = out->data.f;
  const size_t n = tff_num_elements(in->dims);
  for (size_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

/* Defines tff_register_NAME() of an op that takes float32 only and maps it
 * elementwise: by f_default in the default numerics mode, f_ref in the
 * reference mode (CEIL, FLOOR, ROUND, SQUARE, SIN, COS). */
#define TFF_FLOAT_UNARY_OP(NAME, code, f_default, f_ref)                               \
  static TfLiteStatus NAME##_prepare(TfLiteContext* ctx, TfLiteNode* node) {           \
    return tff_unary_prepare_f32(ctx, node, #NAME);                                   \
  }                                                                                    \
  static TfLiteStatus NAME##_invoke(TfLiteContext* ctx, TfLiteNode* node) {            \
    tff_unary_map_f32(tff_input(ctx, node, 0), tff_output(ctx, node, 0),              \
                      tff_numerics_ref(ctx) ? f_ref : f_default);                      \
    return kTfLiteOk;                                                                  \
  }                                                                                    \
  const TfLiteRegistration* tff_register_##NAME(void) {                                \
    static const TfLiteRegistration r = {.init = tff_unary_init,                       \
                                         .free = tff_free_user_data,                   \
                                         .prepare = NAME##_prepare,                    \
                                         .invoke = NAME##_invoke,                      \
                                         .builtin_code = code,                         \
                                         .version = 1};                                \
    return &r;                                                                         \
  }

/* XNNPACK's f32 sin/cos (rational_5_4_div, FMA kernels, which AUTO runs on
 * x86 with FMA3): reduce by a rounded multiple of 2π (two-part constant),
 * for cos reflect as π/2 − x, fold into [−π/2, π/2], then the odd rational
 * x·(1 + a3·x² + a5·x⁴)/(1 + b2·x² + b4·x⁴). Huge or infinite inputs give
 * NaN, as in XNNPACK. Comparisons copy the x86 min/max NaN rules. */
static inline float tff_xnn_sincos(float x, int cosine) {
  const float pi = 3.1415927f;
  x = tff_ftz(x);
  const float k = rintf(x * 0.15915494f);
  x = fmaf(-k, 6.28125f, x);
  x = fmaf(-k, 1.9353072e-3f, x);
  if (cosine) x = (1.5707963705f - x) + -4.3711388e-08f;
  float t = pi - x;
  x = x < t ? x : t;
  t = -pi - x;
  x = x > t ? x : t;
  t = pi - x;
  x = x < t ? x : t;
  const float x2 = x * x;
  const float p = x * fmaf(x2, fmaf(x2, 3.2340581529e-03f, -1.3314664364e-01f), 1.0f);
  const float q = fmaf(x2, fmaf(x2, 4.8770775902e-04f, 3.3519912511e-02f), 1.0f);
  return tff_ftz(p / q);
}

/* A real function for the tables below, with its parameters. */
typedef float (*tff_real_fn)(float x, const void* params);

/* The 8-bit table of y = f(x) for in -> out (int8 or uint8, same type):
 *  - TFLite (LUTPopulate<int8_t>): q = round_half_away(f(s_in·(v − z_in))·(1/s_out))
 *    + z_out, clamped;
 *  - XNNPACK (its LUT ops run the reference kernel on every code):
 *    q = nearbyint(f((v − z_in)·s_in)·(1/s_out) + z_out), NaN -> 0, clamped. */
static inline void tff_lut8_fill(const TfLiteTensor* in, const TfLiteTensor* out, int xnnpack,
                                 tff_real_fn f, const void* params, uint8_t* lut) {
  const float s = tff_scale(in), inv = 1.0f / tff_scale(out);
  const int32_t zi = tff_zero_point(in), zo = tff_zero_point(out);
  int32_t qmin, qmax;
  tff_int_range(in->type, &qmin, &qmax);
  for (int32_t v = qmin; v <= qmax; ++v) {
    float q;
    if (xnnpack) {
      q = f(((float)v - (float)zi) * s, params) * inv + (float)zo;
      q = isnan(q) ? 0.0f : nearbyintf(q);
    } else {
      q = roundf(f(s * (float)(v - zi), params) * inv) + (float)zo;
    }
    /* Clamped in float, so ±inf saturate (as the oracle's build does). */
    const int32_t o = q > (float)qmin ? (q < (float)qmax ? (int32_t)q : qmax) : qmin;
    lut[(uint8_t)v] = (uint8_t)o;
  }
}

/* TFLite's int16 table (LUTPopulate<int16_t>): 512 steps over the input
 * range plus the end point, each sample biased by half the error of
 * interpolating the step's midpoint; all in float32. */
#define TFF_LUT16_SIZE 513
static inline void tff_lut16_fill(const TfLiteTensor* in, const TfLiteTensor* out,
                                  tff_real_fn f, const void* params, int16_t* lut) {
  const float s_in = tff_scale(in), s_out = tff_scale(out);
  const int32_t zi = tff_zero_point(in), zo = tff_zero_point(out);
  const float in_min = s_in * (float)(INT16_MIN - zi), in_max = s_in * (float)(INT16_MAX - zi);
  const float out_min = s_out * (float)(INT16_MIN - zo), out_max = s_out * (float)(INT16_MAX - zo);
  const float step = (in_max - in_min) / 512.0f, half = step / 2.0f;
  const float inv = 65536.0f / (out_max - out_min);
  for (int i = 0; i < TFF_LUT16_SIZE; ++i) {
    float v;
    if (i == 512) {
      v = roundf(f(in_max, params) * inv);
    } else {
      const float x = in_min + (float)i * step;
      const float y = f(x, params), mid = f(x + half, params);
      const float next = f(in_min + (float)(i + 1) * step, params);
      const float interp = roundf((next * inv + roundf(y * inv)) / 2.0f);
      const float bias = roundf((interp - roundf(mid * inv)) / 2.0f);
      v = roundf(y * inv) - bias;
    }
    /* NaN (inf − inf where f overflows) converts as x86 does: to 0. */
    v = v < -32768.0f ? -32768.0f : (v > 32767.0f ? 32767.0f : v);
    lut[i] = isnan(v) ? 0 : (int16_t)v;
  }
}

/* TFLite's LUTLookup for int16: the top 9 bits pick a sample, the low 7
 * interpolate linearly to the next. The slope is held in int16 and the sum
 * is cast to int16, both wrapping as in TFLite (tables of overflowing
 * functions have neighbours −32768 and 32767). */
static inline void tff_lut16_run(const int16_t* lut, const int16_t* x, int16_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const int idx = 256 + (x[i] >> 7);
    const int32_t base = lut[idx], slope = (int16_t)(lut[idx + 1] - lut[idx]);
    y[i] = (int16_t)(base + ((slope * (x[i] & 0x7f) + 64) >> 7));
  }
}


/* ---- float32 or quantized int8/int16 (EXP, LOG, SQRT) ---- */

/* tff_unary_prepare_types for float32, int8 and int16, and for the integer
 * types tff_unary_check_quant (int16: zero points 0). */
static inline TfLiteStatus tff_unary_prepare_fq(TfLiteContext* ctx, TfLiteNode* node,
                                                const char* name, TfLiteTensor** in,
                                                TfLiteTensor** out) {
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare_types(ctx, node, name,
                                                 TFF_TYPE_BIT(kTfLiteFloat32) |
                                                     TFF_TYPE_BIT(kTfLiteInt8) |
                                                     TFF_TYPE_BIT(kTfLiteInt16),
                                                 "float32, int8, int16", in, out));
  if ((*in)->type == kTfLiteFloat32) return kTfLiteOk;
  return tff_unary_check_quant(ctx, name, *in, *out, (*in)->type == kTfLiteInt16);
}

/* OpData of the ops that are a float32 function and tables for int8 (256
 * codes) and int16 (TFLite's 513 samples). */
typedef struct tff_table_data {
  uint8_t lut[256];
  int16_t lut16[TFF_LUT16_SIZE];
} tff_table_data;

TFF_ZEROED_INIT(tff_table_init, tff_table_data)

/* Invoke of such an op: f over float32, else the table of the type. */
static inline TfLiteStatus tff_table_invoke(TfLiteContext* ctx, const TfLiteNode* node,
                                            float (*f)(float)) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const tff_table_data* d = (const tff_table_data*)node->user_data;
  const size_t n = tff_num_elements(in->dims);
  switch (in->type) {
    case kTfLiteFloat32: tff_unary_map_f32(in, out, f); break;
    case kTfLiteInt8: tff_lut8_run(d->lut, in->data.uint8, out->data.uint8, n); break;
    default: tff_lut16_run(d->lut16, in->data.i16, out->data.i16, n); break;
  }
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_UNARY_COMMON_H_ */
