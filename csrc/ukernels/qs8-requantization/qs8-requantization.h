/* qs8-requantization: n int32 accumulators -> n int8 outputs, channel c
 * with its own parameters, in the three schemes of tff_requant_row
 * (ops/conv_common.h; docs/numerics.md §1.4, §2.4):
 *   fp32      XNNPACK: lrintf(clamp(f32(acc)·scale[c], min_less_zp,
 *             max_less_zp)) + zp (ties to even; the bounds hold the clamp)
 *   gemmlowp  TFLite's MultiplyByQuantizedMultiplier (tff_mbqm):
 *             clamp(mbqm(acc, multiplier[c], shift[c]) + zp, lo, hi)
 *   double    TFLite's reference FC: clamp(round(f64(acc)·scale[c]) + zp,
 *             lo, hi), round() half away from zero
 * The element functions below are the scalar twin (and what other ops call
 * for one value); every SIMD kernel gives its bytes for every input.
 *
 * Parameters of every kernel:
 *   n       number of channels (0 allowed)
 *   acc     n int32 accumulators, any values
 *   out     n int8 outputs; nothing past out[n-1] is written
 *   params  as below; the per-channel arrays hold >= n entries, entry c for
 *           acc[c] (the arrays start at the row's first channel)
 */
#ifndef TFLITE_FAST_UKERNELS_QS8_REQUANTIZATION_H_
#define TFLITE_FAST_UKERNELS_QS8_REQUANTIZATION_H_

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"

typedef struct {
  const float* scale;             /* n: any float (0, subnormal, inf: 0·inf gives zp) */
  float min_less_zp, max_less_zp; /* lo − zp, hi − zp: integers within [−255, 255] */
  int32_t zp;                     /* output zero point, [−128, 127] */
} tff_qs8_requantize_fp32_params;

typedef struct {
  const int32_t* multiplier; /* n: any int32 (tff_quantize_multiplier: 0 or [2^30, 2^31)) */
  const int32_t* shift;      /* n: −31..30 (left when > 0, rounding right when < 0) */
  int32_t zp, lo, hi;        /* zero point and bounds, within [−128, 127] */
} tff_qs8_requantize_gemmlowp_params;

typedef struct {
  const double* scale; /* n: finite (f64(acc)·scale is then finite, never NaN) */
  int32_t zp, lo, hi;  /* zero point and bounds, within [−128, 127] */
} tff_qs8_requantize_double_params;

typedef void tff_qs8_requantize_fp32_ukernel(size_t n, const int32_t* acc, int8_t* out,
                                             const tff_qs8_requantize_fp32_params* params);
typedef void tff_qs8_requantize_gemmlowp_ukernel(size_t n, const int32_t* acc, int8_t* out,
                                                 const tff_qs8_requantize_gemmlowp_params* params);
typedef void tff_qs8_requantize_double_ukernel(size_t n, const int32_t* acc, int8_t* out,
                                               const tff_qs8_requantize_double_params* params);

/* Each: <P>_ukernel__{scalar,sse41,avx2,neon}, <P>_config {fn, name, isa},
 * <P>_configs (what this build has; double has no armv7 NEON kernel: no
 * float64 vectors there) and <P>_select (best ISA in a mask). */
TFF_DECLARE_FAMILY(tff_qs8_requantize_fp32)
TFF_DECLARE_FAMILY(tff_qs8_requantize_gemmlowp)
TFF_DECLARE_FAMILY(tff_qs8_requantize_double)

/* ---- the scalar twin's formulas ---- */

/* SaturatingRoundingDoublingHighMul: floor((a·b + 2^30) / 2^31), i.e. ties
 * toward +inf (the nudge 1 − 2^30 of negative products with the truncating
 * division gives exactly that), saturated for INT32_MIN·INT32_MIN. */
static inline int32_t tff_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t p = (int64_t)a * (int64_t)b;
  const int64_t nudge = p >= 0 ? (1LL << 30) : (1 - (1LL << 30));
  return (int32_t)((p + nudge) / (1LL << 31));
}

/* RoundingDivideByPOT: round(x/2^k), ties away from zero; 0 <= k <= 31. */
static inline int32_t tff_rdbpot(int32_t x, int k) {
  const int32_t mask = (int32_t)((1LL << k) - 1);
  const int32_t rem = x & mask;
  const int32_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> k) + (rem > thr ? 1 : 0);
}

/* MultiplyByQuantizedMultiplier, TFLite reference (double rounding);
 * −31 <= shift <= 30. */
