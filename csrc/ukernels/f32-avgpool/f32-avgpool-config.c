/* f32-avgpool: the kernels this build has, and their selection (neon on
 * aarch64 only). */
#include "f32-avgpool.h"

TFF_DEFINE_F32_POOL_CONFIGS(tff_f32_avgpool_minmax)
