/* f32-gemm packing in NEON 4x4 transposes (armv7 and aarch64). */
#include <arm_neon.h>

#include "f32-gemm.h"

static inline void tff_pack_4x4(const float* s, size_t kk, float* d, size_t nr) {
  /* ab = {a0 b0 a2 b2}, {a1 b1 a3 b3}; cd likewise; halves make the columns. */
  const float32x4x2_t ab = vtrnq_f32(vld1q_f32(s), vld1q_f32(s + kk));
  const float32x4x2_t cd = vtrnq_f32(vld1q_f32(s + 2 * kk), vld1q_f32(s + 3 * kk));
  vst1q_f32(d, vcombine_f32(vget_low_f32(ab.val[0]), vget_low_f32(cd.val[0])));
  vst1q_f32(d + nr, vcombine_f32(vget_low_f32(ab.val[1]), vget_low_f32(cd.val[1])));
  vst1q_f32(d + 2 * nr, vcombine_f32(vget_high_f32(ab.val[0]), vget_high_f32(cd.val[0])));
  vst1q_f32(d + 3 * nr, vcombine_f32(vget_high_f32(ab.val[1]), vget_high_f32(cd.val[1])));
}

#define TFF_PACK_4X4 tff_pack_4x4
#define TFF_F32_GEMM_PACK_NAME tff_f32_gemm_pack__neon
#include "f32-gemm-pack-body.h"
