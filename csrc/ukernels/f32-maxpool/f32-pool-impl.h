/* The fold of the f32-maxpool (TFF_POOL_AVG 0) and f32-avgpool
 * (TFF_POOL_AVG 1) kernels, after a ukernels/simd header (which names the
 * vector, TFF_MAX/TFF_MIN with the scalar compare's NaN rule, TFF_DIV); then
 * the shared body, ukernels/pool-impl.h. No FTZ: the op never had it. */
#define TFF_T float
#define TFF_P tff_f32_pool_params
#define TFF_CAT2(a, b) a##b
#define TFF_CAT(a, b) TFF_CAT2(a, b)
#if TFF_POOL_AVG
#include "ukernels/f32-avgpool/f32-avgpool.h"
#define TFF_POOL_KERNEL TFF_CAT(tff_f32_avgpool_minmax_ukernel__, TFF_ISA)
#define TFF_POOL_ELEM tff_f32_avgpool_elem
#define TFF_POOL_INIT 0.0f
#define TFF_POOL_FOLD(acc, x) TFF_ADD((acc), (x))
#define TFF_POOL_FINISH(acc, n) TFF_DIV((acc), TFF_SPLAT((float)(n)))
#else
#include "ukernels/f32-maxpool/f32-maxpool.h"
#define TFF_POOL_KERNEL TFF_CAT(tff_f32_maxpool_minmax_ukernel__, TFF_ISA)
#define TFF_POOL_ELEM tff_f32_maxpool_elem
#define TFF_POOL_INIT (-INFINITY)
/* x > acc ? x : acc: a NaN tap is skipped */
#define TFF_POOL_FOLD(acc, x) TFF_MAX((x), (acc))
#define TFF_POOL_FINISH(acc, n) (acc)
#endif
#include "ukernels/pool-impl.h"
