/* qs8-qc8w-gemm packing with SSE2 unpacks (every x86 kernel's). A block's
 * tap is nr rows of kc bytes going to [kc/KR][nr][KR]: a transpose of
 * KR-byte elements. Tiles of T = 16/KR rows by 16 bytes transpose in
 * log2(T) unpack rounds; output element r of a tile is chunk k0/KR + r of
 * those T rows, so a column of tiles (all j0 at one k0) writes 16·nr
 * contiguous bytes. The scalar copy does the last kc % 16 columns. */
#include <emmintrin.h>

#include "qs8-qc8w-gemm.h"

/* 8 rows of 8 int16 (KR = 2). */
static inline void transpose_8x8_16(__m128i* r) {
  __m128i t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm_unpacklo_epi16(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm_unpackhi_epi16(r[2 * i], r[2 * i + 1]);
  }
  for (int h = 0; h < 2; ++h) /* rows 0-3, then 4-7 */
    for (int i = 0; i < 2; ++i) {
      u[4 * h + 2 * i] = _mm_unpacklo_epi32(t[4 * h + i], t[4 * h + i + 2]);
      u[4 * h + 2 * i + 1] = _mm_unpackhi_epi32(t[4 * h + i], t[4 * h + i + 2]);
    }
  for (int i = 0; i < 4; ++i) {
    r[2 * i] = _mm_unpacklo_epi64(u[i], u[i + 4]);
    r[2 * i + 1] = _mm_unpackhi_epi64(u[i], u[i + 4]);
  }
}

/* 4 rows of 4 int32 (KR = 4). */
static inline void transpose_4x4_32(__m128i* r) {
  const __m128i t0 = _mm_unpacklo_epi32(r[0], r[1]), t1 = _mm_unpackhi_epi32(r[0], r[1]);
  const __m128i t2 = _mm_unpacklo_epi32(r[2], r[3]), t3 = _mm_unpackhi_epi32(r[2], r[3]);
  r[0] = _mm_unpacklo_epi64(t0, t2);
  r[1] = _mm_unpackhi_epi64(t0, t2);
  r[2] = _mm_unpacklo_epi64(t1, t3);
  r[3] = _mm_unpackhi_epi64(t1, t3);
}

/* 2 rows of 2 int64 (KR = 8). */
static inline void transpose_2x2_64(__m128i* r) {
  const __m128i t0 = _mm_unpacklo_epi64(r[0], r[1]);
  r[1] = _mm_unpackhi_epi64(r[0], r[1]);
  r[0] = t0;
}

static size_t tiles_sse41(int8_t* w, const int8_t* s, size_t stride, size_t kc, size_t nr,
                          size_t kr) {
  const size_t t = 16 / kr;
  if ((kr != 2 && kr != 4 && kr != 8) || nr % t != 0) return 0;
  size_t k0 = 0;
  for (; k0 + 16 <= kc; k0 += 16) {
    int8_t* d = w + k0 * nr;
    for (size_t j0 = 0; j0 < nr; j0 += t) {
      __m128i r[8];
      for (size_t i = 0; i < t; ++i)
        r[i] = _mm_loadu_si128((const __m128i*)(s + (j0 + i) * stride + k0));
      if (kr == 2) transpose_8x8_16(r);
      else if (kr == 4) transpose_4x4_32(r);
      else transpose_2x2_64(r);
      for (size_t i = 0; i < t; ++i) _mm_storeu_si128((__m128i*)(d + i * nr * kr + j0 * kr), r[i]);
    }
  }
  return k0;
}

void tff_qs8_qc8w_gemm_pack__sse41(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                   const int8_t* k, const float* scale, int per_channel,
                                   void* packed) {
  tff_qs8_qc8w_gemm_pack_with(nc, ks, kc, nr, kr, k, scale, per_channel, packed, tiles_sse41);
}
