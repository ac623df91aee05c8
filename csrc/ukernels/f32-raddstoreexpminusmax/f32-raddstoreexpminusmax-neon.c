/* f32-raddstoreexpminusmax, 4 lanes: the unfused formula of the sse41
 * kernel and the scalar twin (vmulq then vaddq: aarch64's vfmaq would round
 * once), tail added lane by lane. */
#include "ukernels/simd/f32-neon.h"

#define TFF_FUSED 0
#define TFF_MADD(a, b, c) vaddq_f32(vmulq_f32((a), (b)), (c))
#define TFF_SHL23(v) vreinterpretq_f32_u32(vshlq_n_u32(vreinterpretq_u32_f32(v), 23))
#define TFF_ZERO_LT(x, c, f) tff_neon_zero_where(vcltq_f32((x), (c)), (f))
#define TFF_TAIL_LANES 1
#include "f32-raddstoreexpminusmax-impl.h"
