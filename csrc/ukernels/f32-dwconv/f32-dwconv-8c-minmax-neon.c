/* NEON, aarch64 only (armv7 NEON flushes denormals, which would break the
 * bit-exactness with the scalar twin): 8 channels as two float4. */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "f32-dwconv.h"

#define DW_CT 8
typedef struct {
  float32x4_t lo, hi;
} dw_acc;
typedef struct {
  float32x4_t min, max;
} dw_prm;

static inline dw_prm dw_params(const tff_f32_dwconv_params* p) {
  return (dw_prm){vdupq_n_f32(p->min), vdupq_n_f32(p->max)};
}
static inline dw_acc dw_init(const float* b) { return (dw_acc){vld1q_f32(b), vld1q_f32(b + 4)}; }
/* vmulq + vaddq, never vmlaq/vfmaq (fused on aarch64). */
static inline dw_acc dw_mac(dw_acc acc, const float* x, const float* w) {
  acc.lo = vaddq_f32(acc.lo, vmulq_f32(vld1q_f32(x), vld1q_f32(w)));
  acc.hi = vaddq_f32(acc.hi, vmulq_f32(vld1q_f32(x + 4), vld1q_f32(w + 4)));
  return acc;
}
/* Selects, not vmax/vmin (those make NaN canonical): the scalar twin's
 * comparisons keep a NaN as it is. */
static inline float32x4_t dw_clamp(float32x4_t v, const dw_prm* p) {
  v = vbslq_f32(vcltq_f32(v, p->min), p->min, v);
  return vbslq_f32(vcgtq_f32(v, p->max), p->max, v);
}
static inline void dw_store(dw_acc acc, const dw_prm* p, float* out) {
  vst1q_f32(out, dw_clamp(acc.lo, p));
  vst1q_f32(out + 4, dw_clamp(acc.hi, p));
}

#define DW_ISA neon
#include "f32-dwconv-kernels.h"
#endif
