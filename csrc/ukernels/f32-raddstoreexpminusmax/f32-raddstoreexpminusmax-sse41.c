/* f32-raddstoreexpminusmax, 4 lanes: XNNPACK's sse2 rr2_p5 u16_acc2. */
#include "ukernels/simd/f32-sse41.h"

#define TFF_FUSED 0
#define TFF_MADD(a, b, c) _mm_add_ps(_mm_mul_ps((a), (b)), (c))
#define TFF_SHL23(v) _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(v), 23))
#define TFF_ZERO_LT(x, c, f) _mm_andnot_ps(_mm_cmplt_ps((x), (c)), (f))
#define TFF_TAIL_LANES 0
#include "f32-raddstoreexpminusmax-impl.h"
