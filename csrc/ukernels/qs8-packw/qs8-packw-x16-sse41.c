/* qs8-packw, SSE2 instructions: a full tile 16 taps at a time as a 16x16
 * byte transpose (four rounds of unpacks), each row's sum by PSADBW of its
 * bytes biased to unsigned (x ^ 0x80 is x + 128); the last taps and a
 * partial last tile by tff_qs8_packw_taps. */
#include <emmintrin.h>

#include "qs8-packw.h"

/* Taps [0, 16) of 16 rows k apart at w to 16 groups of 16 at out; acc[j]
 * gathers row j's biased sum in two 64-bit lanes. */
static inline void tile_16x16(const int8_t* w, size_t k, int8_t* out, __m128i* acc) {
  const __m128i bias = _mm_set1_epi8((char)0x80), zero = _mm_setzero_si128();
  __m128i r[16], a[16], b[16];
  for (int j = 0; j < 16; ++j) {
    r[j] = _mm_loadu_si128((const __m128i*)(w + (size_t)j * k));
    acc[j] = _mm_add_epi64(acc[j], _mm_sad_epu8(_mm_xor_si128(r[j], bias), zero));
  }
  /* a[2p+h]: rows 2p and 2p+1 byte by byte, taps 8h.. */
  for (int p = 0; p < 8; ++p) {
    a[2 * p] = _mm_unpacklo_epi8(r[2 * p], r[2 * p + 1]);
    a[2 * p + 1] = _mm_unpackhi_epi8(r[2 * p], r[2 * p + 1]);
  }
  /* b[4q+2h+l]: rows 4q.. in pairs, taps 8h+4l.. */
  for (int q = 0; q < 4; ++q)
    for (int h = 0; h < 2; ++h) {
      b[4 * q + 2 * h] = _mm_unpacklo_epi16(a[4 * q + h], a[4 * q + 2 + h]);
      b[4 * q + 2 * h + 1] = _mm_unpackhi_epi16(a[4 * q + h], a[4 * q + 2 + h]);
    }
  /* a[8o+2hl+e]: rows 8o.. in fours, taps 8h+4l+2e.. */
  for (int o = 0; o < 2; ++o)
    for (int hl = 0; hl < 4; ++hl) {
      a[8 * o + 2 * hl] = _mm_unpacklo_epi32(b[8 * o + hl], b[8 * o + 4 + hl]);
      a[8 * o + 2 * hl + 1] = _mm_unpackhi_epi32(b[8 * o + hl], b[8 * o + 4 + hl]);
    }
  /* Tap 2t and 2t+1: all 16 rows. */
  for (int t = 0; t < 8; ++t) {
    _mm_storeu_si128((__m128i*)(out + 32 * t), _mm_unpacklo_epi64(a[t], a[8 + t]));
    _mm_storeu_si128((__m128i*)(out + 32 * t + 16), _mm_unpackhi_epi64(a[t], a[8 + t]));
  }
}

void tff_qs8_packw_ukernel_x16__sse41(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                      int32_t* sums) {
  for (size_t n0 = 0; n0 < n; n0 += 16, packed += 16 * k) {
    const size_t rows = n - n0 < 16 ? n - n0 : 16;
    uint32_t s[16] = {0};
    size_t i = 0;
    if (rows == 16) {
      __m128i acc[16];
      for (int j = 0; j < 16; ++j) acc[j] = _mm_setzero_si128();
      for (; k - i >= 16; i += 16) tile_16x16(w + n0 * k + i, k, packed + i * 16, acc);
      for (int j = 0; j < 16; ++j) { /* the biased sum less 128 per tap, wrapping */
        const __m128i total = _mm_add_epi64(acc[j], _mm_unpackhi_epi64(acc[j], acc[j]));
        s[j] = (uint32_t)_mm_cvtsi128_si32(total) - 128u * (uint32_t)i;
      }
    }
    tff_qs8_packw_taps(k, rows, i, w + n0 * k, packed, s);
    for (size_t j = 0; j < rows; ++j) sums[n0 + j] = (int32_t)s[j];
  }
}
