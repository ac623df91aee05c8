/* The pooling ukernels (f32-maxpool, f32-avgpool, qs8-maxpool, qs8-avgpool):
 * TFLite's MAX_POOL_2D / AVERAGE_POOL_2D over the in-image taps of each
 * window (padding taps are not taps). Every kernel has the signature
 *
 *   void k(size_t pixels, size_t taps, size_t channels, const T* const* input,
 *          T* output, const P* params);
 *
 *   pixels    output pixels (>= 1), all with the same tap count
 *   taps      in-image taps per pixel (>= 1; qs8-avgpool: < 2^24, so no
 *             int32 sum overflows)
 *   channels  values per pixel (>= 1)
 *   input     pixels * taps pointers: pixel i's taps are input[i*taps + t],
 *             t < taps, in window order (row-major); each points at
 *             `channels` contiguous values
 *   output    pixels * channels values, pixel after pixel; nothing past
 *             output[pixels*channels - 1] is written
 *   params    the output bounds, min <= max
 *
 * Per channel c of a pixel (the scalar twin, tff_*_pool_elem below):
 *   f32 max: m = -inf, then m = x > m ? x : m per tap (a NaN tap is skipped)
 *   f32 avg: s = +0, then s = s + x per tap, then s / (float)taps
 *   qs8 max: m = -128, then m = x > m ? x : m per tap
 *   qs8 avg: S = Σ x (int32), then (S > 0 ? S + taps/2 : S − taps/2) / taps
 *            (C division: rounds half away from zero)
 * then v < min ? min : (v > max ? max : v) (a NaN passes, -0.0 is kept).
 * Every SIMD kernel gives these bits: the same IEEE operations per lane, in
 * the same order, no FMA, max/min with the scalar compare's NaN rule. */
#ifndef TFF_UKERNELS_POOL_H_
#define TFF_UKERNELS_POOL_H_

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"

typedef struct tff_f32_pool_params {
  float min, max;
} tff_f32_pool_params;

typedef struct tff_qs8_pool_params {
  int32_t min, max;   /* within [-128, 127] */
} tff_qs8_pool_params;

/* The kernel types, and family P's kernels and configs on type KT
 * (ukernels/select.h). */
typedef void tff_f32_pool_ukernel(size_t pixels, size_t taps, size_t channels,
                                  const float* const* input, float* output,
                                  const tff_f32_pool_params* params);
typedef void tff_qs8_pool_ukernel(size_t pixels, size_t taps, size_t channels,
                                  const int8_t* const* input, int8_t* output,
                                  const tff_qs8_pool_params* params);
#define TFF_DECLARE_POOL_FAMILY(P, KT) \
  typedef KT P##_ukernel;              \
  TFF_DECLARE_FAMILY(P)

/* The configs of an f32 family (NEON on aarch64 only, select.h). */
#define TFF_DEFINE_F32_POOL_CONFIGS(P)                                                     \
  const P##_config P##_configs[] = {TFF_SELECT_ENTRY(P, scalar, TFF_ISA_SCALAR)            \
                                    TFF_SELECT_SSE41(P) TFF_SELECT_AVX2(P)                 \
                                    TFF_SELECT_NEON64(P)};                                 \
  TFF_DEFINE_SELECT(P)

static inline float tff_f32_maxpool_elem(size_t taps, const float* const* in, size_t c,
                                         const tff_f32_pool_params* p) {
  float m = -INFINITY;
  for (size_t t = 0; t < taps; ++t) m = in[t][c] > m ? in[t][c] : m;
  return m < p->min ? p->min : (m > p->max ? p->max : m);
}

static inline float tff_f32_avgpool_elem(size_t taps, const float* const* in, size_t c,
                                         const tff_f32_pool_params* p) {
  float s = 0.0f;
  for (size_t t = 0; t < taps; ++t) s = s + in[t][c];
  s = s / (float)taps;
  return s < p->min ? p->min : (s > p->max ? p->max : s);
}

static inline int8_t tff_qs8_maxpool_elem(size_t taps, const int8_t* const* in, size_t c,
                                          const tff_qs8_pool_params* p) {
  int32_t m = INT8_MIN;
  for (size_t t = 0; t < taps; ++t) m = in[t][c] > m ? in[t][c] : m;
  return (int8_t)(m < p->min ? p->min : (m > p->max ? p->max : m));
}

/* The average of sum s over n taps, rounded half away from zero. */
static inline int32_t tff_qs8_avgpool_quot(int32_t s, int32_t n) {
  return (s > 0 ? s + n / 2 : s - n / 2) / n;
}

/* The same, clamped. */
static inline int8_t tff_qs8_avgpool_round(int32_t s, int32_t n, const tff_qs8_pool_params* p) {
  const int32_t v = tff_qs8_avgpool_quot(s, n);
  return (int8_t)(v < p->min ? p->min : (v > p->max ? p->max : v));
}

static inline int8_t tff_qs8_avgpool_elem(size_t taps, const int8_t* const* in, size_t c,
                                          const tff_qs8_pool_params* p) {
  int32_t s = 0;
  for (size_t t = 0; t < taps; ++t) s += in[t][c];
  return tff_qs8_avgpool_round(s, (int32_t)taps, p);
}

/* qs8-avgpool SIMD kernels divide in float: for 1 <= n <= 2^16 taps and
 * |N| <= 128.5·n (N = S ± n/2) both are exact floats (< 2^24), and
 * trunc(fl(N/n)) == trunc(N/n): a non-integer N/n lies >= 1/n >= 2^-16 from
 * every integer while |fl(N/n) − N/n| <= 128.5·2^-24 < 2^-16 (|N/n| <=
 * 128.5, relative error <= 2^-24), so rounding never reaches an integer. With
 * more taps they divide per channel in integers. */
#define TFF_QS8_AVGPOOL_MAX_FLOAT_TAPS 65536

/* The per-channel integer path: k sums s of n taps to out. */
static inline void tff_qs8_avgpool_round_n(const int32_t* s, size_t k, int32_t n, int8_t* out,
                                           const tff_qs8_pool_params* p) {
  for (size_t i = 0; i < k; ++i) out[i] = tff_qs8_avgpool_round(s[i], n, p);
}

#endif /* TFF_UKERNELS_POOL_H_ */
