/* f32-maxpool, 4 lanes, aarch64 only (see f32-pool-neon.h). */
#if defined(__aarch64__)
#include "ukernels/f32-maxpool/f32-pool-neon.h"

#define TFF_POOL_AVG 0
#include "ukernels/f32-maxpool/f32-pool-impl.h"
#endif
