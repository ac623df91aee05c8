/* qs8-requantization: the kernels this build has, and their selection. */
#include "qs8-requantization.h"

TFF_DEFINE_CONFIGS(tff_qs8_requantize_fp32)
TFF_DEFINE_CONFIGS(tff_qs8_requantize_gemmlowp)

/* armv7 NEON has no float64 vectors: the double scheme keeps its scalar
 * twin there (qs8-requantization-neon.c defines no double kernel). */
#if defined(__aarch64__)
#define TFF_DOUBLE_NEON(P) TFF_SELECT_NEON(P)
#else
#define TFF_DOUBLE_NEON(P)
#endif
const tff_qs8_requantize_double_config tff_qs8_requantize_double_configs[] = {
    TFF_SELECT_ENTRY(tff_qs8_requantize_double, scalar, TFF_ISA_SCALAR)
    TFF_SELECT_SSE41(tff_qs8_requantize_double) TFF_SELECT_AVX2(tff_qs8_requantize_double)
    TFF_DOUBLE_NEON(tff_qs8_requantize_double)};
TFF_DEFINE_SELECT(tff_qs8_requantize_double)
