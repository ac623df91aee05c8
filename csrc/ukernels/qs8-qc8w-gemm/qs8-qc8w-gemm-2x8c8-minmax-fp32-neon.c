/* NEON (armv7 and aarch64), 2 (or 1) rows x 8 channels, KR = 8: smull of 8
 * int8 pairs into int16 (|x·w| <= 2^14 fits for any weight, -128 included),
 * sadalp into one int32x4 per row and channel, pairwise adds at the end. */
#include "qs8-qc8w-gemm-neon.h"

#define TFF_UNROLL _Pragma("GCC unroll 8")

static inline int8x8_t load_x(const int8_t* x, size_t left) {
  if (left >= 8) return vld1_s8(x);
  return vreinterpret_s8_u64(vcreate_u64(tff_qs8_load_tail8(x, left)));
}

static inline int32x4_t hsum4(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d) {
  const int32x4_t ab = vcombine_s32(vpadd_s32(vget_low_s32(a), vget_high_s32(a)),
                                    vpadd_s32(vget_low_s32(b), vget_high_s32(b)));
  const int32x4_t cd = vcombine_s32(vpadd_s32(vget_low_s32(c), vget_high_s32(c)),
                                    vpadd_s32(vget_low_s32(d), vget_high_s32(d)));
  return vcombine_s32(vpadd_s32(vget_low_s32(ab), vget_high_s32(ab)),
                      vpadd_s32(vget_low_s32(cd), vget_high_s32(cd)));
}

TFF_QS8_QC8W_GEMM_BODY(gemm) {
  const int8_t* const* ar[2];
  int8_t* cr[2];
  tff_qs8_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const float32x4_t lo = vdupq_n_f32(p->min_less_zp), hi = vdupq_n_f32(p->max_less_zp);
  const int32x4_t zp = vdupq_n_s32(p->zp);
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 8) {
    const int32_t* b = (const int32_t*)pw;
    int32x4_t acc[2][8];
    TFF_UNROLL
    for (int j = 0; j < 8; ++j) {
      acc[0][j] = vsetq_lane_s32(b[j], vdupq_n_s32(0), 0);
      TFF_UNROLL
      for (size_t i = 1; i < MR; ++i) acc[i][j] = acc[0][j];
    }
    pw += 8 * sizeof(int32_t);
    for (size_t t = 0; t < ks; ++t) {
      const int8_t* x[2];
      TFF_UNROLL
      for (size_t i = 0; i < MR; ++i) x[i] = ar[i][t] + a_offset;
      for (size_t k = 0; k < kc; k += 8, pw += 64) {
        int8x8_t v[2];
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) v[i] = load_x(x[i] + k, kc - k);
        TFF_UNROLL
        for (int j = 0; j < 8; ++j) {
          const int8x8_t wj = vld1_s8(pw + 8 * j);
          TFF_UNROLL
          for (size_t i = 0; i < MR; ++i) acc[i][j] = vpadalq_s16(acc[i][j], vmull_s8(v[i], wj));
        }
      }
    }
    const float* scale = (const float*)pw;
    pw += 8 * sizeof(float);
    /* Highest row first: aliased rows past mr hold the same values. */
    TFF_UNROLL
    for (size_t i = MR; i-- > 0;)
      tff_qs8_neon_store8(cr[i] + n0, hsum4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]),
                          hsum4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]), scale, lo, hi, zp,
                          nc - n0);
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x8c8__neon, 2, gemm)

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__neon, 1, gemm)
