/* qs8-vmul, 8 elements per block: centred int16 inputs, int32 products
 * (vmull_s16, exact), one float multiply, clamp (vmaxq/vminq agree with the
 * scalar clamp: v is never NaN or -0.0), magic-bias rounding, narrow. */
#include <arm_neon.h>

#include "qs8-vmul.h"

static inline int16x4_t quant4(int32x4_t prod, const tff_qs8_mul_minmax_fp32_params* p) {
  float32x4_t v = vmulq_f32(vcvtq_f32_s32(prod), vdupq_n_f32(p->scale));
  v = vminq_f32(vmaxq_f32(v, vdupq_n_f32(p->fmin)), vdupq_n_f32(p->fmax));
  v = vaddq_f32(v, vdupq_n_f32(12582912.0f));
  return vqmovn_s32(vsubq_s32(vreinterpretq_s32_f32(v), vdupq_n_s32(0x4B400000 - p->zo)));
}

static inline void block8(const int8_t* a, const int8_t* b, int8_t* out, int32_t yb,
                          const tff_qs8_mul_minmax_fp32_params* p) {
  const int16x8_t x = vsubq_s16(vmovl_s8(vld1_s8(a)), vdupq_n_s16((int16_t)p->za));
  const int16x8_t y = b ? vsubq_s16(vmovl_s8(vld1_s8(b)), vdupq_n_s16((int16_t)p->zb))
                        : vdupq_n_s16((int16_t)yb);
  const int16x4_t lo = quant4(vmull_s16(vget_low_s16(x), vget_low_s16(y)), p);
  const int16x4_t hi = quant4(vmull_s16(vget_high_s16(x), vget_high_s16(y)), p);
  vst1_s8(out, vqmovn_s16(vcombine_s16(lo, hi)));
}

TFF_QS8_VMUL_KERNELS(neon, 8, block8)
