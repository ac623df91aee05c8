/* qs8-vmul, 8 elements per block in one 256-bit vector; the steps of the
 * sse41 variant. */
#include <immintrin.h>

#include "qs8-vmul.h"

static inline void block8(const int8_t* a, const int8_t* b, int8_t* out, int32_t yb,
                          const tff_qs8_mul_minmax_fp32_params* p) {
  const __m256i x = _mm256_sub_epi32(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)a)),
                                     _mm256_set1_epi32(p->za));
  const __m256i y = b ? _mm256_sub_epi32(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)b)),
                                         _mm256_set1_epi32(p->zb))
                      : _mm256_set1_epi32(yb);
  __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_mullo_epi32(x, y)), _mm256_set1_ps(p->scale));
  v = _mm256_min_ps(_mm256_set1_ps(p->fmax), _mm256_max_ps(_mm256_set1_ps(p->fmin), v));
  v = _mm256_add_ps(v, _mm256_set1_ps(12582912.0f));
  const __m256i q = _mm256_sub_epi32(_mm256_castps_si256(v), _mm256_set1_epi32(0x4B400000 - p->zo));
  const __m128i o16 = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
  _mm_storel_epi64((__m128i*)out, _mm_packs_epi16(o16, o16));
}

TFF_QS8_VMUL_KERNELS(avx2, 8, block8)
