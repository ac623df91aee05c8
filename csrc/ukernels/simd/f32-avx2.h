/* The float vector of the avx2 kernels (XNNPACK's simd/f32-avx.h in small):
 * the names the kernel bodies (*-impl.h) are written in. */
#include <immintrin.h>

#define TFF_ISA avx2
#define TFF_W 8
#define TFF_V __m256
#define TFF_LOAD(p) _mm256_loadu_ps(p)
#define TFF_STORE(p, v) _mm256_storeu_ps((p), (v))
#define TFF_SPLAT(x) _mm256_set1_ps(x)
#define TFF_ADD _mm256_add_ps
#define TFF_SUB _mm256_sub_ps
#define TFF_MUL _mm256_mul_ps
#define TFF_DIV _mm256_div_ps
/* as the sse41 ones: y when either is NaN */
#define TFF_MAX _mm256_max_ps
#define TFF_MIN _mm256_min_ps
