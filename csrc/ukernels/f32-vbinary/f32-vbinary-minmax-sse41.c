/* f32-vbinary, 4 lanes. max(lo, v) then min(hi, v) return v itself when it
 * is NaN or equal to a bound (the second operand wins), as the scalar clamp. */
#include <immintrin.h>

#define TFF_ISA sse41
#define TFF_W 4
#define TFF_V __m128
#define TFF_LOAD(p) _mm_loadu_ps(p)
#define TFF_STORE(p, v) _mm_storeu_ps((p), (v))
#define TFF_SPLAT(x) _mm_set1_ps(x)
#define TFF_ADD _mm_add_ps
#define TFF_SUB _mm_sub_ps
#define TFF_MUL _mm_mul_ps
#define TFF_CLAMP(v, lo, hi) _mm_min_ps((hi), _mm_max_ps((lo), (v)))
#include "f32-vbinary-impl.h"
