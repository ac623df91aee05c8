/* f32-vrsqrt: the kernels this build has, and their selection. */
#include "f32-vrsqrt.h"

TFF_DEFINE_CONFIGS(tff_f32_vrsqrt)
