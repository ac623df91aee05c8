/* AVX2 with FMA3, 4 rows x 24 channels, for channel counts that are whole
 * 24-channel blocks but not 16-channel ones (mobilenet_v2's 24-channel
 * layers). There the 6x16 tile ends each row tile on an 8-channel half
 * block of 6 accumulator chains, fewer than the 8 that keep two 4-cycle FMA
 * units busy; here 12 accumulators, 3 weight vectors and one broadcast fill
 * the 16 ymm registers (named variables, as in the 6x16 kernel), 12
 * multiply-adds per 7 loads. The 3136x{96,144}->24 layers ~10% faster (C
 * microbench, alternating with 6x16). Same order and bits as the
 * 2x4__scalar_fma twin. */
#include <immintrin.h>

#include "f32-gemm-avx2.h"
#include "f32-gemm.h"

#define TFF_ROWS4(X) X(0) X(1) X(2) X(3)
#define TFF_ROWS TFF_ROWS4
#define TFF_VECS(Y, i) Y(i, a) Y(i, b) Y(i, c)

void tff_f32_gemm_minmax_ukernel_4x24__avx2(size_t mr, size_t nc, size_t kc, size_t ks,
                                            const float* const* a, size_t a_offset,
                                            const float* w, float* c, size_t cm_stride,
                                            const tff_f32_minmax_params* p) {
  TFF_AVX2_TILE(4)
  do {
    TFF_AVX2_BLOCK(24)
    /* Highest row first: aliased rows past mr hold the same values. */
    if (nc >= 24) {
#define TFF_STORE(i)                        \
  _mm256_storeu_ps(c##i, acc##i##a);        \
  _mm256_storeu_ps(c##i + 8, acc##i##b);    \
  _mm256_storeu_ps(c##i + 16, acc##i##c);   \
  c##i += 24;
      TFF_STORE(3) TFF_STORE(2) TFF_STORE(1) TFF_STORE(0)
      nc -= 24;
    } else if (nc >= 16) {
#define TFF_PART16(i)                                                  \
  _mm256_storeu_ps(c##i, acc##i##a);                                   \
  _mm256_storeu_ps(c##i + 8, acc##i##b);                               \
  tff_f32_store_part_avx2(c##i + 16, acc##i##c, acc##i##c, nc - 16);
      TFF_PART16(3) TFF_PART16(2) TFF_PART16(1) TFF_PART16(0)
      nc = 0;
    } else {
#define TFF_PART(i) tff_f32_store_part_avx2(c##i, acc##i##a, acc##i##b, nc);
      TFF_PART(3) TFF_PART(2) TFF_PART(1) TFF_PART(0)
      nc = 0;
    }
  } while (nc != 0);
}
