/* f32-vrsqrt, 8 lanes: XNNPACK's avx_rsqrt (VRSQRTPS, one Newton step). */
#include "ukernels/simd/f32-avx2.h"

#define TFF_RSQRT _mm256_rsqrt_ps
#define TFF_ANDNOT_EQ(a, b, v) _mm256_andnot_ps(_mm256_cmp_ps((a), (b), _CMP_EQ_OQ), (v))
#include "f32-vrsqrt-impl.h"
