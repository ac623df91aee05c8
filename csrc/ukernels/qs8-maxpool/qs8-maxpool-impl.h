/* The fold of every qs8-maxpool kernel: max from -128, then the shared body
 * (ukernels/pool-impl.h). Before including, name the vector as in
 * ukernels/simd/qs8-scalar.h (TFF_MAX/TFF_MIN: signed max/min per lane). */
#include "qs8-maxpool.h"

#define TFF_T int8_t
#define TFF_P tff_qs8_pool_params
#define TFF_POOL_ELEM tff_qs8_maxpool_elem
#define TFF_POOL_INIT INT8_MIN
#define TFF_POOL_FOLD(acc, x) TFF_MAX((x), (acc))
#define TFF_POOL_FINISH(acc, n) (acc)
#include "ukernels/pool-impl.h"
