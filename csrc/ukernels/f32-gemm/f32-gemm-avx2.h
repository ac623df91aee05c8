/* What the AVX2 many-row f32 kernels (6x16, 4x24) share. */
#ifndef TFLITE_FAST_UKERNELS_F32_GEMM_AVX2_H_
#define TFLITE_FAST_UKERNELS_F32_GEMM_AVX2_H_

#include <immintrin.h>

/* Stores the first n (< 16) channels of (v0, v1): 8, 4, 2 and 1 at a time. */
static inline void tff_f32_store_part_avx2(float* c, __m256 v0, __m256 v1, size_t n) {
  if (n & 8) {
    _mm256_storeu_ps(c, v0);
    c += 8;
    v0 = v1;
  }
  __m128 h = _mm256_castps256_ps128(v0);
  if (n & 4) {
    _mm_storeu_ps(c, h);
    c += 4;
    h = _mm256_extractf128_ps(v0, 1);
  }
  if (n & 2) {
    _mm_storel_pi((__m64*)c, h);
    c += 2;
    h = _mm_movehl_ps(h, h);
  }
  if (n & 1) _mm_store_ss(c, h);
}

#endif /* TFLITE_FAST_UKERNELS_F32_GEMM_AVX2_H_ */
