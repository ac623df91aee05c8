/* gemmlowp's inverse square root as TFLite's GetInvSqrtQuantizedMultiplierExp
 * (RSQRT int8, the integer LSTM's layer norm). */
#ifndef TFLITE_FAST_OPS_INV_SQRT_H_
#define TFLITE_FAST_OPS_INV_SQRT_H_

#include "kernel_util.h"

/* gemmlowp SaturatingRoundingMultiplyByPOT<e> for 0 < e < 31: x·2^e, or the
 * int32 extreme when |x| exceeds 2^(31−e) − 1. */
static inline int32_t tff_sat_shl(int32_t x, int e) {
  const int32_t thr = (int32_t)((1u << (31 - e)) - 1);
  if (x > thr) return INT32_MAX;
  if (x < -thr) return INT32_MIN;
  return (int32_t)((uint32_t)x << e);
}

/* GetInvSqrtQuantizedMultiplierExp(v, kReverseShift = −1): 1/sqrt(v) as
 * m·2^shift with m in Q0.31 (shift is a left shift, as MBQM takes it). */
static inline void tff_inv_sqrt(int32_t v, int32_t* m, int* shift) {
  if (v <= 1) {
    *m = INT32_MAX;
    *shift = 0;
    return;
  }
  int s = 11;
  while (v >= (1 << 29)) {
    v /= 4;
    ++s;
  }
  const int pairs = (__builtin_clz((uint32_t)v) - 1) / 2 - 1;
  s -= pairs;
  v <<= 2 * pairs;
  /* Q3.28 fixed point: raw r means r/2^28. */
  const int32_t half_v = tff_rdbpot(v >> 1, 1);
  const int32_t three_halves = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = tff_sat_shl(tff_srdhm(tff_srdhm(x, x), x), 6);
    const int32_t d = (int32_t)((uint32_t)tff_srdhm(three_halves, x) -
                                (uint32_t)tff_srdhm(half_v, x3));
    x = tff_sat_shl(d, 3);
  }
  x = tff_srdhm(x, 1518500250); /* √2/2 in Q0.31 */
  if (s < 0) {
    x = (int32_t)((uint32_t)x << -s);
    s = 0;
  }
  *m = x;
  *shift = -s;
}

#endif /* TFLITE_FAST_OPS_INV_SQRT_H_ */
