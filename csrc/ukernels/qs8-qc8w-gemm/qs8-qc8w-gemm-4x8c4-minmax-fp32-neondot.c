/* aarch64 SDOT, 4 (or 1) rows x 8 channels, KR = 4: each SDOT adds four
 * int8 products per channel into its int32 lane (wrapping like the scalar
 * twin); channels 0-3 and 4-7 in two accumulators per row, no reduction. */
#include "qs8-qc8w-gemm-neon.h"

#define TFF_UNROLL _Pragma("GCC unroll 4")

/* 4 int8 of x (zero-filled tail) repeated into all four lanes. */
static inline int8x16_t load_x4(const int8_t* x, size_t left) {
  uint32_t v;
  if (left >= 4)
    memcpy(&v, x, 4);
  else
    v = (uint32_t)tff_qs8_load_tail8(x, left);
  return vreinterpretq_s8_u32(vdupq_n_u32(v));
}

TFF_QS8_QC8W_GEMM_BODY(gemm) {
  const int8_t* const* ar[4];
  int8_t* cr[4];
  tff_qs8_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const float32x4_t lo = vdupq_n_f32(p->min_less_zp), hi = vdupq_n_f32(p->max_less_zp);
  const int32x4_t zp = vdupq_n_s32(p->zp);
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 8) {
    int32x4_t acc0[4], acc1[4];
    const int32x4_t b0 = vld1q_s32((const int32_t*)pw), b1 = vld1q_s32((const int32_t*)pw + 4);
    TFF_UNROLL
    for (size_t i = 0; i < MR; ++i) acc0[i] = b0, acc1[i] = b1;
    pw += 8 * sizeof(int32_t);
    for (size_t t = 0; t < ks; ++t) {
      const int8_t* x[4];
      TFF_UNROLL
      for (size_t i = 0; i < MR; ++i) x[i] = ar[i][t] + a_offset;
      for (size_t k = 0; k < kc; k += 4, pw += 32) {
        const int8x16_t w0 = vld1q_s8(pw), w1 = vld1q_s8(pw + 16);
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) {
          const int8x16_t v = load_x4(x[i] + k, kc - k);
          acc0[i] = vdotq_s32(acc0[i], w0, v);
          acc1[i] = vdotq_s32(acc1[i], w1, v);
        }
      }
    }
    const float* scale = (const float*)pw;
    pw += 8 * sizeof(float);
    /* Highest row first: aliased rows past mr hold the same values. */
    TFF_UNROLL
    for (size_t i = MR; i-- > 0;)
      tff_qs8_neon_store8(cr[i] + n0, acc0[i], acc1[i], scale, lo, hi, zp, nc - n0);
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c4__neondot, 4, gemm)

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c4__neondot, 1, gemm)
