/* The float vector of the f32 pooling neon kernels, aarch64 only (armv7
 * NEON flushes denormals, which would break the bit-exactness with the
 * scalar twin; there the scalar twin runs). Max and min are compare and
 * select: vmaxq/vminq return NaN for a NaN operand and do not keep the
 * scalar compare's choice between -0.0 and +0.0. Defined here until the
 * shared ukernels/simd/f32-neon.h exists. */
#include <arm_neon.h>

#define TFF_ISA neon
#define TFF_W 4
#define TFF_V float32x4_t
#define TFF_LOAD(p) vld1q_f32(p)
#define TFF_STORE(p, v) vst1q_f32((p), (v))
#define TFF_SPLAT(x) vdupq_n_f32(x)
#define TFF_ADD vaddq_f32
#define TFF_DIV vdivq_f32
#define TFF_MAX(a, b) vbslq_f32(vcgtq_f32((a), (b)), (a), (b))
#define TFF_MIN(a, b) vbslq_f32(vcltq_f32((a), (b)), (a), (b))
