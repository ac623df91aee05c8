/* The float vector of the neon kernels, armv7 and aarch64 (XNNPACK's
 * simd/f32-neon.h in small): the names the kernel bodies (*-impl.h) are
 * written in. armv7 NEON flushes denormals whatever FZ says (ukernels/ftz.h). */
#include <arm_neon.h>

#define TFF_ISA neon
#define TFF_W 4
#define TFF_V float32x4_t
#define TFF_LOAD(p) vld1q_f32(p)
#define TFF_STORE(p, v) vst1q_f32((p), (v))
#define TFF_SPLAT(x) vdupq_n_f32(x)
#define TFF_ADD vaddq_f32
#define TFF_SUB vsubq_f32
#define TFF_MUL vmulq_f32
#if defined(__aarch64__)
#define TFF_DIV vdivq_f32 /* armv7 NEON has no divide */
#endif
/* x > y ? x : y, x < y ? x : y (y when either is NaN), as maxps/minps:
 * vmaxq/vminq would return the NaN and not keep the compare's choice
 * between -0.0 and +0.0. */
#define TFF_MAX(a, b) vbslq_f32(vcgtq_f32((a), (b)), (a), (b))
#define TFF_MIN(a, b) vbslq_f32(vcltq_f32((a), (b)), (a), (b))

/* v with +0 in the lanes where mask is set (x86's andnot). */
static inline float32x4_t tff_neon_zero_where(uint32x4_t mask, float32x4_t v) {
  return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(v), mask));
}
