/* f32-vrsqrt, 4 lanes: XNNPACK's sse2_rsqrt (RSQRTPS, one Newton step). */
#include "ukernels/simd/f32-sse41.h"

#define TFF_RSQRT _mm_rsqrt_ps
#define TFF_ANDNOT_EQ(a, b, v) _mm_andnot_ps(_mm_cmpeq_ps((a), (b)), (v))
#include "f32-vrsqrt-impl.h"
