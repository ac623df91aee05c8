/* qs8-vadd, 8 elements per block: widen to int32 (mullo_epi32), arithmetic
 * shift, add zo, saturating packs (the bounds lie within int8, so saturation
 * never differs from the clamp), clamp. */
#include <immintrin.h>
#include <string.h>

#include "qs8-vadd.h"

static inline __m128i load4(const int8_t* x) {
  int32_t v;
  memcpy(&v, x, 4);
  return _mm_cvtepi8_epi32(_mm_cvtsi32_si128(v));
}

static inline __m128i acc4(const int8_t* a, const int8_t* b, __m128i bias,
                           const tff_qs8_add_minmax_params* p) {
  __m128i acc = _mm_add_epi32(bias, _mm_mullo_epi32(load4(a), _mm_set1_epi32(p->a_mul)));
  if (b) acc = _mm_add_epi32(acc, _mm_mullo_epi32(load4(b), _mm_set1_epi32(p->b_mul)));
  acc = _mm_sra_epi32(acc, _mm_cvtsi32_si128((int)p->shift));
  return _mm_add_epi32(acc, _mm_set1_epi32(p->zo));
}

static inline void block8(const int8_t* a, const int8_t* b, int8_t* out, int32_t bias,
                          const tff_qs8_add_minmax_params* p) {
  const __m128i vb = _mm_set1_epi32(bias);
  __m128i o16 = _mm_packs_epi32(acc4(a, b, vb, p), acc4(a + 4, b ? b + 4 : NULL, vb, p));
  __m128i o8 = _mm_packs_epi16(o16, o16);
  o8 = _mm_min_epi8(_mm_max_epi8(o8, _mm_set1_epi8((char)p->lo)), _mm_set1_epi8((char)p->hi));
  _mm_storel_epi64((__m128i*)out, o8);
}

TFF_QS8_VADD_KERNELS(sse41, 8, block8)
