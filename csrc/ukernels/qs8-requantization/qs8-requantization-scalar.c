/* qs8-requantization scalar twin: the element functions of the family
 * header over every channel; the oracle of the SIMD kernels. */
#include "qs8-requantization.h"

void tff_qs8_requantize_fp32_ukernel__scalar(size_t n, const int32_t* acc, int8_t* out,
                                             const tff_qs8_requantize_fp32_params* p) {
  tff_qs8_requantize_fp32_range(0, n, acc, out, p);
}

void tff_qs8_requantize_gemmlowp_ukernel__scalar(size_t n, const int32_t* acc, int8_t* out,
                                                 const tff_qs8_requantize_gemmlowp_params* p) {
  tff_qs8_requantize_gemmlowp_range(0, n, acc, out, p);
}

void tff_qs8_requantize_double_ukernel__scalar(size_t n, const int32_t* acc, int8_t* out,
                                               const tff_qs8_requantize_double_params* p) {
  tff_qs8_requantize_double_range(0, n, acc, out, p);
}
