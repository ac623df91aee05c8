/* qs8-avgpool, 8 channels per block: int32 sums of pmovsxbd-widened taps,
 * the rounded quotient in float (exact, see pool.h), saturating packs (the
 * bounds lie within int8, so saturating first never differs), clamp. */
#include <immintrin.h>
#include <string.h>

#include "cpu/portable.h"
#include "qs8-avgpool.h"

static inline __m128i widen4(const int8_t* x) {
  int32_t v;
  memcpy(&v, x, 4);
  return _mm_cvtepi8_epi32(_mm_cvtsi32_si128(v));
}

/* trunc((s > 0 ? s + n/2 : s - n/2) / n) */
static inline __m128i quot4(__m128i s, int32_t n) {
  const __m128i half = _mm_set1_epi32(n / 2);
  const __m128i pos = _mm_cmpgt_epi32(s, _mm_setzero_si128());
  const __m128i adj = _mm_blendv_epi8(_mm_sub_epi32(_mm_setzero_si128(), half), half, pos);
  return _mm_cvttps_epi32(_mm_div_ps(_mm_cvtepi32_ps(_mm_add_epi32(s, adj)), _mm_set1_ps((float)n)));
}

static inline void tff_acc_finish(__m128i s0, __m128i s1, int32_t n, const tff_qs8_pool_params* p,
                                  int8_t* o) {
  const __m128i q = _mm_packs_epi32(quot4(s0, n), quot4(s1, n));
  const __m128i lo = _mm_set1_epi8((char)p->min), hi = _mm_set1_epi8((char)p->max);
  _mm_storel_epi64((__m128i*)o, _mm_min_epi8(_mm_max_epi8(_mm_packs_epi16(q, q), lo), hi));
}

#define TFF_QS8_AVG_SIMD
#define TFF_W 8
#define TFF_FLOAT_TAPS TFF_QS8_AVGPOOL_MAX_FLOAT_TAPS
#define TFF_IV __m128i
#define TFF_IZERO _mm_setzero_si128()
#define TFF_ISTORE(p, v) _mm_storeu_si128((__m128i*)(p), (v))
#define TFF_IADD _mm_add_epi32
#define TFF_WIDEN widen4
#define TFF_POOL_KERNEL tff_qs8_avgpool_minmax_ukernel__sse41
#include "qs8-avgpool-impl.h"
