/* f32-rsum, 4 lanes: XNNPACK's sse2 u16_acc4 (tail added into lane 0). */
#include "ukernels/simd/f32-sse41.h"

#define TFF_ZERO _mm_setzero_ps()
#define TFF_SPILL TFF_STORE
#define TFF_TAIL_LANES 0
#include "f32-rsum-impl.h"
