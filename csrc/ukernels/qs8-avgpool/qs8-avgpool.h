/* qs8-avgpool: int8 AVERAGE_POOL_2D on raw codes over in-image taps with a clamp to the
 * activation bounds (signature, parameters, per-channel bits: ukernels/pool.h). */
#ifndef TFF_UKERNELS_QS8_AVGPOOL_H_
#define TFF_UKERNELS_QS8_AVGPOOL_H_
#include "ukernels/pool.h"
TFF_DECLARE_POOL_FAMILY(tff_qs8_avgpool_minmax, tff_qs8_pool_ukernel)
#endif /* TFF_UKERNELS_QS8_AVGPOOL_H_ */
