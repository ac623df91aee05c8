/* AVX2: 16 channels per tile, inputs and weights sign-extended to int32
 * lanes and multiplied there (no lane-crossing widening of products), two
 * int32x8 accumulators (channels 0-7 and 8-15). */
#include <immintrin.h>

#include "qs8-qc8w-dwconv.h"

#define DW_CT 16
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
static inline dw_acc dw_mac(dw_acc acc, const int8_t* x, const int8_t* w) {
  const __m256i x0 = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)x));
  const __m256i w0 = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)w));
  const __m256i x1 = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)(x + 8)));
  const __m256i w1 = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)(w + 8)));
  acc.lo = _mm256_add_epi32(acc.lo, _mm256_mullo_epi32(x0, w0));
  acc.hi = _mm256_add_epi32(acc.hi, _mm256_mullo_epi32(x1, w1));
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
