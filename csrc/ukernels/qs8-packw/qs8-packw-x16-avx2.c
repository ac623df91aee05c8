/* qs8-packw, AVX2: a full tile 32 taps at a time, the 16x16 transpose of
 * taps [0, 16) in the low lane and [16, 32) in the high one (half the
 * shuffles and sums per byte of the SSE kernel: the int8 packing of hybrid
 * models is most of their construction); 16 taps left by the SSE tile, the
 * last taps and a partial last tile by tff_qs8_packw_taps. */
#include <immintrin.h>

#include "qs8-packw-tile16.h"

/* Lane l's taps 2t and 2t+1 (lo and hi's lane l) go to tile l's groups. */
#define PW_V __m256i
#define PW(op) _mm256_##op
#define PW_LOAD(p) _mm256_loadu_si256((const __m256i*)(p))
#define PW_XOR _mm256_xor_si256
#define PW_ZERO _mm256_setzero_si256
#define PW_STORE(out, t, lo, hi)                                                  \
  do {                                                                            \
    const __m256i lo_ = (lo), hi_ = (hi);                                         \
    int8_t* o_ = (out) + 32 * (t);                                                \
    _mm256_storeu_si256((__m256i*)o_, _mm256_permute2x128_si256(lo_, hi_, 0x20)); \
    _mm256_storeu_si256((__m256i*)(o_ + 256), _mm256_permute2x128_si256(lo_, hi_, 0x31)); \
  } while (0)
#define PW_TILE tile32
#include "qs8-packw-tile.h"

/* Blocks of 32 taps, then one of 16 when that many are left. */
static inline size_t full(size_t k, const int8_t* w, int8_t* packed, uint32_t* s) {
  __m256i acc32[16];
  for (int j = 0; j < 16; ++j) acc32[j] = _mm256_setzero_si256();
  size_t i = 0;
  for (; k - i >= 32; i += 32) tile32(w + i, k, packed + i * 16, acc32);
  __m128i acc[16];
  for (int j = 0; j < 16; ++j)
    acc[j] = _mm_add_epi64(_mm256_castsi256_si128(acc32[j]), _mm256_extracti128_si256(acc32[j], 1));
  if (k - i >= 16) {
    tff_qs8_packw_tile16(w + i, k, packed + i * 16, acc);
    i += 16;
  }
  tff_qs8_packw_sums16(acc, i, s);
  return i;
}

void tff_qs8_packw_ukernel_x16__avx2(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                     int32_t* sums) {
  tff_qs8_packw_tiles(n, k, w, packed, sums, full);
}
