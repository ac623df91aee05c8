/* f32-rsum, 8 lanes: XNNPACK's avx u32_acc4 (tail added lane by lane). */
#include "ukernels/simd/f32-avx2.h"

#define TFF_ZERO _mm256_setzero_ps()
#define TFF_SPILL TFF_STORE
#define TFF_TAIL_LANES 1
#include "f32-rsum-impl.h"
