/* The scalar twin, the oracle of the SIMD kernels (KR = 1). */
#include <math.h>

#include "qs8-qc8w-gemm.h"

/* XNNPACK fp32 requantization; the volatile keeps the product a float32
 * rounding of its own (no FMA), as in every SIMD kernel. */
static inline int8_t requant(uint32_t acc, float scale, const tff_qs8_minmax_fp32_params* p) {
  volatile float v = (float)(int32_t)acc * scale;
  float f = v;
  f = f < p->min_less_zp ? p->min_less_zp : f;
  f = f > p->max_less_zp ? p->max_less_zp : f;
  return (int8_t)((int32_t)lrintf(f) + p->zp);
}

void tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x4__scalar(size_t mr, size_t nc, size_t kc,
                                                        size_t ks, const int8_t* const* a,
                                                        size_t a_offset, const void* w,
                                                        int8_t* c, size_t cm_stride,
                                                        const tff_qs8_minmax_fp32_params* p) {
  const int8_t* const* a1 = mr > 1 ? a + ks : a;
  int8_t* c1 = mr > 1 ? c + cm_stride : c;
  const char* blk = (const char*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 4) {
    const int32_t* init = (const int32_t*)blk;
    const int8_t* pw = (const int8_t*)(blk + 4 * sizeof(int32_t));
    uint32_t acc0[4], acc1[4]; /* uint32: wrap-around is defined */
    for (int j = 0; j < 4; ++j) acc0[j] = acc1[j] = (uint32_t)init[j];
    for (size_t t = 0; t < ks; ++t) {
      const int8_t* x0 = a[t] + a_offset;
      const int8_t* x1 = a1[t] + a_offset;
      for (size_t k = 0; k < kc; ++k, pw += 4) {
        const int32_t v0 = x0[k], v1 = x1[k];
        for (int j = 0; j < 4; ++j) {
          acc0[j] += (uint32_t)(v0 * pw[j]);
          acc1[j] += (uint32_t)(v1 * pw[j]);
        }
      }
    }
    const float* scale = (const float*)pw;
    const size_t n = nc - n0 < 4 ? nc - n0 : 4;
    for (size_t j = 0; j < n; ++j) {
      c1[n0 + j] = requant(acc1[j], scale[j], p); /* row 1 first: it may alias row 0 */
      c[n0 + j] = requant(acc0[j], scale[j], p);
    }
    blk = (const char*)(scale + 4);
  }
}
