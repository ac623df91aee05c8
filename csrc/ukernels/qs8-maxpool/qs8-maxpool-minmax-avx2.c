/* qs8-maxpool, 32 channels per vector; fewer than 32 run the sse41 kernel. */
#include <immintrin.h>

#define TFF_W 32
#define TFF_V __m256i
#define TFF_LOAD(p) _mm256_loadu_si256((const __m256i*)(p))
#define TFF_STORE(p, v) _mm256_storeu_si256((__m256i*)(p), (v))
#define TFF_SPLAT(x) _mm256_set1_epi8((char)(x))
#define TFF_MAX _mm256_max_epi8
#define TFF_MIN _mm256_min_epi8
#define TFF_POOL_KERNEL tff_qs8_maxpool_minmax_ukernel__avx2
#define TFF_POOL_NARROW tff_qs8_maxpool_minmax_ukernel__sse41
#include "qs8-maxpool-impl.h"
