/* qs8-packw, SSE2 instructions: a full tile 16 taps at a time
 * (tff_qs8_packw_tile16); the last taps and a partial last tile by
 * tff_qs8_packw_taps. */
#include "qs8-packw-tile16.h"

static inline size_t full(size_t k, const int8_t* w, int8_t* packed, uint32_t* s) {
  __m128i acc[16];
  for (int j = 0; j < 16; ++j) acc[j] = _mm_setzero_si128();
  size_t i = 0;
  for (; k - i >= 16; i += 16) tff_qs8_packw_tile16(w + i, k, packed + i * 16, acc);
  tff_qs8_packw_sums16(acc, i, s);
  return i;
}

void tff_qs8_packw_ukernel_x16__sse41(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                      int32_t* sums) {
  tff_qs8_packw_tiles(n, k, w, packed, sums, full);
}
