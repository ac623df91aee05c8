/* f32-maxpool: float MAX_POOL_2D over in-image taps with a clamp to the
 * activation bounds (signature, parameters, per-channel bits: ukernels/pool.h). */
#ifndef TFF_UKERNELS_F32_MAXPOOL_H_
#define TFF_UKERNELS_F32_MAXPOOL_H_
#include "ukernels/pool.h"
TFF_DECLARE_POOL_FAMILY(tff_f32_maxpool_minmax, tff_f32_pool_ukernel)
#endif /* TFF_UKERNELS_F32_MAXPOOL_H_ */
