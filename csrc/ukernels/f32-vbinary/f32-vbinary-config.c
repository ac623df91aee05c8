/* f32-vbinary: the ISAs this build has, and their selection. */
#include "f32-vbinary.h"

#include "ukernels/select.h"

#define TFF_F32_VBINARY_CONFIG(ISA, BIT)                                                   \
  {BIT,                                                                                    \
   {tff_f32_vadd_minmax_ukernel__##ISA, tff_f32_vsub_minmax_ukernel__##ISA,                \
    tff_f32_vmul_minmax_ukernel__##ISA, tff_f32_vaddc_minmax_ukernel__##ISA,               \
    tff_f32_vsubc_minmax_ukernel__##ISA, tff_f32_vmulc_minmax_ukernel__##ISA,              \
    tff_f32_vrsubc_minmax_ukernel__##ISA},                                                 \
   {"tff_f32_vadd_minmax_ukernel__" #ISA, "tff_f32_vsub_minmax_ukernel__" #ISA,            \
    "tff_f32_vmul_minmax_ukernel__" #ISA, "tff_f32_vaddc_minmax_ukernel__" #ISA,           \
    "tff_f32_vsubc_minmax_ukernel__" #ISA, "tff_f32_vmulc_minmax_ukernel__" #ISA,          \
    "tff_f32_vrsubc_minmax_ukernel__" #ISA}}

const tff_f32_vbinary_config tff_f32_vbinary_configs[] = {
    TFF_F32_VBINARY_CONFIG(scalar, TFF_ISA_SCALAR),
#if TFF_BUILD_SSE41
    TFF_F32_VBINARY_CONFIG(sse41, TFF_ISA_SSE41),
#endif
#if TFF_BUILD_AVX2
    TFF_F32_VBINARY_CONFIG(avx2, TFF_ISA_AVX2),
#endif
#if TFF_BUILD_NEON
    TFF_F32_VBINARY_CONFIG(neon, TFF_ISA_NEON),
#endif
};
TFF_DEFINE_SELECT(tff_f32_vbinary)
