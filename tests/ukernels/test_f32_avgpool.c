/* f32-avgpool kernels against the scalar twin (bit-exact) and the twin
 * against the op's per-channel formula; see pool_test.h. */
#include "ukernels/f32-avgpool/f32-avgpool.h"
#include "f32_pool_test.h"
#define FAMILY tff_f32_avgpool_minmax
#define ELEM tff_f32_avgpool_elem
#define BIG_TAPS 0
#include "pool_test.h"
