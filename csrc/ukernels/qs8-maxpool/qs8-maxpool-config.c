/* qs8-maxpool: the kernels this build has, and their selection. */
#include "qs8-maxpool.h"

TFF_DEFINE_CONFIGS(tff_qs8_maxpool_minmax)
