/* qs8-avgpool: the kernels this build has, and their selection. */
#include "qs8-avgpool.h"

TFF_DEFINE_CONFIGS(tff_qs8_avgpool_minmax)
