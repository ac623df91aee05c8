/* AVX2, 4 (or 1) rows x 8 channels, KR = 8: x and w sign-extended to int16,
 * vpmaddwd sums pairs (|x·w| <= 2^14, so a pair fits int32), one 256-bit
 * accumulator per row and channel pair, reduced by two hadds at the end. */
#include <immintrin.h>

#include "qs8-qc8w-gemm.h"

/* The row and channel-pair loops have constant trip counts: unroll them so
 * the accumulators live in registers. */
#define TFF_UNROLL _Pragma("GCC unroll 4")

/* 8 int8 of x (a zero-filled tail when fewer remain) as int16, twice: the
 * 8 bytes are broadcast by the load, so one sign extension fills both lanes. */
static inline __m256i load_x(const int8_t* x, size_t left) {
  int64_t v;
  if (left >= 8)
    memcpy(&v, x, 8);
  else
    v = (int64_t)tff_qs8_load_tail8(x, left);
  return _mm256_cvtepi8_epi16(_mm_set1_epi64x(v));
}

/* Channels 0..7 of a row from its four pair accumulators, plus requant. */
static inline __m128i finish(__m256i a01, __m256i a23, __m256i a45, __m256i a67, __m256 scale,
                             __m256 lo, __m256 hi, __m256i zp) {
  const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(a01, a23), _mm256_hadd_epi32(a45, a67));
  /* h = [c0 c2 c4 c6 | c1 c3 c5 c7] */
  const __m256i acc = _mm256_permutevar8x32_epi32(h, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), scale);
  f = _mm256_min_ps(_mm256_max_ps(f, lo), hi);
  const __m256i q = _mm256_add_epi32(_mm256_cvtps_epi32(f), zp);
  const __m128i s16 = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
  return _mm_packs_epi16(s16, s16);
}

static inline void store(int8_t* c, __m128i v, size_t n) {
  if (n >= 8) {
    _mm_storel_epi64((__m128i*)c, v);
    return;
  }
  int8_t tmp[16];
  _mm_storeu_si128((__m128i*)tmp, v);
  memcpy(c, tmp, n);
}

/* MR rows (a constant after inlining); rows past mr alias row mr-1. */
TFF_QS8_QC8W_GEMM_BODY(gemm) {
  const int8_t* const* ar[4];
  int8_t* cr[4];
  tff_qs8_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const __m256 lo = _mm256_set1_ps(p->min_less_zp), hi = _mm256_set1_ps(p->max_less_zp);
  const __m256i zp = _mm256_set1_epi32(p->zp);
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 8) {
    const int32_t* b = (const int32_t*)pw;
    __m256i acc[4][4];
    TFF_UNROLL
    for (int j = 0; j < 4; ++j) { /* init of channel 2j in lane 0, of 2j+1 in lane 4 */
      acc[0][j] = _mm256_setr_epi32(b[2 * j], 0, 0, 0, b[2 * j + 1], 0, 0, 0);
      TFF_UNROLL
      for (size_t i = 1; i < MR; ++i) acc[i][j] = acc[0][j];
    }
    pw += 8 * sizeof(int32_t);
    for (size_t t = 0; t < ks; ++t) {
      const int8_t* x[4];
      TFF_UNROLL
      for (size_t i = 0; i < MR; ++i) x[i] = ar[i][t] + a_offset;
      for (size_t k = 0; k < kc; k += 8, pw += 64) {
        __m256i v[4];
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) v[i] = load_x(x[i] + k, kc - k);
        TFF_UNROLL
        for (int j = 0; j < 4; ++j) {
          const __m256i wj =
              _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)(pw + 16 * j)));
          TFF_UNROLL
          for (size_t i = 0; i < MR; ++i)
            acc[i][j] = _mm256_add_epi32(acc[i][j], _mm256_madd_epi16(v[i], wj));
        }
      }
    }
    const __m256 scale = _mm256_loadu_ps((const float*)pw);
    pw += 8 * sizeof(float);
    /* Highest row first: aliased rows past mr hold the same values. */
    TFF_UNROLL
    for (size_t i = MR; i-- > 0;)
      store(cr[i] + n0, finish(acc[i][0], acc[i][1], acc[i][2], acc[i][3], scale, lo, hi, zp),
            nc - n0);
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c8__avx2, 4, gemm)

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__avx2, 1, gemm)
