/* What the AVX2 many-row f32 kernels (6x16, 4x24) share: partial stores
 * and the accumulation of a block. */
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

/* One block of a many-row tile, a statement over the including kernel's
 * TFF_ROWS(X) (X(i) for each row i) and TFF_VECS(Y, i) (Y(i, v) for each
 * vector v of a row: a, b[, c], channels 0, 8[, 16]): accumulators acc<i><v>
 * from the bias, one FMA per tap t and channel k in order, then clamped,
 * bound first (max/min return their second operand, a NaN sum, as
 * tff_f32_clamp does). Reads ar, a_offset, kc, ks, lo, hi; steps w past the
 * block, NR floats a channel. Named accumulators: GCC keeps an array of
 * them in memory. */
/* A tile's start: row pointers ar[i] and output rows c<i> (tff_f32_gemm_rows)
 * and the clamp bounds lo, hi, from the kernel's arguments. */
#define TFF_AVX2_C(i) float* c##i = cr[i];
#define TFF_AVX2_TILE(MR)                                             \
  const float* const* ar[MR];                                         \
  float* cr[MR];                                                      \
  tff_f32_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);             \
  TFF_ROWS(TFF_AVX2_C)                                                \
  const __m256 lo = _mm256_set1_ps(p->min), hi = _mm256_set1_ps(p->max);

#define TFF_AVX2_OFF_a 0
#define TFF_AVX2_OFF_b 8
#define TFF_AVX2_OFF_c 16
#define TFF_AVX2_BIAS(i, v) const __m256 b##v = _mm256_loadu_ps(w + TFF_AVX2_OFF_##v);
#define TFF_AVX2_W(i, v) const __m256 w##v = _mm256_loadu_ps(w + TFF_AVX2_OFF_##v);
#define TFF_AVX2_INIT(i, v) __m256 acc##i##v = b##v;
#define TFF_AVX2_INIT_ROW(i) TFF_VECS(TFF_AVX2_INIT, i)
#define TFF_AVX2_X(i) const float* x##i = (const float*)((const char*)ar[i][t] + a_offset);
#define TFF_AVX2_FMA(i, v) acc##i##v = _mm256_fmadd_ps(xv, w##v, acc##i##v);
#define TFF_AVX2_FMA_ROW(i)                              \
  {                                                      \
    const __m256 xv = _mm256_broadcast_ss(x##i + k);     \
    TFF_VECS(TFF_AVX2_FMA, i)                            \
  }
#define TFF_AVX2_CLAMP(i, v) acc##i##v = _mm256_min_ps(hi, _mm256_max_ps(lo, acc##i##v));
#define TFF_AVX2_CLAMP_ROW(i) TFF_VECS(TFF_AVX2_CLAMP, i)
#define TFF_AVX2_BLOCK(NR)                 \
  TFF_VECS(TFF_AVX2_BIAS, _)               \
  w += NR;                                 \
  TFF_ROWS(TFF_AVX2_INIT_ROW)              \
  size_t t = 0;                            \
  do {                                     \
    TFF_ROWS(TFF_AVX2_X)                   \
    size_t k = 0;                          \
    do {                                   \
      TFF_VECS(TFF_AVX2_W, _)              \
      w += NR;                             \
      TFF_ROWS(TFF_AVX2_FMA_ROW)           \
    } while (++k < kc);                    \
  } while (++t < ks);                      \
  TFF_ROWS(TFF_AVX2_CLAMP_ROW)

#endif /* TFLITE_FAST_UKERNELS_F32_GEMM_AVX2_H_ */
