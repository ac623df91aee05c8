/* f32-avgpool, 8 lanes; fewer than 8 channels run the sse41 kernel. */
#include "ukernels/simd/f32-avx2.h"

#define TFF_POOL_AVG 1
#define TFF_POOL_NARROW tff_f32_avgpool_minmax_ukernel__sse41
#include "ukernels/f32-maxpool/f32-pool-impl.h"
