/* qs8-maxpool kernels against the scalar twin (bit-exact) and the twin
 * against the op's per-channel formula; see pool_test.h. */
#include "ukernels/qs8-maxpool/qs8-maxpool.h"
#include "qs8_pool_test.h"
#define FAMILY tff_qs8_maxpool_minmax
#define ELEM tff_qs8_maxpool_elem
#define W_MAX 32
#define BIG_TAPS 0
#include "pool_test.h"
