/* SSE4.1: 8 channels per tile, two taps per step: the inputs of taps t and
 * t+1 sign-extended to int16 and interleaved per channel, multiplied with
 * the packed int16 weight pairs by pmaddwd, which also adds the two
 * products (exact: |x·w| ≤ 2^14) into int32 lanes; two int32x4
 * accumulators. */
#include <smmintrin.h>

#include "qs8-qc8w-dwconv.h"

#define DW_CT 8
#define DW_PAIRS 1
typedef struct {
  __m128i lo, hi;
} dw_acc;
typedef struct {
  __m128 min, max;
  __m128i zp;
} dw_prm;

static inline dw_prm dw_params(const tff_qs8_dwconv_params* p) {
  return (dw_prm){_mm_set1_ps(p->min_less_zp), _mm_set1_ps(p->max_less_zp),
                  _mm_set1_epi32(p->zero_point)};
}
static inline dw_acc dw_init(const int32_t* b) {
  return (dw_acc){_mm_loadu_si128((const __m128i*)b), _mm_loadu_si128((const __m128i*)(b + 4))};
}
static inline dw_acc dw_mac(dw_acc acc, const int8_t* x0, const int8_t* x1, const int16_t* w) {
  const __m128i a = _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i*)x0));
  const __m128i b = _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i*)x1));
  const __m128i w0 = _mm_loadu_si128((const __m128i*)w);
  const __m128i w1 = _mm_loadu_si128((const __m128i*)(w + 8));
  acc.lo = _mm_add_epi32(acc.lo, _mm_madd_epi16(_mm_unpacklo_epi16(a, b), w0));
  acc.hi = _mm_add_epi32(acc.hi, _mm_madd_epi16(_mm_unpackhi_epi16(a, b), w1));
  return acc;
}
/* lrintf = cvtps2dq under the default rounding mode (nearest even). */
static inline __m128i dw_requant(__m128i acc, __m128 scale, const dw_prm* p) {
  __m128 f = _mm_mul_ps(_mm_cvtepi32_ps(acc), scale);
  f = _mm_min_ps(_mm_max_ps(f, p->min), p->max);
  return _mm_add_epi32(_mm_cvtps_epi32(f), p->zp);
}
static inline void dw_store(dw_acc acc, const float* scale, const dw_prm* p, int8_t* out) {
  const __m128i lo = dw_requant(acc.lo, _mm_loadu_ps(scale), p);
  const __m128i hi = dw_requant(acc.hi, _mm_loadu_ps(scale + 4), p);
  const __m128i v16 = _mm_packs_epi32(lo, hi); /* in [-128, 127]: no saturation */
  _mm_storel_epi64((__m128i*)out, _mm_packs_epi16(v16, v16));
}

#define DW_ISA sse41
#include "qs8-qc8w-dwconv-kernels.h"
