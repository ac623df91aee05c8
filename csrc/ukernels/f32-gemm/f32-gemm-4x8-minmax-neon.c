/* NEON (armv7 and aarch64), 4 (or 1) rows x 8 channels; separate vmul and
 * vadd (no vfma). The clamp is a compare-and-select: vmax/vmin would turn a
 * -0 sum into +0 at a 0 bound, and the scalar twin keeps -0. */
#include <arm_neon.h>

static inline float32x4_t tff_neon_max(float32x4_t lo, float32x4_t v) {
  return vbslq_f32(vcltq_f32(v, lo), lo, v);
}
static inline float32x4_t tff_neon_min(float32x4_t hi, float32x4_t v) {
  return vbslq_f32(vcgtq_f32(v, hi), hi, v);
}

#define TFF_V float32x4_t
#define TFF_VL 4
#define TFF_VLOAD vld1q_f32
#define TFF_VSTORE vst1q_f32
#define TFF_VSET1 vdupq_n_f32
#define TFF_VADD vaddq_f32
#define TFF_VMUL vmulq_f32
#define TFF_VMAX tff_neon_max
#define TFF_VMIN tff_neon_min
#define TFF_F32_MR 4
#define TFF_F32_GEMM_NAME tff_f32_gemm_minmax_ukernel_4x8__neon
#define TFF_F32_GEMV_NAME tff_f32_gemm_minmax_ukernel_1x8__neon
#include "f32-gemm-simd.h"
