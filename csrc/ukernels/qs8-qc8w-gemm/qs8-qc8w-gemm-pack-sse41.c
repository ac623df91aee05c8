/* qs8-qc8w-gemm packing with SSE2 unpacks (every x86 kernel's). A block's
 * tap is nr rows of kc bytes going to [kc/KR][nr][KR]: a transpose of
 * KR-byte elements. Tiles of T = 16/KR rows by 16 bytes transpose in
 * log2(T) unpack rounds; output element r of a tile is chunk k0/KR + r of
 * those T rows, so a column of tiles (all j0 at one k0) writes 16·nr
 * contiguous bytes. The scalar copy does the last kc % 16 columns. */
#include <emmintrin.h>

#include "qs8-qc8w-gemm.h"

/* Loops of constant trip count that must unroll so that arrays of vectors
 * stay in registers (-O2 leaves them rolled, on the stack). */
#if defined(__GNUC__) && !defined(__clang__)
#define TFF_UNROLL_8 _Pragma("GCC unroll 8")
#elif defined(__clang__)
#define TFF_UNROLL_8 _Pragma("unroll 8")
#else
#define TFF_UNROLL_8
#endif

/* 8 rows of 8 int16 (KR = 2). */
static TFF_ALWAYS_INLINE void transpose_8x8_16(__m128i* r) {
  __m128i t[8], u[8];
  TFF_UNROLL_8
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm_unpacklo_epi16(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm_unpackhi_epi16(r[2 * i], r[2 * i + 1]);
  }
  TFF_UNROLL_8
  for (int h = 0; h < 2; ++h) /* rows 0-3, then 4-7 */
    TFF_UNROLL_8
    for (int i = 0; i < 2; ++i) {
      u[4 * h + 2 * i] = _mm_unpacklo_epi32(t[4 * h + i], t[4 * h + i + 2]);
      u[4 * h + 2 * i + 1] = _mm_unpackhi_epi32(t[4 * h + i], t[4 * h + i + 2]);
    }
  TFF_UNROLL_8
  for (int i = 0; i < 4; ++i) {
    r[2 * i] = _mm_unpacklo_epi64(u[i], u[i + 4]);
    r[2 * i + 1] = _mm_unpackhi_epi64(u[i], u[i + 4]);
  }
}

/* 4 rows of 4 int32 (KR = 4). */
static TFF_ALWAYS_INLINE void transpose_4x4_32(__m128i* r) {
  const __m128i t0 = _mm_unpacklo_epi32(r[0], r[1]), t1 = _mm_unpackhi_epi32(r[0], r[1]);
  const __m128i t2 = _mm_unpacklo_epi32(r[2], r[3]), t3 = _mm_unpackhi_epi32(r[2], r[3]);
  r[0] = _mm_unpacklo_epi64(t0, t2);
  r[1] = _mm_unpackhi_epi64(t0, t2);
  r[2] = _mm_unpacklo_epi64(t1, t3);
  r[3] = _mm_unpackhi_epi64(t1, t3);
}

/* 2 rows of 2 int64 (KR = 8). */
static TFF_ALWAYS_INLINE void transpose_2x2_64(__m128i* r) {
  const __m128i t0 = _mm_unpacklo_epi64(r[0], r[1]);
  r[1] = _mm_unpackhi_epi64(r[0], r[1]);
  r[0] = t0;
}

/* One function per KR (kr a constant: loads, transpose and stores unroll
 * into registers); nr must be a multiple of the tile's T = 16/KR rows. */
static TFF_ALWAYS_INLINE size_t tiles_kr(int8_t* w, const int8_t* s, size_t stride, size_t kc,
                                         size_t nr, const size_t kr) {
  const size_t t = 16 / kr;
  if (nr % t != 0) return 0;
  size_t k0 = 0;
  for (; k0 + 16 <= kc; k0 += 16) {
    int8_t* d = w + k0 * nr;
    for (size_t j0 = 0; j0 < nr; j0 += t) {
      __m128i r[8];
      TFF_UNROLL_8
      for (size_t i = 0; i < t; ++i)
        r[i] = _mm_loadu_si128((const __m128i*)(s + (j0 + i) * stride + k0));
      if (kr == 2) transpose_8x8_16(r);
      else if (kr == 4) transpose_4x4_32(r);
      else transpose_2x2_64(r);
      TFF_UNROLL_8
      for (size_t i = 0; i < t; ++i) _mm_storeu_si128((__m128i*)(d + i * nr * kr + j0 * kr), r[i]);
    }
  }
  return k0;
}

static size_t tiles_kr2(int8_t* w, const int8_t* s, size_t stride, size_t kc, size_t nr, size_t kr) {
  (void)kr;
  return tiles_kr(w, s, stride, kc, nr, 2);
}
static size_t tiles_kr4(int8_t* w, const int8_t* s, size_t stride, size_t kc, size_t nr, size_t kr) {
  (void)kr;
  return tiles_kr(w, s, stride, kc, nr, 4);
}
static size_t tiles_kr8(int8_t* w, const int8_t* s, size_t stride, size_t kc, size_t nr, size_t kr) {
  (void)kr;
  return tiles_kr(w, s, stride, kc, nr, 8);
}

void tff_qs8_qc8w_gemm_pack__sse41(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                   const int8_t* k, const float* scale, int per_channel,
                                   void* packed) {
  const tff_qs8_qc8w_gemm_pack_tiles_fn tiles =
      kr == 2 ? tiles_kr2 : kr == 4 ? tiles_kr4 : kr == 8 ? tiles_kr8 : NULL;
  tff_qs8_qc8w_gemm_pack_with(nc, ks, kc, nr, kr, k, scale, per_channel, packed, tiles);
}
