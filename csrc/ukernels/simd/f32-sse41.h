/* The float vector of the sse41 kernels (XNNPACK's simd/f32-sse2.h in small):
 * the names the kernel bodies (*-impl.h) are written in. */
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
#define TFF_DIV _mm_div_ps
/* maxps/minps: x > y ? x : y, x < y ? x : y (y when either is NaN) */
#define TFF_MAX _mm_max_ps
#define TFF_MIN _mm_min_ps
