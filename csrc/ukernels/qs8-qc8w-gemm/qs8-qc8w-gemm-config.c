/* qs8-qc8w-gemm: the kernels this build has, their selection, and the
 * weight packing they share (layout in qs8-qc8w-gemm.h). */
#include "qs8-qc8w-gemm.h"

#include "cpu/cpu.h"

const tff_qs8_qc8w_gemm_config tff_qs8_qc8w_gemm_configs[] = {
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x4__scalar,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x4__scalar", TFF_ISA_SCALAR, 2, 4, 1,
     tff_qs8_qc8w_gemm_pack, 0},
#if TFF_BUILD_SSE41
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_3x4c8__sse41,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_3x4c8__sse41", TFF_ISA_SSE41, 3, 4, 8,
     tff_qs8_qc8w_gemm_pack__sse41, 0},
#endif
#if TFF_BUILD_AVX2
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c8__avx2,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c8__avx2", TFF_ISA_AVX2, 4, 8, 8,
     tff_qs8_qc8w_gemm_pack__sse41, 0},
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__avx2,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__avx2", TFF_ISA_AVX2, 1, 8, 8,
     tff_qs8_qc8w_gemm_pack__sse41, 0},
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_5x16c2__avx2,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_5x16c2__avx2", TFF_ISA_AVX2, 5, 16, 2,
     tff_qs8_qc8w_gemm_pack__sse41, 0, TFF_QS8_C2_XMAX},
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c2__avx2,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c2__avx2", TFF_ISA_AVX2, 1, 16, 2,
     tff_qs8_qc8w_gemm_pack__sse41, 0, TFF_QS8_C2_XMAX},
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx2_sign,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx2_sign", TFF_ISA_AVX2, 1, 16, 4,
     tff_qs8_qc8w_gemm_pack__sse41, 0, TFF_QS8_C4S_XMAX, 1},
#endif
#if TFF_BUILD_AVX512VNNI
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x16c4__avx512vnni,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x16c4__avx512vnni", TFF_ISA_AVX512VNNI, 4, 16, 4,
     tff_qs8_qc8w_gemm_pack__sse41, 128},
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx512vnni,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx512vnni", TFF_ISA_AVX512VNNI, 1, 16, 4,
     tff_qs8_qc8w_gemm_pack__sse41, 128},
#endif
#if TFF_BUILD_NEON
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x8c8__neon,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x8c8__neon", TFF_ISA_NEON, 2, 8, 8,
     tff_qs8_qc8w_gemm_pack, 0},
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__neon,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__neon", TFF_ISA_NEON, 1, 8, 8,
     tff_qs8_qc8w_gemm_pack, 0},
#endif
#if TFF_BUILD_NEONDOT
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c4__neondot,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c4__neondot", TFF_ISA_NEONDOT, 4, 8, 4,
     tff_qs8_qc8w_gemm_pack, 0},
    {tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c4__neondot,
     "tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c4__neondot", TFF_ISA_NEONDOT, 1, 8, 4,
     tff_qs8_qc8w_gemm_pack, 0},
#endif
};
const int tff_qs8_qc8w_gemm_num_configs =
    (int)(sizeof(tff_qs8_qc8w_gemm_configs) / sizeof(tff_qs8_qc8w_gemm_configs[0]));

static size_t round_up(size_t x, size_t q) { return (x + q - 1) / q * q; }

/* Among the kernels of one ISA whose xmax the shape fits: one row takes a
 * 1-row kernel, the sign step (wsym) first, then x-widening (xmax); more
 * rows take the x-widening kernel, else the tallest. 5x16c2 beats 4x8c8 on
 * every int8 1x1 and 3x3 conv of the shared models, 1.3-1.8x; 1x64c2 (its
 * packing, nr 16) beats 1x8c8 on okay_nabu's GEMVs, 1.5-2x, and a 1x16c2 of
 * 5x16c2's body, 1.2-1.4x; 1x64c4_sign beats 1x64c2 by 4-6% (bench/
 * bench_ukernels.py, AMD Zen 3). */
static int rank(const tff_qs8_qc8w_gemm_config* c, size_t m) {
  if (m == 1) return (c->mr == 1) * 4 + c->wsym * 2 + (c->xmax != 0);
  return (c->xmax != 0) * 256 + (c->mr > 1) * c->mr;
}

