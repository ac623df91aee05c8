/* AVX2, 1 row x 16 channels, fused multiply-add (FMA3 comes with our avx2
 * level): half the arithmetic instructions on Intel, and on AMD Zen 3 ~10%
 * faster on the real conv layers (bench/bench_layers.py). The many-row tile
 * is f32-gemm-6x16-minmax-avx2.c. */
#include <immintrin.h>

#define TFF_V __m256
#define TFF_VL 8
#define TFF_VLOAD _mm256_loadu_ps
#define TFF_VSTORE _mm256_storeu_ps
#define TFF_VSET1 _mm256_set1_ps
#define TFF_VADD _mm256_add_ps
#define TFF_VMUL _mm256_mul_ps
#define TFF_VFMA _mm256_fmadd_ps
#define TFF_VMAX _mm256_max_ps
#define TFF_VMIN _mm256_min_ps
#define TFF_F32_MR 1
#define TFF_F32_GEMV_NAME tff_f32_gemm_minmax_ukernel_1x16__avx2
#include "f32-gemm-simd.h"
