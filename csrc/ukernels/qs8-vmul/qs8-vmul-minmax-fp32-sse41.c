/* qs8-vmul, 8 elements per block: centred int32 product, cvtepi32_ps, one
 * multiply, clamp (max(fmin, v) then min(fmax, v), as the scalar clamp for
 * non-NaN v), magic-bias rounding, packs. */
#include <immintrin.h>

#include "qs8-vmul.h"

static inline __m128i load4(const int8_t* x) {
  int32_t v;
  memcpy(&v, x, 4);
  return _mm_cvtepi8_epi32(_mm_cvtsi32_si128(v));
}

static inline __m128i quant4(const int8_t* a, const int8_t* b, int32_t yb,
                             const tff_qs8_mul_minmax_fp32_params* p) {
  const __m128i x = _mm_sub_epi32(load4(a), _mm_set1_epi32(p->za));
  const __m128i y = b ? _mm_sub_epi32(load4(b), _mm_set1_epi32(p->zb)) : _mm_set1_epi32(yb);
  __m128 v = _mm_mul_ps(_mm_cvtepi32_ps(_mm_mullo_epi32(x, y)), _mm_set1_ps(p->scale));
  v = _mm_min_ps(_mm_set1_ps(p->fmax), _mm_max_ps(_mm_set1_ps(p->fmin), v));
  v = _mm_add_ps(v, _mm_set1_ps(12582912.0f));
  return _mm_sub_epi32(_mm_castps_si128(v), _mm_set1_epi32(0x4B400000 - p->zo));
}

static inline void block8(const int8_t* a, const int8_t* b, int8_t* out, int32_t yb,
                          const tff_qs8_mul_minmax_fp32_params* p) {
  const __m128i o16 = _mm_packs_epi32(quant4(a, b, yb, p), quant4(a + 4, b ? b + 4 : NULL, yb, p));
  _mm_storel_epi64((__m128i*)out, _mm_packs_epi16(o16, o16));
}

TFF_QS8_VMUL_KERNELS(sse41, 8, block8)
