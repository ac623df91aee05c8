/* qs8-vadd, 8 elements per block in one 256-bit int32 vector; packing as in
 * the sse41 variant after splitting the halves. */
#include <immintrin.h>

#include "qs8-vadd.h"

static inline __m256i widen8(const int8_t* x) {
  return _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)x));
}

static inline void block8(const int8_t* a, const int8_t* b, int8_t* out, int32_t bias,
                          const tff_qs8_add_minmax_params* p) {
  __m256i acc = _mm256_add_epi32(_mm256_set1_epi32(bias),
                                 _mm256_mullo_epi32(widen8(a), _mm256_set1_epi32(p->a_mul)));
  if (b) acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(widen8(b), _mm256_set1_epi32(p->b_mul)));
  acc = _mm256_sra_epi32(acc, _mm_cvtsi32_si128((int)p->shift));
  acc = _mm256_add_epi32(acc, _mm256_set1_epi32(p->zo));
  const __m128i o16 = _mm_packs_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  __m128i o8 = _mm_packs_epi16(o16, o16);
  o8 = _mm_min_epi8(_mm_max_epi8(o8, _mm_set1_epi8((char)p->lo)), _mm_set1_epi8((char)p->hi));
  _mm_storel_epi64((__m128i*)out, o8);
}

TFF_QS8_VADD_KERNELS(avx2, 8, block8)
