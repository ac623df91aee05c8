/* tff_qs8_packw_tile16: qs8-packw-tile.h at 128 bits (SSE2), taps [0, 16)
 * of a tile to 16 groups of 16 at out; the SSE and AVX2 kernels' tile, and
 * tff_qs8_packw_sums16, their rows' sums. */
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

#endif /* TFLITE_FAST_UKERNELS_QS8_PACKW_TILE16_H_ */
