/* qs8-packw: the kernels this build has, and their selection. */
#include "qs8-packw.h"

const tff_qs8_packw_config tff_qs8_packw_configs[] = {
    {tff_qs8_packw_ukernel_x16__scalar, "tff_qs8_packw_ukernel_x16__scalar", TFF_ISA_SCALAR},
#if TFF_BUILD_SSE41
    {tff_qs8_packw_ukernel_x16__sse41, "tff_qs8_packw_ukernel_x16__sse41", TFF_ISA_SSE41},
#endif
#if TFF_BUILD_AVX2
    {tff_qs8_packw_ukernel_x16__avx2, "tff_qs8_packw_ukernel_x16__avx2", TFF_ISA_AVX2},
#endif
#if TFF_BUILD_NEON
    {tff_qs8_packw_ukernel_x16__neon, "tff_qs8_packw_ukernel_x16__neon", TFF_ISA_NEON},
#endif
};
TFF_DEFINE_SELECT(tff_qs8_packw)
