/* AVX2: 16 channels per tile, two taps per step: the inputs of taps t and
 * t+1 sign-extended to int16 and interleaved per channel within each
 * 128-bit lane, multiplied with the packed int16 weight pairs by pmaddwd,
 * which also adds the two products (exact: |x·w| ≤ 2^14) into int32 lanes.
 * The in-lane unpacks leave channels 0-3 and 8-11 in one accumulator, 4-7
 * and 12-15 in the other: the packing's `split` order, which the in-lane
 * packs at the store turn back into 0-15. */
#include <immintrin.h>

#include "qs8-qc8w-dwconv.h"

#define DW_CT 16
#define DW_PAIRS 1
typedef struct {
  __m256i lo, hi;
} dw_acc;
typedef struct {
  __m256 min, max;
  __m256i zp;
} dw_prm;

static inline dw_prm dw_params(const tff_qs8_dwconv_params* p) {
  return (dw_prm){_mm256_set1_ps(p->min_less_zp), _mm256_set1_ps(p->max_less_zp),
                  _mm256_set1_epi32(p->zero_point)};
}
static inline dw_acc dw_init(const int32_t* b) {
  return (dw_acc){_mm256_loadu_si256((const __m256i*)b),
                  _mm256_loadu_si256((const __m256i*)(b + 8))};
}
static inline dw_acc dw_mac(dw_acc acc, const int8_t* x0, const int8_t* x1, const int16_t* w) {
  const __m256i a = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)x0));
  const __m256i b = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)x1));
  const __m256i w0 = _mm256_loadu_si256((const __m256i*)w);
  const __m256i w1 = _mm256_loadu_si256((const __m256i*)(w + 16));
  acc.lo = _mm256_add_epi32(acc.lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), w0));
  acc.hi = _mm256_add_epi32(acc.hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), w1));
  return acc;
}
/* lrintf = cvtps2dq under the default rounding mode (nearest even). */
static inline __m256i dw_requant(__m256i acc, __m256 scale, const dw_prm* p) {
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), scale);
  f = _mm256_min_ps(_mm256_max_ps(f, p->min), p->max);
  return _mm256_add_epi32(_mm256_cvtps_epi32(f), p->zp);
}
static inline void dw_store(dw_acc acc, const float* scale, const dw_prm* p, int8_t* out) {
  const __m256i lo = dw_requant(acc.lo, _mm256_loadu_ps(scale), p);
  const __m256i hi = dw_requant(acc.hi, _mm256_loadu_ps(scale + 8), p);
  /* per 128-bit lane: [0-3 4-7 | 8-11 12-15] */
  const __m256i v16 = _mm256_packs_epi32(lo, hi);
  const __m128i v8 =
      _mm_packs_epi16(_mm256_castsi256_si128(v16), _mm256_extracti128_si256(v16, 1));
  _mm_storeu_si128((__m128i*)out, v8);
}

#define DW_ISA avx2
#include "qs8-qc8w-dwconv-kernels.h"
