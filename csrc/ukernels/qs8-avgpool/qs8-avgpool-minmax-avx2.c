/* qs8-avgpool, 16 channels per block in two 8-lane int32 sums, the rounded
 * quotient in float (exact, see pool.h), packs and clamp as in the sse41
 * kernel; fewer than 16 channels run the sse41 kernel. */
#include <immintrin.h>

#include "cpu/portable.h"
#include "qs8-avgpool.h"

/* trunc((s > 0 ? s + n/2 : s - n/2) / n), packed to int16 */
static inline __m128i quot8(__m256i s, int32_t n) {
  const __m256i half = _mm256_set1_epi32(n / 2), zero = _mm256_setzero_si256();
  const __m256i adj =
      _mm256_blendv_epi8(_mm256_sub_epi32(zero, half), half, _mm256_cmpgt_epi32(s, zero));
  const __m256 f =
      _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(s, adj)), _mm256_set1_ps((float)n));
  const __m256i q = _mm256_cvttps_epi32(f);
  return _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
}

static inline void tff_acc_finish(__m256i s0, __m256i s1, int32_t n, const tff_qs8_pool_params* p,
                                  int8_t* o) {
  const __m128i q = _mm_packs_epi16(quot8(s0, n), quot8(s1, n));
  const __m128i lo = _mm_set1_epi8((char)p->min), hi = _mm_set1_epi8((char)p->max);
  _mm_storeu_si128((__m128i*)o, _mm_min_epi8(_mm_max_epi8(q, lo), hi));
}

#define TFF_QS8_AVG_SIMD
#define TFF_W 16
#define TFF_FLOAT_TAPS TFF_QS8_AVGPOOL_MAX_FLOAT_TAPS
#define TFF_IV __m256i
#define TFF_IZERO _mm256_setzero_si256()
#define TFF_ISTORE(p, v) _mm256_storeu_si256((__m256i*)(p), (v))
#define TFF_IADD _mm256_add_epi32
#define TFF_WIDEN(x) _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)(x)))
#define TFF_POOL_KERNEL tff_qs8_avgpool_minmax_ukernel__avx2
#define TFF_POOL_NARROW tff_qs8_avgpool_minmax_ukernel__sse41
#include "qs8-avgpool-impl.h"
