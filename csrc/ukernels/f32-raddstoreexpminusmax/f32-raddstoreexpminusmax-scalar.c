/* f32-raddstoreexpminusmax scalar twin: XNNPACK's scalar rr2_p5 u4_acc2. */
#include "ukernels/simd/f32-scalar.h"

#define TFF_FUSED 0
#define TFF_MADD(a, b, c) ((a) * (b) + (c))
#define TFF_ZERO_LT(x, c, f) ((x) < (c) ? 0.0f : (f))
#define TFF_TAIL_LANES 1
#define TFF_SHL23 tff_f32_shl23
#include "f32-raddstoreexpminusmax-impl.h"
