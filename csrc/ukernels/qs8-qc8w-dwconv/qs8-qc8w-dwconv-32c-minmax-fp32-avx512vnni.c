/* AVX-512 (F+BW): 32 channels per tile, int8 products in int16 lanes,
 * widened into two int32x16 accumulators. Built with the avx512vnni flags;
 * the products need BW only (no dot product across channels here). */
#include <immintrin.h>

#include "qs8-qc8w-dwconv.h"

#define DW_CT 32
#define DW_PAIRS 0
typedef struct {
  __m512i lo, hi;
} dw_acc;
typedef struct {
  __m512 min, max;
  __m512i zp;
} dw_prm;

static inline dw_prm dw_params(const tff_qs8_dwconv_params* p) {
  return (dw_prm){_mm512_set1_ps(p->min_less_zp), _mm512_set1_ps(p->max_less_zp),
                  _mm512_set1_epi32(p->zero_point)};
}
static inline dw_acc dw_init(const int32_t* b) {
  return (dw_acc){_mm512_loadu_si512(b), _mm512_loadu_si512(b + 16)};
}
static inline dw_acc dw_mac(dw_acc acc, const int8_t* x, const int8_t* w) {
  const __m512i vx = _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i*)x));
  const __m512i vw = _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i*)w));
  const __m512i p = _mm512_mullo_epi16(vx, vw);
  acc.lo = _mm512_add_epi32(acc.lo, _mm512_cvtepi16_epi32(_mm512_castsi512_si256(p)));
  acc.hi = _mm512_add_epi32(acc.hi, _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(p, 1)));
  return acc;
}
/* lrintf = cvtps2dq under the default rounding mode (nearest even). */
static inline __m128i dw_requant(__m512i acc, __m512 scale, const dw_prm* p) {
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), scale);
  f = _mm512_min_ps(_mm512_max_ps(f, p->min), p->max);
  /* in [-128, 127]: the saturating narrow is exact */
  return _mm512_cvtsepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(f), p->zp));
}
static inline void dw_store(dw_acc acc, const float* scale, const dw_prm* p, int8_t* out) {
  _mm_storeu_si128((__m128i*)out, dw_requant(acc.lo, _mm512_loadu_ps(scale), p));
  _mm_storeu_si128((__m128i*)(out + 16), dw_requant(acc.hi, _mm512_loadu_ps(scale + 16), p));
}

#define DW_ISA avx512vnni
#include "qs8-qc8w-dwconv-kernels.h"
