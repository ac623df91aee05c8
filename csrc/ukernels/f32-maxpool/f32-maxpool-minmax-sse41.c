/* f32-maxpool, 4 lanes (maxps/minps follow the scalar compare's NaN rule). */
#include "ukernels/simd/f32-sse41.h"

#define TFF_POOL_AVG 0
#include "ukernels/f32-maxpool/f32-pool-impl.h"
