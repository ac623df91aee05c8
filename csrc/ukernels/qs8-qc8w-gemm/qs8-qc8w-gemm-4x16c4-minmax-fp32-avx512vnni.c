/* AVX512-VNNI, 4 rows x 16 channels, KR = 4: vpdpbusd multiplies unsigned
 * by signed bytes, so x is read as x+128 (xor 0x80) and the packed init
 * holds bias − (z_x+128)·Σw (izp_extra = 128); the non-saturating form wraps
 * like the scalar twin. One zmm accumulator per row, no reduction. At the
 * end: the GEMV of the same packing, 1x64c4. */
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

typedef struct {
  __m512 lo, hi;
  __m512i zp;
} requant_consts;

/* Requantizes 16 channels' sums and stores the first n (<= 16) bytes. */
static inline void store16(__m512i acc, const float* scale, const requant_consts* q, int8_t* c,
                           size_t n) {
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), _mm512_loadu_ps(scale));
  f = _mm512_min_ps(_mm512_max_ps(f, q->lo), q->hi);
  const __m512i r = _mm512_add_epi32(_mm512_cvtps_epi32(f), q->zp);
  _mm_mask_storeu_epi8(c, (__mmask16)((1u << n) - 1), _mm512_cvtsepi32_epi8(r));
}

static inline requant_consts requant_of(const tff_qs8_minmax_fp32_params* p) {
  return (requant_consts){_mm512_set1_ps(p->min_less_zp), _mm512_set1_ps(p->max_less_zp),
                          _mm512_set1_epi32(p->zp)};
}

TFF_QS8_QC8W_GEMM_BODY(gemm) {
  const int8_t* const* ar[4];
  int8_t* cr[4];
  tff_qs8_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const requant_consts q = requant_of(p);
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
    const size_t n = nc - n0 < 16 ? nc - n0 : 16;
    /* Highest row first: aliased rows past mr hold the same values. */
    TFF_UNROLL
    for (size_t i = MR; i-- > 0;) store16(acc[i], (const float*)pw, &q, cr[i] + n0, n);
    pw += 16 * sizeof(float);
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x16c4__avx512vnni, 4, gemm)

/* NB blocks of 16 channels (bs bytes apart) of one row, one accumulator
 * each: a lone block's sums are one vpdpbusd chain, a step per vpdpbusd
 * latency (5 cycles on Ice Lake; 4 chains keep one issuing every cycle or
 * so). Not timed: no AVX-512 CPU here (checked bit-exact by emulation). */
static TFF_ALWAYS_INLINE void gemv_pass(const size_t NB, const int8_t* const* a, size_t ks,
                                        size_t kc, size_t a_offset, const int8_t* pw,
                                        size_t bs, int8_t* c, size_t n,
                                        const requant_consts* q) {
  __m512i acc[4];
  TFF_UNROLL
  for (size_t b = 0; b < NB; ++b) acc[b] = _mm512_loadu_si512(pw + b * bs);
  pw += 16 * sizeof(int32_t);
  for (size_t t = 0; t < ks; ++t) {
    const int8_t* x = a[t] + a_offset;
    for (size_t k = 0; k < kc; k += 4, pw += 64) {
      const __m512i xk = load_x4(x + k, kc - k);
      TFF_UNROLL
      for (size_t b = 0; b < NB; ++b)
        acc[b] = _mm512_dpbusd_epi32(acc[b], xk, _mm512_loadu_si512(pw + b * bs));
    }
  }
  TFF_UNROLL
  for (size_t b = 0; b < NB; ++b) {
    const size_t left = n - 16 * b;
    store16(acc[b], (const float*)(pw + b * bs), q, c + 16 * b, left < 16 ? left : 16);
  }
}

/* The GEMV: 64 channels (4 blocks) a pass, fewer in the last. */
TFF_QS8_QC8W_GEMM_BODY(gemv) {
  (void)MR, (void)mr, (void)cm_stride;
  const requant_consts q = requant_of(p);
  const size_t bs = 16 * (sizeof(int32_t) + ks * ((kc + 3) & ~(size_t)3) + sizeof(float));
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 64, pw += 4 * bs) {
    const size_t n = nc - n0 < 64 ? nc - n0 : 64;
    switch ((n + 15) / 16) {
      case 1: gemv_pass(1, a, ks, kc, a_offset, pw, bs, c + n0, n, &q); break;
      case 2: gemv_pass(2, a, ks, kc, a_offset, pw, bs, c + n0, n, &q); break;
      case 3: gemv_pass(3, a, ks, kc, a_offset, pw, bs, c + n0, n, &q); break;
      default: gemv_pass(4, a, ks, kc, a_offset, pw, bs, c + n0, n, &q); break;
    }
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx512vnni, 1, gemv)
