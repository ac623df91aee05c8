/* qs8-avgpool scalar twin: the bytes every other ISA must give. */
#include "ukernels/simd/qs8-scalar.h"

#define TFF_POOL_KERNEL tff_qs8_avgpool_minmax_ukernel__scalar
#include "qs8-avgpool-impl.h"
