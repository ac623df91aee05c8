/* f32-maxpool: the kernels this build has, and their selection (neon on
 * aarch64 only). */
#include "f32-maxpool.h"

TFF_DEFINE_F32_POOL_CONFIGS(tff_f32_maxpool_minmax)
