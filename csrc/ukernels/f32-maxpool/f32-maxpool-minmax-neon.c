/* f32-maxpool, 4 lanes, aarch64 only: armv7 NEON flushes denormals, which would
 * break the bit-exactness with the scalar twin, so armv7 runs the twin. */
#if defined(__aarch64__)
#include "ukernels/simd/f32-neon.h"

#define TFF_POOL_AVG 0
#include "ukernels/f32-maxpool/f32-pool-impl.h"
#endif
