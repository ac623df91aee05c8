/* The body of the MR-row and 1-row SIMD f32 kernels, 2 vectors of channels
 * per row (NR = 2·lanes). Before including, define: TFF_V (vector type),
 * TFF_VL (lanes), TFF_VLOAD, TFF_VSTORE (unaligned), TFF_VSET1, TFF_VADD,
 * TFF_VMUL, TFF_VMAX, TFF_VMIN, TFF_F32_MR (rows of the big tile),
 * TFF_F32_GEMM_NAME (MR rows; optional) and TFF_F32_GEMV_NAME (1 row); TFF_VFMA(a, b, c)
 * (a·b + c rounded once) for an ISA that fuses, else the kernel multiplies and
 * adds. Max/min take the bound first so a NaN sum passes through, as
 * tff_f32_clamp does. */
#include "f32-gemm.h"

#ifndef TFF_VFMA
#define TFF_VFMA(a, b, c) TFF_VADD(c, TFF_VMUL(a, b))
#endif

#define TFF_F32_NR (2 * TFF_VL)

/* Stores the first n (< TFF_VL) lanes of v. */
static inline void tff_f32_store_part(float* c, TFF_V v, size_t n) {
  float tmp[TFF_VL];
  TFF_VSTORE(tmp, v);
  for (size_t j = 0; j < n; ++j) c[j] = tmp[j];
}

/* Clamps and stores n channels (n may exceed NR; only H·VL are held). */
static TFF_ALWAYS_INLINE void tff_f32_row_out(float* c, TFF_V v0, TFF_V v1,
                                                                  TFF_V lo, TFF_V hi, size_t n) {
  v0 = TFF_VMIN(hi, TFF_VMAX(lo, v0));
  if (n >= TFF_VL) {
    TFF_VSTORE(c, v0);
    c += TFF_VL;
    n -= TFF_VL;
    if (n == 0) return;
    v0 = TFF_VMIN(hi, TFF_VMAX(lo, v1));
    if (n >= TFF_VL) {
      TFF_VSTORE(c, v0);
      return;
    }
  }
  tff_f32_store_part(c, v0, n);
}

/* One block of NR channels (H = 2), or of its first VL channels only (H = 1,
 * when no more are left: the packed block is full width either way, so w
 * still steps by NR). MR and H are constants after inlining, so the loops
 * over rows unroll and the accumulators live in registers. Returns w past
 * the block. */
#define TFF_UNROLL _Pragma("GCC unroll 8")
static TFF_ALWAYS_INLINE const float* tff_f32_gemm_block(
    const size_t MR, const int H, const float* const* const* ar, size_t a_offset, size_t kc,
    size_t ks, const float* w, float* const* cr, size_t n, TFF_V lo, TFF_V hi) {
  TFF_V acc0[TFF_F32_MR], acc1[TFF_F32_MR];
  TFF_UNROLL
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = TFF_VLOAD(w);
    acc1[i] = H == 2 ? TFF_VLOAD(w + TFF_VL) : acc0[i];
  }
  w += TFF_F32_NR;
  for (size_t t = 0; t < ks; ++t) {
    const float* x[TFF_F32_MR];
    TFF_UNROLL
    for (size_t i = 0; i < MR; ++i) x[i] = (const float*)((const char*)ar[i][t] + a_offset);
    for (size_t k = 0; k < kc; ++k, w += TFF_F32_NR) {
      const TFF_V w0 = TFF_VLOAD(w);
      if (H == 2) {
        const TFF_V w1 = TFF_VLOAD(w + TFF_VL);
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) {
          const TFF_V v = TFF_VSET1(x[i][k]);
          acc0[i] = TFF_VFMA(v, w0, acc0[i]);
          acc1[i] = TFF_VFMA(v, w1, acc1[i]);
        }
      } else {
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) acc0[i] = TFF_VFMA(TFF_VSET1(x[i][k]), w0, acc0[i]);
      }
    }
  }
  /* Highest row first: aliased rows past mr hold the same values. */
  TFF_UNROLL
  for (size_t i = MR; i-- > 0;) tff_f32_row_out(cr[i], acc0[i], acc1[i], lo, hi, n);
  return w;
}

