/* gemmlowp fixed-point pieces shared by SOFTMAX (int8) and DIV (quantized). */
#ifndef TFLITE_FAST_OPS_FIXED_POINT_H_
#define TFLITE_FAST_OPS_FIXED_POINT_H_

#include "kernel_util.h"

/* gemmlowp's saturating multiply by 2^k (k > 0) of a Q-format raw value. */
static inline int32_t tff_sat_shl(int32_t v, int k) {
  const int32_t limit = (int32_t)((1u << (31 - k)) - 1);
  return v > limit ? INT32_MAX : (v < -limit ? INT32_MIN : (int32_t)((uint32_t)v << k));
}

/* TFLite's GetReciprocal: for x > 0 with `digits` integer bits, a Q0.31 R
 * with 1/x = R·2^−bits; gemmlowp one_over_one_plus_x_for_x_in_0_1 does
 * 1/(1+f) for x = 2^(digits−h)·(1+f), h = clz(x): three Newton steps from
 * 48/17 − 32/17·(1+f)/2. */
static inline int32_t tff_reciprocal(int32_t x, int digits, int* bits) {
  int h = 0;
  while (!(((uint32_t)x << h) & 0x80000000u)) ++h;
  *bits = digits - h;
  const int32_t f = (int32_t)(((uint32_t)x << h) - (1u << 31));
  const int32_t half_den = (int32_t)(((int64_t)f + INT32_MAX + 1) / 2); /* (1+f)/2 */
  int32_t r = 1515870810 + tff_srdhm(half_den, -1010580540);          /* Q2.29 */
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus = (1 << 29) - tff_srdhm(half_den, r);
    r += tff_sat_shl(tff_srdhm(r, one_minus), 2);
  }
  return tff_sat_shl(r, 1);
}

#endif /* TFLITE_FAST_OPS_FIXED_POINT_H_ */