static inline int32_t tff_mbqm(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  return tff_rdbpot(tff_srdhm((int32_t)((uint32_t)x << left), multiplier), right);
}

/* XNNPACK fp32 requantization: round-to-nearest-even of acc·scale, clamped
 * in float before rounding, plus the zero point. No FMA contraction: the
 * product is rounded to float32 on its own (docs/numerics.md §1.14). A NaN
 * (0·inf, an infinite scale) passes both compares and rounds to 0: lrintf
 * leaves NaN unspecified, x86-64 and aarch64 gave 0, now every target does. */
static inline int32_t tff_requant_fp32(int32_t acc, float scale, float min_less_zp,
                                       float max_less_zp, int32_t zp) {
  volatile float v = (float)acc * scale;
  float f = v;
  f = f < min_less_zp ? min_less_zp : f;
  f = f > max_less_zp ? max_less_zp : f;
  f = f == f ? f : 0.0f;
  return (int32_t)lrintf(f) + zp;
}

/* round(f64(acc)·scale), bounded to ±1e9 so the int32 conversion is defined
 * (the bounds then clamp it anyway). */
static inline int32_t tff_requant_double(int32_t acc, double scale) {
  double r = round((double)acc * scale);
  r = r > 1e9 ? 1e9 : (r >= -1e9 ? r : -1e9);
  return (int32_t)r;
}

static inline int8_t tff_qs8_clamp(int32_t v, int32_t lo, int32_t hi) {
  return (int8_t)(v < lo ? lo : (v > hi ? hi : v));
}

static inline int8_t tff_qs8_requantize_fp32_elem(int32_t acc, float scale,
                                                  const tff_qs8_requantize_fp32_params* p) {
  return (int8_t)tff_requant_fp32(acc, scale, p->min_less_zp, p->max_less_zp, p->zp);
}

/* The zero point is added in int32 like TFLite's kernels, wrapping (as
 * their UB does on two's-complement hardware) when mbqm is near INT32_MAX. */
static inline int8_t tff_qs8_requantize_gemmlowp_elem(
    int32_t acc, int32_t multiplier, int32_t shift, const tff_qs8_requantize_gemmlowp_params* p) {
  const uint32_t v = (uint32_t)tff_mbqm(acc, multiplier, shift) + (uint32_t)p->zp;
  return tff_qs8_clamp((int32_t)v, p->lo, p->hi);
}

static inline int8_t tff_qs8_requantize_double_elem(int32_t acc, double scale,
                                                    const tff_qs8_requantize_double_params* p) {
  return tff_qs8_clamp(tff_requant_double(acc, scale) + p->zp, p->lo, p->hi);
}

/* Channels [i, n) by the element functions: the scalar twin, and the SIMD
 * kernels' tails. */
static inline void tff_qs8_requantize_fp32_range(size_t i, size_t n, const int32_t* acc,
                                                 int8_t* out,
                                                 const tff_qs8_requantize_fp32_params* p) {
  for (; i < n; ++i) out[i] = tff_qs8_requantize_fp32_elem(acc[i], p->scale[i], p);
}
static inline void tff_qs8_requantize_gemmlowp_range(
    size_t i, size_t n, const int32_t* acc, int8_t* out,
    const tff_qs8_requantize_gemmlowp_params* p) {
  for (; i < n; ++i)
    out[i] = tff_qs8_requantize_gemmlowp_elem(acc[i], p->multiplier[i], p->shift[i], p);
}
static inline void tff_qs8_requantize_double_range(size_t i, size_t n, const int32_t* acc,
                                                   int8_t* out,
                                                   const tff_qs8_requantize_double_params* p) {
  for (; i < n; ++i) out[i] = tff_qs8_requantize_double_elem(acc[i], p->scale[i], p);
}

/* The shape of every SIMD kernel: BLOCK(acc + i, out + i, params, i)
 * converts channels [i, i + W), the element functions the tail. */
#define TFF_QS8_REQUANTIZE_KERNEL(SCHEME, ISA, W, BLOCK)                                     \
  void tff_qs8_requantize_##SCHEME##_ukernel__##ISA(                                         \
      size_t n, const int32_t* acc, int8_t* out,                                             \
      const tff_qs8_requantize_##SCHEME##_params* p) {                                       \
    size_t i = 0;                                                                            \
    for (; i + (W) <= n; i += (W)) BLOCK(acc + i, out + i, p, i);                            \
    tff_qs8_requantize_##SCHEME##_range(i, n, acc, out, p);                                  \
  }

#endif /* TFLITE_FAST_UKERNELS_QS8_REQUANTIZATION_H_ */
