/* NEON (aarch64 and armv7): 16 channels per tile, vmull_s8 products widened
 * into four int32x4 accumulators. */
#include <arm_neon.h>

#include "qs8-qc8w-dwconv.h"

#define DW_CT 16
#define DW_PAIRS 0
typedef struct {
  int32x4_t a0, a1, a2, a3;
} dw_acc;
typedef struct {
  float32x4_t min, max;
  int32x4_t zp;
} dw_prm;

static inline dw_prm dw_params(const tff_qs8_dwconv_params* p) {
  return (dw_prm){vdupq_n_f32(p->min_less_zp), vdupq_n_f32(p->max_less_zp),
                  vdupq_n_s32(p->zero_point)};
}
static inline dw_acc dw_init(const int32_t* b) {
  return (dw_acc){vld1q_s32(b), vld1q_s32(b + 4), vld1q_s32(b + 8), vld1q_s32(b + 12)};
}
static inline dw_acc dw_mac(dw_acc acc, const int8_t* x, const int8_t* w) {
  const int8x16_t vx = vld1q_s8(x), vw = vld1q_s8(w);
  const int16x8_t lo = vmull_s8(vget_low_s8(vx), vget_low_s8(vw));
  const int16x8_t hi = vmull_s8(vget_high_s8(vx), vget_high_s8(vw));
  acc.a0 = vaddw_s16(acc.a0, vget_low_s16(lo));
  acc.a1 = vaddw_s16(acc.a1, vget_high_s16(lo));
  acc.a2 = vaddw_s16(acc.a2, vget_low_s16(hi));
  acc.a3 = vaddw_s16(acc.a3, vget_high_s16(hi));
  return acc;
}
/* Round to nearest even like lrintf: vcvtn on aarch64; on armv7 the
 * magic-bias trick, exact because the clamped value is within ±2^8. */
static inline int32x4_t dw_requant(int32x4_t acc, const float* scale, const dw_prm* p) {
  float32x4_t f = vmulq_f32(vcvtq_f32_s32(acc), vld1q_f32(scale));
  f = vminq_f32(vmaxq_f32(f, p->min), p->max);
#if defined(__aarch64__)
  const int32x4_t r = vcvtnq_s32_f32(f);
#else
  const float32x4_t magic = vdupq_n_f32(12582912.0f); /* 1.5·2^23 */
  const int32x4_t r = vsubq_s32(vreinterpretq_s32_f32(vaddq_f32(f, magic)),
                                vreinterpretq_s32_f32(magic));
#endif
  return vaddq_s32(r, p->zp);
}
static inline void dw_store(dw_acc acc, const float* scale, const dw_prm* p, int8_t* out) {
  /* in [-128, 127]: the saturating narrows are exact */
  const int16x8_t lo = vcombine_s16(vqmovn_s32(dw_requant(acc.a0, scale, p)),
                                    vqmovn_s32(dw_requant(acc.a1, scale + 4, p)));
  const int16x8_t hi = vcombine_s16(vqmovn_s32(dw_requant(acc.a2, scale + 8, p)),
                                    vqmovn_s32(dw_requant(acc.a3, scale + 12, p)));
  vst1q_s8(out, vcombine_s8(vqmovn_s16(lo), vqmovn_s16(hi)));
}

#define DW_ISA neon
#include "qs8-qc8w-dwconv-kernels.h"
