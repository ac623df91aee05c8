/* f32-raddstoreexpminusmax, 8 lanes: XNNPACK's avx2 rr2_p5 u32_acc2 (FMA). */
#include "ukernels/simd/f32-avx2.h"

#define TFF_FUSED 1
#define TFF_MADD _mm256_fmadd_ps
#define TFF_SHL23(v) _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(v), 23))
#define TFF_ZERO_LT(x, c, f) _mm256_andnot_ps(_mm256_cmp_ps((x), (c), _CMP_LT_OS), (f))
#define TFF_TAIL_LANES 1
#include "f32-raddstoreexpminusmax-impl.h"
