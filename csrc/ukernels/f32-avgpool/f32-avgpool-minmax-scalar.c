/* f32-avgpool, scalar twin: the bits every other ISA must give (4 channels per block in scalars). */
#include "ukernels/simd/f32-scalar.h"

#define TFF_POOL_AVG 1
#include "ukernels/f32-maxpool/f32-pool-impl.h"
