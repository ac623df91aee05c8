/* qs8-rsum, SSE2 instructions: 16 bytes at a time biased to unsigned
 * (x ^ 0x80 is x + 128) and summed by PSADBW into two 64-bit lanes. */
#include <emmintrin.h>

#include "qs8-rsum.h"

void tff_qs8_rsum_ukernel__sse41(size_t n, size_t k, const int8_t* w, int32_t* sums) {
  const __m128i bias = _mm_set1_epi8((char)0x80), zero = _mm_setzero_si128();
  for (size_t c = 0; c < n; ++c, w += k) {
    __m128i acc = zero;
    size_t i = 0;
    for (; k - i >= 16; i += 16)
      acc = _mm_add_epi64(
          acc, _mm_sad_epu8(_mm_xor_si128(_mm_loadu_si128((const __m128i*)(w + i)), bias), zero));
    acc = _mm_add_epi64(acc, _mm_unpackhi_epi64(acc, acc));
    uint32_t total = (uint32_t)_mm_cvtsi128_si32(acc) - 128u * (uint32_t)i;
    for (; i < k; ++i) total += (uint32_t)w[i];
    sums[c] = (int32_t)total;
  }
}
