/* f32-maxpool kernels against the scalar twin (bit-exact) and the twin
 * against the op's per-channel formula; see pool_test.h. */
#include "ukernels/f32-maxpool/f32-maxpool.h"
#include "f32_pool_test.h"
#define FAMILY tff_f32_maxpool_minmax
#define ELEM tff_f32_maxpool_elem
#define BIG_TAPS 0
#include "pool_test.h"
