/* qs8-requantization: the kernels this build has, and their selection. */
#include "qs8-requantization.h"

TFF_DEFINE_CONFIGS(tff_qs8_requantize_fp32)
TFF_DEFINE_CONFIGS(tff_qs8_requantize_gemmlowp)

/* The double scheme's NEON kernel is aarch64 only (select.h). */
const tff_qs8_requantize_double_config tff_qs8_requantize_double_configs[] = {
    TFF_SELECT_ENTRY(tff_qs8_requantize_double, scalar, TFF_ISA_SCALAR)
    TFF_SELECT_SSE41(tff_qs8_requantize_double) TFF_SELECT_AVX2(tff_qs8_requantize_double)
    TFF_SELECT_NEON64(tff_qs8_requantize_double)};
TFF_DEFINE_SELECT(tff_qs8_requantize_double)
