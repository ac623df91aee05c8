/* f32-rsum scalar twin: XNNPACK's scalar u4_acc4 (four scalar accumulators). */
#include "ukernels/simd/f32-scalar.h"

#define TFF_ZERO 0.0f
#define TFF_SPILL TFF_STORE
#define TFF_TAIL_LANES 1
#include "f32-rsum-impl.h"
