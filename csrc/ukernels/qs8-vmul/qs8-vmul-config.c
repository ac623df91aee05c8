/* qs8-vmul: the ISAs this build has, and their selection. */
#include "qs8-vmul.h"

#include "ukernels/select.h"

#define TFF_QS8_VMUL_CONFIG(ISA, BIT)                                           \
  {BIT, tff_qs8_vmul_minmax_fp32_ukernel__##ISA, tff_qs8_vmulc_minmax_fp32_ukernel__##ISA, \
   "tff_qs8_vmul_minmax_fp32_ukernel__" #ISA, "tff_qs8_vmulc_minmax_fp32_ukernel__" #ISA}

const tff_qs8_vmul_config tff_qs8_vmul_configs[] = {
    TFF_QS8_VMUL_CONFIG(scalar, TFF_ISA_SCALAR),
#if TFF_BUILD_SSE41
    TFF_QS8_VMUL_CONFIG(sse41, TFF_ISA_SSE41),
#endif
#if TFF_BUILD_AVX2
    TFF_QS8_VMUL_CONFIG(avx2, TFF_ISA_AVX2),
#endif
#if TFF_BUILD_NEON
    TFF_QS8_VMUL_CONFIG(neon, TFF_ISA_NEON),
#endif
};
TFF_DEFINE_SELECT(tff_qs8_vmul)
