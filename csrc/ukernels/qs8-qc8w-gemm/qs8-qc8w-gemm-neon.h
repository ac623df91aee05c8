/* Shared by the NEON and NEONDOT kernels of qs8-qc8w-gemm: the fp32
 * requantization of 8 channels and the store of a row's (partial) 8 bytes. */
#ifndef TFLITE_FAST_UKERNELS_QS8_QC8W_GEMM_NEON_H_
#define TFLITE_FAST_UKERNELS_QS8_QC8W_GEMM_NEON_H_

#include <arm_neon.h>

#include "qs8-qc8w-gemm.h"

/* 4 channels: round to nearest even as lrintf does (armv7 has no vcvtn:
 * the magic-number add is exact for |f| < 2^22, and the clamp keeps
 * |f| <= 255). */
static inline int32x4_t tff_qs8_neon_requant4(int32x4_t acc, float32x4_t scale,
                                              float32x4_t lo, float32x4_t hi, int32x4_t zp) {
  float32x4_t f = vmulq_f32(vcvtq_f32_s32(acc), scale);
  f = vminq_f32(vmaxq_f32(f, lo), hi);
#if defined(__aarch64__)
  return vaddq_s32(vcvtnq_s32_f32(f), zp);
#else
  const float32x4_t magic = vdupq_n_f32(12582912.0f);
  const int32x4_t magic_bits = vdupq_n_s32(0x4B400000);
  return vaddq_s32(vsubq_s32(vreinterpretq_s32_f32(vaddq_f32(f, magic)), magic_bits), zp);
#endif
}

/* Channels 0-3 in acc0, 4-7 in acc1, with the scales at `scale`; writes
 * the first n (<= 8 taken) to c. */
static inline void tff_qs8_neon_store8(int8_t* c, int32x4_t acc0, int32x4_t acc1,
                                       const float* scale, float32x4_t lo, float32x4_t hi,
                                       int32x4_t zp, size_t n) {
  const int32x4_t q0 = tff_qs8_neon_requant4(acc0, vld1q_f32(scale), lo, hi, zp);
  const int32x4_t q1 = tff_qs8_neon_requant4(acc1, vld1q_f32(scale + 4), lo, hi, zp);
  const int8x8_t q = vqmovn_s16(vcombine_s16(vqmovn_s32(q0), vqmovn_s32(q1)));
  if (n >= 8) {
    vst1_s8(c, q);
    return;
  }
  int8_t tmp[8];
  vst1_s8(tmp, q);
  memcpy(c, tmp, n);
}

#endif /* TFLITE_FAST_UKERNELS_QS8_QC8W_GEMM_NEON_H_ */
