/* qs8-vadd, 8 elements per block: widen to int32, multiply-accumulate, shift
 * right with vshlq by a negative count (arithmetic, truncating = floor, not
 * the rounding vrshlq), add zo, saturating narrow, clamp. */
#include <arm_neon.h>

#include "qs8-vadd.h"

static inline int32x4_t acc4(int16x4_t a, int16x4_t b, int has_b, int32x4_t bias,
                             const tff_qs8_add_minmax_params* p) {
  int32x4_t acc = vmlaq_s32(bias, vmovl_s16(a), vdupq_n_s32(p->a_mul));
  if (has_b) acc = vmlaq_s32(acc, vmovl_s16(b), vdupq_n_s32(p->b_mul));
  acc = vshlq_s32(acc, vdupq_n_s32(-(int32_t)p->shift));
  return vaddq_s32(acc, vdupq_n_s32(p->zo));
}

static inline void block8(const int8_t* a, const int8_t* b, int8_t* out, int32_t bias,
                          const tff_qs8_add_minmax_params* p) {
  const int32x4_t vb = vdupq_n_s32(bias);
  const int16x8_t va = vmovl_s8(vld1_s8(a));
  const int16x8_t vbx = b ? vmovl_s8(vld1_s8(b)) : vdupq_n_s16(0);
  const int32x4_t lo = acc4(vget_low_s16(va), vget_low_s16(vbx), b != NULL, vb, p);
  const int32x4_t hi = acc4(vget_high_s16(va), vget_high_s16(vbx), b != NULL, vb, p);
  int8x8_t o = vqmovn_s16(vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi)));
  o = vmin_s8(vmax_s8(o, vdup_n_s8((int8_t)p->lo)), vdup_n_s8((int8_t)p->hi));
  vst1_s8(out, o);
}

TFF_QS8_VADD_KERNELS(neon, 8, block8)
