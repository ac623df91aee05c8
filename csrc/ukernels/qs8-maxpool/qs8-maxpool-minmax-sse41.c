/* qs8-maxpool, 16 channels per vector (pmaxsb/pminsb are SSE4.1). */
#include <immintrin.h>

#define TFF_W 16
#define TFF_V __m128i
#define TFF_LOAD(p) _mm_loadu_si128((const __m128i*)(p))
#define TFF_STORE(p, v) _mm_storeu_si128((__m128i*)(p), (v))
#define TFF_SPLAT(x) _mm_set1_epi8((char)(x))
#define TFF_MAX _mm_max_epi8
#define TFF_MIN _mm_min_epi8
#define TFF_POOL_KERNEL tff_qs8_maxpool_minmax_ukernel__sse41
#include "qs8-maxpool-impl.h"
