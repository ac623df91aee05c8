/* qs8-requantization, AVX2: 8 channels a block, the tail by the element
 * functions.
 *  fp32: as SSE4.1, 8 lanes.
 *  gemmlowp: the scalar formulas lane by lane, AVX2 having per-lane shifts:
 *    x << left (sllv); srdhm as floor((x·m + 2^30) / 2^31) from
 *    _mm256_mul_epi32 on even and odd lanes; tff_rdbpot's mask/threshold
 *    with srav.
 *  double: 4 lanes of f64 twice (qs8-requantization-double-x86.h). */
#include <immintrin.h>

#include "qs8-requantization.h"

static inline __m256i clamp8(__m256i v, int32_t lo, int32_t hi) {
  return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(lo)), _mm256_set1_epi32(hi));
}

/* 8 int32 (within int8 after the clamps) to 8 bytes. */
static inline void store8(int8_t* out, __m256i v) {
  const __m128i v16 = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  _mm_storel_epi64((__m128i*)out, _mm_packs_epi16(v16, v16));
}

static inline void fp32x8(const int32_t* acc, int8_t* out,
                          const tff_qs8_requantize_fp32_params* p, size_t i) {
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i*)acc)),
                           _mm256_loadu_ps(p->scale + i));
  /* max/min return the second operand when one is NaN: f; then NaN -> 0. */
  f = _mm256_max_ps(_mm256_set1_ps(p->min_less_zp), f);
  f = _mm256_min_ps(_mm256_set1_ps(p->max_less_zp), f);
  f = _mm256_and_ps(f, _mm256_cmp_ps(f, f, _CMP_ORD_Q));
  store8(out, _mm256_add_epi32(_mm256_cvtps_epi32(f), _mm256_set1_epi32(p->zp)));
}
TFF_QS8_REQUANTIZE_KERNEL(fp32, avx2, 8, fp32x8)

/* The 64-bit lanes' floor((p + 2^30) / 2^31) in their low halves (bits
 * 31..62: a logical shift serves while the quotient fits in int32). */
static inline __m256i round31(__m256i p) {
  return _mm256_srli_epi64(_mm256_add_epi64(p, _mm256_set1_epi64x(1 << 30)), 31);
}

static inline void gemmlowp8(const int32_t* acc, int8_t* out,
                             const tff_qs8_requantize_gemmlowp_params* p, size_t i) {
  const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
  const __m256i imin = _mm256_set1_epi32(INT32_MIN);
  const __m256i s = _mm256_loadu_si256((const __m256i*)(p->shift + i));
  const __m256i m = _mm256_loadu_si256((const __m256i*)(p->multiplier + i));
  const __m256i k = _mm256_sub_epi32(zero, _mm256_min_epi32(s, zero));
  const __m256i x = _mm256_sllv_epi32(_mm256_loadu_si256((const __m256i*)acc),
                                      _mm256_max_epi32(s, zero));
  const __m256i even = round31(_mm256_mul_epi32(x, m));
  const __m256i odd =
      round31(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(m, 32)));
  /* INT32_MIN·INT32_MIN came out as 2^31 -> INT32_MIN; xor makes it INT32_MAX. */
  const __m256i sat = _mm256_and_si256(_mm256_cmpeq_epi32(x, imin), _mm256_cmpeq_epi32(m, imin));
  const __m256i q =
      _mm256_xor_si256(_mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA), sat);
  /* tff_rdbpot: k <= 31, so 1 << k − 1 is the mask (0x7fffffff at 31). */
  const __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, k), one);
  const __m256i thr = _mm256_sub_epi32(_mm256_srli_epi32(mask, 1), _mm256_srai_epi32(q, 31));
  const __m256i up = _mm256_cmpgt_epi32(_mm256_and_si256(q, mask), thr);
  const __m256i v =
      _mm256_add_epi32(_mm256_sub_epi32(_mm256_srav_epi32(q, k), up), _mm256_set1_epi32(p->zp));
  store8(out, clamp8(v, p->lo, p->hi));
}
TFF_QS8_REQUANTIZE_KERNEL(gemmlowp, avx2, 8, gemmlowp8)

#define TFF_VD __m256d
#define TFF_PD(op) _mm256_##op
#define TFF_GE_PD(a, b) _mm256_cmp_pd((a), (b), _CMP_GE_OQ)
#include "qs8-requantization-double-x86.h"

/* round(f64(acc[0..3])·scale[0..3]) bounded to ±1e9. */
static inline __m128i double4(const int32_t* acc, const double* scale) {
  return _mm256_cvttpd_epi32(tff_round_away_bounded(_mm256_mul_pd(
      _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i*)acc)), _mm256_loadu_pd(scale))));
}

static inline void double8(const int32_t* acc, int8_t* out,
                           const tff_qs8_requantize_double_params* p, size_t i) {
  const __m256i v =
      _mm256_set_m128i(double4(acc + 4, p->scale + i + 4), double4(acc, p->scale + i));
  store8(out, clamp8(_mm256_add_epi32(v, _mm256_set1_epi32(p->zp)), p->lo, p->hi));
}
TFF_QS8_REQUANTIZE_KERNEL(double, avx2, 8, double8)
