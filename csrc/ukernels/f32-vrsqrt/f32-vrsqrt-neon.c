/* f32-vrsqrt, 4 lanes: the scalar twin's bits, y0 = 1/sqrtf(x) correctly
 * rounded, then the Newton step under FZ. Not VRSQRTE: its 8-bit estimate
 * needs two steps (XNNPACK's neon kernel), which gives other bits. */
#include <math.h>

#include "ukernels/simd/f32-neon.h"

#if defined(__aarch64__)
#define TFF_RSQRT(x) vdivq_f32(vdupq_n_f32(1.0f), vsqrtq_f32(x))
#else
/* armv7 NEON has no divide or square root, nor the fused multiply-add that
 * would let an estimate be corrected to the correctly rounded bits: VFP's
 * VSQRT and VDIV, lane by lane (the step after them is NEON). */
static inline float32x4_t tff_neon_rsqrt_vfp(float32x4_t x) {
  float v[4];
  vst1q_f32(v, x);
  for (int l = 0; l < 4; ++l) v[l] = 1.0f / sqrtf(v[l]);
  return vld1q_f32(v);
}
#define TFF_RSQRT tff_neon_rsqrt_vfp
#endif
#define TFF_ANDNOT_EQ(a, b, v) tff_neon_zero_where(vceqq_f32((a), (b)), (v))
#include "f32-vrsqrt-impl.h"
