/* SSE, 4 (or 1) rows x 8 channels; separate mulps and addps. */
#include <smmintrin.h>

#define TFF_V __m128
#define TFF_VL 4
#define TFF_VLOAD _mm_loadu_ps
#define TFF_VSTORE _mm_storeu_ps
#define TFF_VSET1 _mm_set1_ps
#define TFF_VADD _mm_add_ps
#define TFF_VMUL _mm_mul_ps
#define TFF_VMAX _mm_max_ps
#define TFF_VMIN _mm_min_ps
#define TFF_F32_MR 4
#define TFF_F32_GEMM_NAME tff_f32_gemm_minmax_ukernel_4x8__sse41
#define TFF_F32_GEMV_NAME tff_f32_gemm_minmax_ukernel_1x8__sse41
#include "f32-gemm-simd.h"
