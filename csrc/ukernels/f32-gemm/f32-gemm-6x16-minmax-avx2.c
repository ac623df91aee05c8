/* AVX2 with FMA3, 6 rows x 16 channels: XNNPACK's f32 GEMM tile for this
 * level (its 6x16 fma3_broadcast). 12 accumulators, 2 weight vectors and
 * one broadcast fill 15 of the 16 ymm registers, so the accumulators are
 * named variables (an array of them is kept in memory by GCC) and each
 * channel block does a multiply-add per 2/3 of a load, against 5 rows'
 * 7/10. The 1x1 convs over 112x112 pixels of mobilenet_v2 (K = 16, 32) are
 * ~5% faster than with the 5x16 template kernel. A last block of <= 8
 * channels runs 8 wide and a lone row goes to the 1x16 kernel, so 24-channel
 * and 7x7 layers do no more work than with 5 rows. Same order and bits as
 * the 2x4__scalar_fma twin. */
#include <immintrin.h>

#include "f32-gemm-avx2.h"
#include "f32-gemm.h"

#define TFF_ROWS6(X) X(0) X(1) X(2) X(3) X(4) X(5)
#define TFF_ROWS TFF_ROWS6
#define TFF_VECS(Y, i) Y(i, a) Y(i, b)

/* The last block when it has at most 8 channels: 6 rows x 8, half the
 * multiply-adds (a 24-channel conv is 2/3 of the work of 32). */
static TFF_ALWAYS_INLINE void block8(const float* const* const* ar, size_t a_offset, size_t kc,
                                     size_t ks, const float* w, float* const* cr, size_t n,
                                     __m256 lo, __m256 hi) {
  const __m256 b = _mm256_loadu_ps(w);
  w += 16;
#define TFF_INIT8(i) __m256 acc##i = b;
  TFF_ROWS6(TFF_INIT8)
  for (size_t t = 0; t < ks; ++t) {
#define TFF_X8(i) const float* x##i = (const float*)((const char*)ar[i][t] + a_offset);
    TFF_ROWS6(TFF_X8)
    for (size_t k = 0; k < kc; ++k, w += 16) {
      const __m256 w0 = _mm256_loadu_ps(w);
#define TFF_FMA8(i) acc##i = _mm256_fmadd_ps(_mm256_broadcast_ss(x##i + k), w0, acc##i);
      TFF_ROWS6(TFF_FMA8)
    }
  }
#define TFF_STORE8(i) \
  tff_f32_store_part_avx2(cr[i], _mm256_min_ps(hi, _mm256_max_ps(lo, acc##i)), acc##i, n);
  TFF_STORE8(5) TFF_STORE8(4) TFF_STORE8(3) TFF_STORE8(2) TFF_STORE8(1) TFF_STORE8(0)
}

void tff_f32_gemm_minmax_ukernel_6x16__avx2(size_t mr, size_t nc, size_t kc, size_t ks,
                                            const float* const* a, size_t a_offset,
                                            const float* w, float* c, size_t cm_stride,
                                            const tff_f32_minmax_params* p) {
  if (mr == 1) {
    /* A lone row (the 49th of a 7x7 layer) would cost a whole 6-row tile. */
    tff_f32_gemm_minmax_ukernel_1x16__avx2(mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);
    return;
  }
  TFF_AVX2_TILE(6)
  do {
    if (nc <= 8) {
      float* const last[6] = {c0, c1, c2, c3, c4, c5};
      block8(ar, a_offset, kc, ks, w, last, nc, lo, hi);
      return;
    }
    TFF_AVX2_BLOCK(16)
    /* Highest row first: aliased rows past mr hold the same values. */
    if (nc >= 16) {
#define TFF_STORE(i)                        \
  _mm256_storeu_ps(c##i, acc##i##a);        \
  _mm256_storeu_ps(c##i + 8, acc##i##b);    \
  c##i += 16;
      TFF_STORE(5) TFF_STORE(4) TFF_STORE(3) TFF_STORE(2) TFF_STORE(1) TFF_STORE(0)
      nc -= 16;
    } else {
#define TFF_PART(i) tff_f32_store_part_avx2(c##i, acc##i##a, acc##i##b, nc);
      TFF_PART(5) TFF_PART(4) TFF_PART(3) TFF_PART(2) TFF_PART(1) TFF_PART(0)
      nc = 0;
    }
  } while (nc != 0);
}
