/* f32-raddstoreexpminusmax: the kernels this build has, and their selection. */
#include "f32-raddstoreexpminusmax.h"

TFF_DEFINE_CONFIGS(tff_f32_raddstoreexpminusmax)
