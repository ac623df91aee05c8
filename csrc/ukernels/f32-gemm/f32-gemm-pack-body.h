/* The body of a SIMD f32-gemm packing: full blocks of nr channels in 4x4
 * transposes (TFF_PACK_4X4), the last taps (kk % 4) and a partial last
 * block by tff_f32_gemm_pack_taps. The including file defines
 * TFF_PACK_4X4(s, kk, d, nr): taps s[0..3] of 4 rows kk apart to 4 groups of
 * 4 channels nr apart at d, and TFF_F32_GEMM_PACK_NAME. */
#include "f32-gemm.h"

void TFF_F32_GEMM_PACK_NAME(size_t nc, size_t ks, size_t kc, size_t nr, const float* k,
                            float* packed) {
  const size_t kk = ks * kc;
  for (size_t n0 = 0; n0 < nc; n0 += nr) {
    float* w = packed + n0 * (1 + kk) + nr;
    const size_t rows = nc - n0 < nr ? nc - n0 : nr;
    size_t i = 0;
    if (rows == nr)
      for (; i + 4 <= kk; i += 4)
        for (size_t j = 0; j < nr; j += 4)
          TFF_PACK_4X4(k + (n0 + j) * kk + i, kk, w + i * nr + j, nr);
    tff_f32_gemm_pack_taps(kk, nr, rows, i, k + n0 * kk, w);
  }
}
