/* qs8-rsum: the kernels this build has, and their selection. */
#include "qs8-rsum.h"

const tff_qs8_rsum_config tff_qs8_rsum_configs[] = {
    TFF_SELECT_ENTRY(tff_qs8_rsum, scalar, TFF_ISA_SCALAR)
    TFF_SELECT_SSE41(tff_qs8_rsum)
    TFF_SELECT_NEON(tff_qs8_rsum)};
TFF_DEFINE_SELECT(tff_qs8_rsum)
