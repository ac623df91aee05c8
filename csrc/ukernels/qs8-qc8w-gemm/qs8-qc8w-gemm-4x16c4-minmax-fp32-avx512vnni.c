/* AVX512-VNNI, 4 (or 1) rows x 16 channels, KR = 4: vpdpbusd multiplies
 * unsigned by signed bytes, so x is read as x+128 (xor 0x80) and the packed
 * init holds bias − (z_x+128)·Σw (izp_extra = 128); the non-saturating form
 * wraps like the scalar twin. One zmm accumulator per row, no reduction. */
#include <immintrin.h>

#include "qs8-qc8w-gemm.h"

#define TFF_UNROLL _Pragma("GCC unroll 4")

/* 4 bytes of x (zero-filled tail), +128, broadcast to every lane. */
static inline __m512i load_x4(const int8_t* x, size_t left) {
  uint32_t v;
  if (left >= 4)
    memcpy(&v, x, 4);
  else
    v = (uint32_t)tff_qs8_load_tail8(x, left);
  return _mm512_set1_epi32((int)(v ^ 0x80808080u));
}

TFF_QS8_QC8W_GEMM_BODY(gemm) {
  const int8_t* const* ar[4];
  int8_t* cr[4];
  tff_qs8_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const __m512 lo = _mm512_set1_ps(p->min_less_zp), hi = _mm512_set1_ps(p->max_less_zp);
  const __m512i zp = _mm512_set1_epi32(p->zp);
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 16) {
    __m512i acc[4];
    const __m512i b = _mm512_loadu_si512(pw);
    TFF_UNROLL
    for (size_t i = 0; i < MR; ++i) acc[i] = b;
    pw += 16 * sizeof(int32_t);
    for (size_t t = 0; t < ks; ++t) {
      const int8_t* x[4];
      TFF_UNROLL
      for (size_t i = 0; i < MR; ++i) x[i] = ar[i][t] + a_offset;
      for (size_t k = 0; k < kc; k += 4, pw += 64) {
        const __m512i wk = _mm512_loadu_si512(pw);
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i)
          acc[i] = _mm512_dpbusd_epi32(acc[i], load_x4(x[i] + k, kc - k), wk);
      }
    }
    const __m512 scale = _mm512_loadu_ps(pw);
    pw += 16 * sizeof(float);
    const size_t n = nc - n0 < 16 ? nc - n0 : 16;
    const __mmask16 mask = (__mmask16)((1u << n) - 1);
    /* Highest row first: aliased rows past mr hold the same values. */
    TFF_UNROLL
    for (size_t i = MR; i-- > 0;) {
      __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc[i]), scale);
      f = _mm512_min_ps(_mm512_max_ps(f, lo), hi);
      const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(f), zp);
      _mm_mask_storeu_epi8(cr[i] + n0, mask, _mm512_cvtsepi32_epi8(q));
    }
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x16c4__avx512vnni, 4, gemm)

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x16c4__avx512vnni, 1, gemm)
