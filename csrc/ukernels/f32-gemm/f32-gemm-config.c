/* f32-gemm: the kernels this build has, their selection and packing. */
#include "f32-gemm.h"

#include "cpu/cpu.h"

const tff_f32_gemm_config tff_f32_gemm_configs[] = {
    {tff_f32_gemm_minmax_ukernel_2x4__scalar, "tff_f32_gemm_minmax_ukernel_2x4__scalar",
     TFF_ISA_SCALAR, 2, 4, tff_f32_gemm_pack},
#if TFF_BUILD_SSE41
    {tff_f32_gemm_minmax_ukernel_4x8__sse41, "tff_f32_gemm_minmax_ukernel_4x8__sse41",
     TFF_ISA_SSE41, 4, 8, tff_f32_gemm_pack__sse41},
    {tff_f32_gemm_minmax_ukernel_1x8__sse41, "tff_f32_gemm_minmax_ukernel_1x8__sse41",
     TFF_ISA_SSE41, 1, 8, tff_f32_gemm_pack__sse41},
#endif
#if TFF_BUILD_AVX2
    {tff_f32_gemm_minmax_ukernel_6x16__avx2, "tff_f32_gemm_minmax_ukernel_6x16__avx2",
     TFF_ISA_AVX2, 6, 16, tff_f32_gemm_pack__sse41, 1},
    {tff_f32_gemm_minmax_ukernel_1x16__avx2, "tff_f32_gemm_minmax_ukernel_1x16__avx2",
     TFF_ISA_AVX2, 1, 16, tff_f32_gemm_pack__sse41, 1},
    {tff_f32_gemm_minmax_ukernel_4x24__avx2, "tff_f32_gemm_minmax_ukernel_4x24__avx2",
     TFF_ISA_AVX2, 4, 24, tff_f32_gemm_pack__sse41, 1},
#endif
#if TFF_BUILD_NEON
    {tff_f32_gemm_minmax_ukernel_4x8__neon, "tff_f32_gemm_minmax_ukernel_4x8__neon",
     TFF_ISA_NEON, 4, 8, tff_f32_gemm_pack__neon},
    {tff_f32_gemm_minmax_ukernel_1x8__neon, "tff_f32_gemm_minmax_ukernel_1x8__neon",
     TFF_ISA_NEON, 1, 8, tff_f32_gemm_pack__neon},
#endif
};
const int tff_f32_gemm_num_configs =
    (int)(sizeof(tff_f32_gemm_configs) / sizeof(tff_f32_gemm_configs[0]));

const tff_f32_gemm_config tff_f32_gemm_fma_twin = {
    tff_f32_gemm_minmax_ukernel_2x4__scalar_fma, "tff_f32_gemm_minmax_ukernel_2x4__scalar_fma",
    TFF_ISA_SCALAR, 2, 4, tff_f32_gemm_pack, 1};

const tff_f32_gemm_config* tff_f32_gemm_select(uint32_t isa_mask, size_t m, size_t nc) {
  const int want24 = m > 1 && nc % 24 == 0 && nc % 16 != 0;
  const tff_f32_gemm_config* best = &tff_f32_gemm_configs[0];
  for (int i = 1; i < tff_f32_gemm_num_configs; ++i) {
    const tff_f32_gemm_config* c = &tff_f32_gemm_configs[i];
    if ((isa_mask & c->isa) != c->isa || c->isa < best->isa) continue;
    const int is24 = c->nr == 24;
    const int fits = m == 1                   ? c->mr < best->mr
                     : is24 != (best->nr == 24) ? is24 == want24
                                              : c->mr > best->mr;
    if (c->isa > best->isa || fits) best = c;
  }
  return best;
}

size_t tff_f32_gemm_packed_size(size_t nc, size_t ks, size_t kc, size_t nr) {
  return (nc + nr - 1) / nr * nr * (1 + ks * kc);
}

void tff_f32_gemm_pack(size_t nc, size_t ks, size_t kc, size_t nr, const float* k,
                       float* packed) {
  const size_t kk = ks * kc;
  for (size_t n0 = 0; n0 < nc; n0 += nr)
    tff_f32_gemm_pack_taps(kk, nr, nc - n0 < nr ? nc - n0 : nr, 0, k + n0 * kk,
                           packed + n0 * (1 + kk) + nr);
}

void tff_f32_gemm_pack_bias(size_t nc, size_t ks, size_t kc, size_t nr, const float* bias,
                            float* packed) {
  for (size_t n0 = 0; n0 < nc; n0 += nr) {
    float* b = packed + n0 * (1 + ks * kc);
    for (size_t j = 0; j < nr; ++j) b[j] = bias && n0 + j < nc ? bias[n0 + j] : 0.0f;
  }
}
