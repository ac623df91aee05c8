/* tff_qs8_packw_tile16: qs8-packw-tile.h at 128 bits (SSE2), taps [0, 16)
 * of a tile to 16 groups of 16 at out; the SSE and AVX2 kernels' tile. */
#ifndef TFLITE_FAST_UKERNELS_QS8_PACKW_TILE16_H_
#define TFLITE_FAST_UKERNELS_QS8_PACKW_TILE16_H_

#include <emmintrin.h>

#include "qs8-packw.h"

#define PW_V __m128i
#define PW(op) _mm_##op
#define PW_LOAD(p) _mm_loadu_si128((const __m128i*)(p))
#define PW_XOR _mm_xor_si128
#define PW_ZERO _mm_setzero_si128
#define PW_STORE(out, t, lo, hi)                                \
  do {                                                          \
    _mm_storeu_si128((__m128i*)((out) + 32 * (t)), (lo));       \
    _mm_storeu_si128((__m128i*)((out) + 32 * (t) + 16), (hi));  \
  } while (0)
#define PW_TILE tff_qs8_packw_tile16
#include "qs8-packw-tile.h"

/* The biased sums of acc[j] (two 64-bit lanes) less 128 per tap of i taps,
 * wrapping: row j's plain sum. */
static inline void tff_qs8_packw_sums16(const __m128i* acc, size_t i, uint32_t* s) {
  for (int j = 0; j < 16; ++j) {
    const __m128i total = _mm_add_epi64(acc[j], _mm_unpackhi_epi64(acc[j], acc[j]));
    s[j] = (uint32_t)_mm_cvtsi128_si32(total) - 128u * (uint32_t)i;
  }
}

/* A kernel's SIMD part: taps [0, i) of a full tile of 16 rows at w to
 * packed, their biased sums added to acc (zeroed); returns i. */
typedef size_t tff_qs8_packw_full_fn(size_t k, const int8_t* w, int8_t* packed, __m128i* acc);

/* The SIMD kernels' loop over tiles: a full tile by `full`, then its last
 * taps, and a partial last tile, by tff_qs8_packw_taps. */
static inline void tff_qs8_packw_tiles(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                       int32_t* sums, tff_qs8_packw_full_fn* full) {
  for (size_t n0 = 0; n0 < n; n0 += 16, packed += 16 * k) {
    const size_t rows = n - n0 < 16 ? n - n0 : 16;
    uint32_t s[16] = {0};
    size_t i = 0;
    if (rows == 16) {
      __m128i acc[16];
      for (int j = 0; j < 16; ++j) acc[j] = _mm_setzero_si128();
      i = full(k, w + n0 * k, packed, acc);
      tff_qs8_packw_sums16(acc, i, s);
    }
    tff_qs8_packw_taps(k, rows, i, w + n0 * k, packed, s);
    for (size_t j = 0; j < rows; ++j) sums[n0 + j] = (int32_t)s[j];
  }
}

#endif /* TFLITE_FAST_UKERNELS_QS8_PACKW_TILE16_H_ */
