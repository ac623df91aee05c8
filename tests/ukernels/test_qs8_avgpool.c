/* qs8-avgpool kernels against the scalar twin (bit-exact) and the twin
 * against the op's per-channel formula; see pool_test.h. BIG_TAPS passes
 * the float quotient's exact range (pool.h), where kernels divide in
 * integers. */
#include "ukernels/qs8-avgpool/qs8-avgpool.h"
#include "qs8_pool_test.h"
#define FAMILY tff_qs8_avgpool_minmax
#define ELEM tff_qs8_avgpool_elem
#define W_MAX 16
#define BIG_TAPS (TFF_QS8_AVGPOOL_MAX_FLOAT_TAPS + 3)
#include "pool_test.h"