/* MR rows; rows past mr alias row mr-1. */
static TFF_ALWAYS_INLINE void tff_f32_gemm_body(
    const size_t MR, size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
    size_t a_offset, const float* w, float* c, size_t cm_stride,
    const tff_f32_minmax_params* p) {
  const float* const* ar[TFF_F32_MR];
  float* cr[TFF_F32_MR];
  tff_f32_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const TFF_V lo = TFF_VSET1(p->min), hi = TFF_VSET1(p->max);
  for (size_t n0 = 0; n0 < nc; n0 += TFF_F32_NR) {
    const size_t n = nc - n0;
    if (n > TFF_VL)
      w = tff_f32_gemm_block(MR, 2, ar, a_offset, kc, ks, w, cr, n, lo, hi);
    else
      w = tff_f32_gemm_block(MR, 1, ar, a_offset, kc, ks, w, cr, n, lo, hi);
    TFF_UNROLL
    for (size_t i = 0; i < MR; ++i) cr[i] += TFF_F32_NR;
  }
}

#ifdef TFF_F32_GEMM_NAME
void TFF_F32_GEMM_NAME(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                       size_t a_offset, const float* w, float* c, size_t cm_stride,
                       const tff_f32_minmax_params* p) {
  tff_f32_gemm_body(TFF_F32_MR, mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);
}
#endif

/* One row, B whole blocks side by side (B a constant after inlining; the
 * blocks are bs floats apart in w). A row has one chain of adds per vector
 * of channels, so one block (two chains) waits on the add latency most of
 * the time; 2·B chains keep the unit busy: 7x7 layers' lone 49th rows and
 * 1280 -> 1001 FULLY_CONNECTED ran ~4x slower per output than 6-row tiles.
 * Same order per output as a block at a time. Returns w past the blocks. */
static TFF_ALWAYS_INLINE const float* tff_f32_gemv_blocks(const int B, const float* const* a,
                                                          size_t a_offset, size_t kc, size_t ks,
                                                          const float* w, float* c, TFF_V lo,
                                                          TFF_V hi) {
  const size_t bs = TFF_F32_NR * (1 + ks * kc);
  TFF_V acc[8];
  TFF_UNROLL
  for (int b = 0; b < B; ++b) {
    acc[2 * b] = TFF_VLOAD(w + b * bs);
    acc[2 * b + 1] = TFF_VLOAD(w + b * bs + TFF_VL);
  }
  const float* wk = w + TFF_F32_NR;
  for (size_t t = 0; t < ks; ++t) {
    const float* x = (const float*)((const char*)a[t] + a_offset);
    for (size_t k = 0; k < kc; ++k, wk += TFF_F32_NR) {
      const TFF_V v = TFF_VSET1(x[k]);
      TFF_UNROLL
      for (int b = 0; b < B; ++b) {
        acc[2 * b] = TFF_VFMA(v, TFF_VLOAD(wk + b * bs), acc[2 * b]);
        acc[2 * b + 1] = TFF_VFMA(v, TFF_VLOAD(wk + b * bs + TFF_VL), acc[2 * b + 1]);
      }
    }
  }
  TFF_UNROLL
  for (int b = 0; b < B; ++b)
    tff_f32_row_out(c + b * TFF_F32_NR, acc[2 * b], acc[2 * b + 1], lo, hi, TFF_F32_NR);
  return w + B * bs;
}

/* mr is 1: whole blocks 4 at a time, the 1-3 left at once, a partial last
 * block as the MR-row body does it. */
void TFF_F32_GEMV_NAME(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                       size_t a_offset, const float* w, float* c, size_t cm_stride,
                       const tff_f32_minmax_params* p) {
  const TFF_V lo = TFF_VSET1(p->min), hi = TFF_VSET1(p->max);
  for (; nc >= 4 * TFF_F32_NR; nc -= 4 * TFF_F32_NR, c += 4 * TFF_F32_NR)
    w = tff_f32_gemv_blocks(4, a, a_offset, kc, ks, w, c, lo, hi);
  switch (nc / TFF_F32_NR) {
    case 3: w = tff_f32_gemv_blocks(3, a, a_offset, kc, ks, w, c, lo, hi); break;
    case 2: w = tff_f32_gemv_blocks(2, a, a_offset, kc, ks, w, c, lo, hi); break;
    case 1: w = tff_f32_gemv_blocks(1, a, a_offset, kc, ks, w, c, lo, hi); break;
  }
  c += nc / TFF_F32_NR * TFF_F32_NR;
  nc %= TFF_F32_NR;
  if (nc > 0) tff_f32_gemm_body(1, mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);
}
