/* f32-vbinary, 4 lanes. The clamp is compare-and-select: vmaxq/vminq would
 * turn -0.0 into +0.0 against a 0 bound, which the scalar clamp keeps. */
#include "ukernels/simd/f32-neon.h"

static inline float32x4_t tff_neon_clamp(float32x4_t v, float32x4_t lo, float32x4_t hi) {
  v = vbslq_f32(vcltq_f32(v, lo), lo, v);
  return vbslq_f32(vcgtq_f32(v, hi), hi, v);
}

#define TFF_CLAMP(v, lo, hi) tff_neon_clamp((v), (lo), (hi))
#include "f32-vbinary-impl.h"
