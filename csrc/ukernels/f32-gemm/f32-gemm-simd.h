/* The body of the 4-row and 1-row SIMD f32 kernels, 2 vectors of channels per row
 * (NR = 2·lanes). Before including, define: TFF_V (vector type), TFF_VL
 * (lanes), TFF_VLOAD, TFF_VSTORE (unaligned), TFF_VSET1, TFF_VADD, TFF_VMUL,
 * TFF_VMAX, TFF_VMIN, TFF_F32_GEMM_NAME (4 rows) and TFF_F32_GEMV_NAME (1 row). Max/min take the bound first
 * so a NaN sum passes through, as tff_f32_clamp does. */
#include <string.h>

#include "f32-gemm.h"

#define TFF_F32_NR (2 * TFF_VL)

static inline void tff_f32_row_out(float* c, TFF_V v0, TFF_V v1, TFF_V lo, TFF_V hi, size_t n) {
  v0 = TFF_VMIN(hi, TFF_VMAX(lo, v0));
  v1 = TFF_VMIN(hi, TFF_VMAX(lo, v1));
  if (n >= TFF_F32_NR) {
    TFF_VSTORE(c, v0);
    TFF_VSTORE(c + TFF_VL, v1);
    return;
  }
  float tmp[TFF_F32_NR];
  TFF_VSTORE(tmp, v0);
  TFF_VSTORE(tmp + TFF_VL, v1);
  memcpy(c, tmp, n * sizeof(float));
}

/* MR rows (a constant after inlining; the loops over rows unroll so the
 * accumulators live in registers); rows past mr alias row mr-1. */
#define TFF_UNROLL _Pragma("GCC unroll 4")
static inline __attribute__((always_inline)) void tff_f32_gemm_body(
    const size_t MR, size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
    size_t a_offset, const float* w, float* c, size_t cm_stride,
    const tff_f32_minmax_params* p) {
  const float* const* ar[4];
  float* cr[4];
  tff_f32_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const TFF_V lo = TFF_VSET1(p->min), hi = TFF_VSET1(p->max);
  for (size_t n0 = 0; n0 < nc; n0 += TFF_F32_NR) {
    TFF_V acc0[4], acc1[4];
    TFF_UNROLL
    for (size_t i = 0; i < MR; ++i) acc0[i] = TFF_VLOAD(w), acc1[i] = TFF_VLOAD(w + TFF_VL);
    w += TFF_F32_NR;
    for (size_t t = 0; t < ks; ++t) {
      const float* x[4];
      TFF_UNROLL
      for (size_t i = 0; i < MR; ++i) x[i] = (const float*)((const char*)ar[i][t] + a_offset);
      for (size_t k = 0; k < kc; ++k, w += TFF_F32_NR) {
        const TFF_V w0 = TFF_VLOAD(w), w1 = TFF_VLOAD(w + TFF_VL);
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) {
          const TFF_V v = TFF_VSET1(x[i][k]);
          acc0[i] = TFF_VADD(acc0[i], TFF_VMUL(v, w0));
          acc1[i] = TFF_VADD(acc1[i], TFF_VMUL(v, w1));
        }
      }
    }
    /* Highest row first: aliased rows past mr hold the same values. */
    TFF_UNROLL
    for (size_t i = MR; i-- > 0;) tff_f32_row_out(cr[i] + n0, acc0[i], acc1[i], lo, hi, nc - n0);
  }
}

void TFF_F32_GEMM_NAME(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                       size_t a_offset, const float* w, float* c, size_t cm_stride,
                       const tff_f32_minmax_params* p) {
  tff_f32_gemm_body(4, mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);
}

void TFF_F32_GEMV_NAME(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                       size_t a_offset, const float* w, float* c, size_t cm_stride,
                       const tff_f32_minmax_params* p) {
  tff_f32_gemm_body(1, mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);
}
