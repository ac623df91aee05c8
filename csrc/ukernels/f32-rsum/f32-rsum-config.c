/* f32-rsum: the kernels this build has, and their selection. */
#include "f32-rsum.h"

TFF_DEFINE_CONFIGS(tff_f32_rsum)
