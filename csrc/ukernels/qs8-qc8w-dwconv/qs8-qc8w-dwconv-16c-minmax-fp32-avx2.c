/* AVX2: 16 channels per tile, two taps per step: the inputs of taps t and
 * t+1 interleaved per channel, sign-extended to int16 and multiplied with
 * the packed int16 weight pairs by pmaddwd, which also adds the two
 * products (exact: |x·w| ≤ 2^14) into int32 lanes; two int32x8
 * accumulators (channels 0-7 and 8-15). */
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
  const __m128i a = _mm_loadu_si128((const __m128i*)x0);
  const __m128i b = _mm_loadu_si128((const __m128i*)x1);
  const __m256i lo = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(a, b));
  const __m256i hi = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(a, b));
  acc.lo = _mm256_add_epi32(acc.lo, _mm256_madd_epi16(lo, _mm256_loadu_si256((const __m256i*)w)));
  acc.hi = _mm256_add_epi32(acc.hi,
                            _mm256_madd_epi16(hi, _mm256_loadu_si256((const __m256i*)(w + 16))));
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
  /* packs works per 128-bit lane: [lo0-3 hi0-3 lo4-7 hi4-7] → reorder. */
  const __m256i v16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xD8);
  const __m128i v8 =
      _mm_packs_epi16(_mm256_castsi256_si128(v16), _mm256_extracti128_si256(v16, 1));
  _mm_storeu_si128((__m128i*)out, v8);
}

#define DW_ISA avx2
#include "qs8-qc8w-dwconv-kernels.h"
