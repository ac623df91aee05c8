/* The scalar twins, the oracles of the SIMD kernels: one that multiplies and
 * adds (each rounded), one that fuses them with fmaf (rounded once), in the
 * same order. */
#include <math.h>

#include "f32-gemm.h"

static TFF_ALWAYS_INLINE void gemm_2x4(int fused, size_t mr, size_t nc, size_t kc, size_t ks,
                                       const float* const* a, size_t a_offset, const float* w,
                                       float* c, size_t cm_stride,
                                       const tff_f32_minmax_params* p) {
  const float* const* a1 = mr > 1 ? a + ks : a;
  float* c1 = mr > 1 ? (float*)((char*)c + cm_stride) : c;
  for (size_t n0 = 0; n0 < nc; n0 += 4) {
    float acc0[4], acc1[4];
    for (int j = 0; j < 4; ++j) acc0[j] = acc1[j] = w[j];
    w += 4;
    for (size_t t = 0; t < ks; ++t) {
      const float* x0 = (const float*)((const char*)a[t] + a_offset);
      const float* x1 = (const float*)((const char*)a1[t] + a_offset);
      for (size_t k = 0; k < kc; ++k, w += 4) {
        for (int j = 0; j < 4; ++j) {
          acc0[j] = fused ? fmaf(x0[k], w[j], acc0[j]) : acc0[j] + x0[k] * w[j];
          acc1[j] = fused ? fmaf(x1[k], w[j], acc1[j]) : acc1[j] + x1[k] * w[j];
        }
      }
    }
    const size_t n = nc - n0 < 4 ? nc - n0 : 4;
    for (size_t j = 0; j < n; ++j) {
      c1[n0 + j] = tff_f32_clamp(acc1[j], p->min, p->max);
      c[n0 + j] = tff_f32_clamp(acc0[j], p->min, p->max);
    }
  }
}

void tff_f32_gemm_minmax_ukernel_2x4__scalar(size_t mr, size_t nc, size_t kc, size_t ks,
                                             const float* const* a, size_t a_offset,
                                             const float* w, float* c, size_t cm_stride,
                                             const tff_f32_minmax_params* p) {
  gemm_2x4(0, mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);
}

void tff_f32_gemm_minmax_ukernel_2x4__scalar_fma(size_t mr, size_t nc, size_t kc, size_t ks,
                                                 const float* const* a, size_t a_offset,
                                                 const float* w, float* c, size_t cm_stride,
                                                 const tff_f32_minmax_params* p) {
  gemm_2x4(1, mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);
}
