/* f16-f32-vcvt: the kernels this build has, and their selection (no sse41
 * kernel: VCVTPH2PS is a VEX instruction). */
#include "f16-f32-vcvt.h"

const tff_f16_f32_vcvt_config tff_f16_f32_vcvt_configs[] = {
    TFF_SELECT_ENTRY(tff_f16_f32_vcvt, scalar, TFF_ISA_SCALAR)
    TFF_SELECT_AVX2(tff_f16_f32_vcvt)
    TFF_SELECT_NEON(tff_f16_f32_vcvt)};
TFF_DEFINE_SELECT(tff_f16_f32_vcvt)
