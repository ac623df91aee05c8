/* f32-rsum, 4 lanes: the family's order at W = 4, tail added lane by lane
 * (the test's model; XNNPACK's neon kernel orders its sum otherwise). */
#include "ukernels/simd/f32-neon.h"

#define TFF_ZERO vdupq_n_f32(0.0f)
#define TFF_SPILL TFF_STORE
#define TFF_TAIL_LANES 1
#include "f32-rsum-impl.h"
