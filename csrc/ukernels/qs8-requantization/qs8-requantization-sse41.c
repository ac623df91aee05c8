/* qs8-requantization, SSE4.1: 8 channels a block (4 for double), the tail
 * by the element functions.
 *  fp32: cvtepi32_ps, mul, clamp with the operands ordered so a NaN passes
 *    like the scalar compares, NaN -> 0, cvtps_epi32 (MXCSR: ties to even,
 *    as lrintf).
 *  gemmlowp: no per-lane shifts before AVX2, so both shifts are multiplies:
 *    x << left as mullo by 2^left; then floor((x·m + 2^30) / 2^31) from
 *    _mm_mul_epi32 on even and odd lanes (the srdhm, see mulhi31); the
 *    rounding right shift by k >= 1 is that same step on (q − [q<0]) and
 *    2^(31−k): floor(((q − [q<0])·2^(31−k) + 2^30) / 2^31)
 *    = floor((q + 2^(k−1) − [q<0]) / 2^k), which is tff_rdbpot.
 *  double: 2 lanes of f64, rounded by qs8-requantization-double-x86.h. */
#include <immintrin.h>
#include <string.h>

#include "qs8-requantization.h"

/* Two vectors of 4 int32 (within int8 after the clamps) to 8 bytes. */
static inline void store8(int8_t* out, __m128i a, __m128i b) {
  const __m128i v16 = _mm_packs_epi32(a, b);
  _mm_storel_epi64((__m128i*)out, _mm_packs_epi16(v16, v16));
}

static inline __m128i fp32x4(const int32_t* acc, const float* scale,
                             const tff_qs8_requantize_fp32_params* p) {
  __m128 f = _mm_mul_ps(_mm_cvtepi32_ps(_mm_loadu_si128((const __m128i*)acc)),
                        _mm_loadu_ps(scale));
  /* max_ps/min_ps return the second operand when one is NaN: f. */
  f = _mm_max_ps(_mm_set1_ps(p->min_less_zp), f);
  f = _mm_min_ps(_mm_set1_ps(p->max_less_zp), f);
  f = _mm_and_ps(f, _mm_cmpord_ps(f, f));
  return _mm_add_epi32(_mm_cvtps_epi32(f), _mm_set1_epi32(p->zp));
}

static inline void fp32x8(const int32_t* acc, int8_t* out,
                          const tff_qs8_requantize_fp32_params* p, size_t i) {
  store8(out, fp32x4(acc, p->scale + i, p), fp32x4(acc + 4, p->scale + i + 4, p));
}
TFF_QS8_REQUANTIZE_KERNEL(fp32, sse41, 8, fp32x8)

/* 2^e for 0 <= e <= 30: e + 127 is the float's exponent field. (e = 31
 * gives 0x80000000, which callers discard.) */
static inline __m128i pow2(__m128i e) {
  const __m128i bits = _mm_slli_epi32(_mm_add_epi32(e, _mm_set1_epi32(127)), 23);
  return _mm_cvttps_epi32(_mm_castsi128_ps(bits));
}

/* The 64-bit lanes' floor((p + 2^30) / 2^31) in their low halves: bits
 * 31..62 of p + 2^30, which a logical shift gives as an arithmetic one
 * would, as long as the quotient fits in int32. */
static inline __m128i round31(__m128i p) {
  return _mm_srli_epi64(_mm_add_epi64(p, _mm_set1_epi64x(1 << 30)), 31);
}

/* floor((a·b + 2^30) / 2^31) per int32 lane (low 32 bits). */
static inline __m128i mulhi31(__m128i a, __m128i b) {
  const __m128i even = round31(_mm_mul_epi32(a, b));
  const __m128i odd = round31(_mm_mul_epi32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32)));
  return _mm_blend_epi16(even, _mm_slli_epi64(odd, 32), 0xCC);
}

static inline __m128i gemmlowp4(const int32_t* acc, const tff_qs8_requantize_gemmlowp_params* p,
                                size_t i) {
  const __m128i zero = _mm_setzero_si128(), imin = _mm_set1_epi32(INT32_MIN);
  const __m128i s = _mm_loadu_si128((const __m128i*)(p->shift + i));
  const __m128i m = _mm_loadu_si128((const __m128i*)(p->multiplier + i));
  const __m128i k = _mm_sub_epi32(zero, _mm_min_epi32(s, zero));
  const __m128i x = _mm_mullo_epi32(_mm_loadu_si128((const __m128i*)acc),
                                    pow2(_mm_max_epi32(s, zero)));
  /* srdhm; INT32_MIN·INT32_MIN came out as 2^31 -> INT32_MIN, xor makes it INT32_MAX. */
  const __m128i sat = _mm_and_si128(_mm_cmpeq_epi32(x, imin), _mm_cmpeq_epi32(m, imin));
  const __m128i q = _mm_xor_si128(mulhi31(x, m), sat);
  /* q >= INT32_MIN + 1 (|x·m| < 2^62 − 2^31 otherwise), so q − [q<0] fits;
   * |(q − [q<0])·2^(31−k)| <= 2^61. k = 0 keeps q. */
  const __m128i t = _mm_add_epi32(q, _mm_srai_epi32(q, 31));
  const __m128i r = mulhi31(t, pow2(_mm_sub_epi32(_mm_set1_epi32(31), k)));
  const __m128i v = _mm_add_epi32(_mm_blendv_epi8(r, q, _mm_cmpeq_epi32(k, zero)),
                                  _mm_set1_epi32(p->zp));
  return _mm_min_epi32(_mm_max_epi32(v, _mm_set1_epi32(p->lo)), _mm_set1_epi32(p->hi));
}

static inline void gemmlowp8(const int32_t* acc, int8_t* out,
                             const tff_qs8_requantize_gemmlowp_params* p, size_t i) {
  store8(out, gemmlowp4(acc, p, i), gemmlowp4(acc + 4, p, i + 4));
}
TFF_QS8_REQUANTIZE_KERNEL(gemmlowp, sse41, 8, gemmlowp8)

#define TFF_VD __m128d
#define TFF_PD(op) _mm_##op
#define TFF_GE_PD(a, b) _mm_cmpge_pd((a), (b))
#include "qs8-requantization-double-x86.h"

/* round(f64(acc[0..1])·scale[0..1]) bounded to ±1e9, in the low 2 lanes. */
static inline __m128i double2(const int32_t* acc, const double* scale) {
  return _mm_cvttpd_epi32(tff_round_away_bounded(
      _mm_mul_pd(_mm_cvtepi32_pd(_mm_loadl_epi64((const __m128i*)acc)), _mm_loadu_pd(scale))));
}

static inline void double4(const int32_t* acc, int8_t* out,
                           const tff_qs8_requantize_double_params* p, size_t i) {
  __m128i v = _mm_unpacklo_epi64(double2(acc, p->scale + i), double2(acc + 2, p->scale + i + 2));
  v = _mm_add_epi32(v, _mm_set1_epi32(p->zp));
  v = _mm_min_epi32(_mm_max_epi32(v, _mm_set1_epi32(p->lo)), _mm_set1_epi32(p->hi));
  v = _mm_packs_epi32(v, v);
  const int32_t b4 = _mm_cvtsi128_si32(_mm_packs_epi16(v, v));
  memcpy(out, &b4, 4);
}
TFF_QS8_REQUANTIZE_KERNEL(double, sse41, 4, double4)