const tff_qs8_qc8w_gemm_config* tff_qs8_qc8w_gemm_select(uint32_t isa_mask, size_t m,
                                                         size_t ks, size_t kc, int wsym) {
  const tff_qs8_qc8w_gemm_config* best = &tff_qs8_qc8w_gemm_configs[0];
  for (int i = 1; i < tff_qs8_qc8w_gemm_num_configs; ++i) {
    const tff_qs8_qc8w_gemm_config* c = &tff_qs8_qc8w_gemm_configs[i];
    if ((isa_mask & c->isa) != c->isa || c->isa < best->isa) continue;
    if (c->xmax != 0 && ks * round_up(kc, c->kr) > c->xmax) continue;
    if (c->wsym && !wsym) continue;
    if (c->isa > best->isa || rank(c, m) > rank(best, m)) best = c;
  }
  return best;
}

/* Bytes of one block of nr channels. */
static size_t block_size(size_t ks, size_t kc, size_t nr, size_t kr) {
  return nr * sizeof(int32_t) + ks * round_up(kc, kr) * nr + nr * sizeof(float);
}

size_t tff_qs8_qc8w_gemm_packed_size(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr) {
  return round_up(nc, nr) / nr * block_size(ks, kc, nr, kr);
}

/* One channel's kc taps to chunks of kr bytes, `step` apart (a partial last
 * chunk lands on zeros). The full chunks of the kernels' KR (8, 4, 2, 1) are
 * one fixed-size move each, chosen once per row, not per chunk. */
static inline void copy_row(int8_t* d, const int8_t* s, size_t kc, size_t kr, size_t step) {
  size_t k0 = 0;
  switch (kr) {
    case 8: for (; kc - k0 >= 8; k0 += 8, d += step) memcpy(d, s + k0, 8); break;
    case 4: for (; kc - k0 >= 4; k0 += 4, d += step) memcpy(d, s + k0, 4); break;
    case 2: for (; kc - k0 >= 2; k0 += 2, d += step) memcpy(d, s + k0, 2); break;
    case 1: for (; k0 < kc; ++k0, d += step) *d = s[k0]; break;
  }
  for (; k0 < kc; k0 += kr, d += step) memcpy(d, s + k0, kc - k0 < kr ? kc - k0 : kr);
}

/* Per block: zero the weights when there is padding (past kc or nc), then
 * per tap the columns `tiles` moves (full blocks only) and each channel's
 * other taps in chunks of KR, read in order. */
void tff_qs8_qc8w_gemm_pack_with(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                 const int8_t* k, const float* scale, int per_channel,
                                 void* packed, tff_qs8_qc8w_gemm_pack_tiles_fn tiles) {
  const size_t kcp = round_up(kc, kr), stride = ks * kc;
  char* blk = (char*)packed;
  for (size_t n0 = 0; n0 < nc; n0 += nr, blk += block_size(ks, kc, nr, kr)) {
    int8_t* w = (int8_t*)(blk + nr * sizeof(int32_t));
    const size_t rows = nc - n0 < nr ? nc - n0 : nr;
    if (rows < nr || kcp != kc) memset(w, 0, ks * kcp * nr);
    for (size_t t = 0; t < ks; ++t) {
      int8_t* wt = w + t * kcp * nr;
      const int8_t* src = k + n0 * stride + t * kc;
      const size_t k0 = tiles && rows == nr ? tiles(wt, src, stride, kc, nr, kr) : 0;
      for (size_t j = 0; j < rows; ++j)
        copy_row(wt + k0 * nr + j * kr, src + j * stride + k0, kc - k0, kr, nr * kr);
    }
    w += ks * kcp * nr;
    for (size_t j = 0; j < nr; ++j) {
      const float s = j < rows ? scale[per_channel ? n0 + j : 0] : 0.0f;
      memcpy(w + j * sizeof(float), &s, sizeof(float));
    }
  }
}

void tff_qs8_qc8w_gemm_pack(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                            const int8_t* k, const float* scale, int per_channel, void* packed) {
  tff_qs8_qc8w_gemm_pack_with(nc, ks, kc, nr, kr, k, scale, per_channel, packed, NULL);
}

void tff_qs8_qc8w_gemm_pack_init(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                 const int32_t* init, void* packed) {
  char* blk = (char*)packed;
  for (size_t n0 = 0; n0 < nc; n0 += nr, blk += block_size(ks, kc, nr, kr)) {
    for (size_t j = 0; j < nr; ++j) {
      const int32_t v = n0 + j < nc ? init[n0 + j] : 0;
      memcpy(blk + j * sizeof(int32_t), &v, sizeof(int32_t));
    }
  }
}
