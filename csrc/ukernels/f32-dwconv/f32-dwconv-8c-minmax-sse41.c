/* SSE4.1: 8 channels per tile as two float4 accumulators. */
#include <smmintrin.h>

#define DW_ISA sse41
#define DW_CT 8
typedef __m128 dw_v;
#define DW_LD _mm_loadu_ps
#define DW_ST _mm_storeu_ps
#define DW_SET1 _mm_set1_ps
#define DW_ADD _mm_add_ps
#define DW_MUL _mm_mul_ps
#define DW_MIN _mm_min_ps
#define DW_MAX _mm_max_ps
#include "f32-dwconv-x86.h"
