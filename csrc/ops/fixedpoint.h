/* gemmlowp fixed point (fixedpoint.h) as TFLite's SOFTMAX, LOG_SOFTMAX,
 * RSQRT and L2_NORMALIZATION kernels use it, on raw int32 values: a Qm.n value v is v·2^-n
 * with m + n = 31. Products are tff_srdhm (integer bits add up); sums of
 * values of one format are plain (wrapping) int32 additions. */
#ifndef TFLITE_FAST_OPS_FIXEDPOINT_H_
#define TFLITE_FAST_OPS_FIXEDPOINT_H_

#include "kernel_util.h"

/* SaturatingRoundingMultiplyByPOT: v·2^k (k >= 0), saturating. */
static inline int32_t tff_fp_sat_shl(int32_t v, int k) {
  const int32_t limit = (int32_t)((1u << (31 - k)) - 1);
  return v > limit ? INT32_MAX : (v < -limit ? INT32_MIN : (int32_t)((uint32_t)v << k));
}

static inline int32_t tff_fp_add(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}

/* exp(a) for a in [-1/4, 0), Q0.31: Taylor series around -1/8 to degree 4. */
static inline int32_t tff_fp_exp_quarter(int32_t a) {
  const int32_t exp_m1_8 = 1895147668, one_third = 715827883;
  const int32_t x = a + (1 << 28);
  const int32_t x2 = tff_srdhm(x, x), x3 = tff_srdhm(x2, x), x4 = tff_srdhm(x2, x2);
  const int32_t poly = tff_rdbpot(tff_srdhm(tff_rdbpot(x4, 2) + x3, one_third) + x2, 1);
  return exp_m1_8 + tff_srdhm(exp_m1_8, x + poly);
}

/* exp_on_negative_values: exp(a) for a <= 0 in Q5.26, result Q0.31: exp of
 * (a mod 1/4) - 1/4 times exp(-2^k) for each bit k = -2..4 of the remaining
 * multiple of 1/4. */
static inline int32_t tff_fp_exp_negative(int32_t a) {
  static const int32_t exp_m2k[7] = {1672461947, 1302514674, 790015084, 290630308,
                                     39332535,   720401,     242};
  const int32_t quarter = 1 << 24;
  const int32_t r = (a & (quarter - 1)) - quarter;
  const int32_t rest = r - a;
  int32_t e = tff_fp_exp_quarter(r * 32); /* Q5.26 -> Q0.31, exact for |r| <= 1/4 */
  for (int k = 0; k < 7; ++k) {
    if (rest & (1 << (24 + k))) e = tff_srdhm(e, exp_m2k[k]);
  }
  return a == 0 ? INT32_MAX : e;
}

/* one_over_one_plus_x_for_x_in_0_1: 1/(1+x), x and result Q0.31, by three
 * Newton-Raphson steps in Q2.29 from 48/17 - 32/17·(1+x)/2. */
static inline int32_t tff_fp_one_over_one_plus_x(int32_t x) {
  const int64_t s = (int64_t)x + INT32_MAX; /* RoundingHalfSum(x, 1) */
  const int32_t half_den = (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
  int32_t r = 1515870810 + tff_srdhm(half_den, -1010580540);
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus = (1 << 29) - tff_srdhm(half_den, r);
    r += tff_fp_sat_shl(tff_srdhm(r, one_minus), 2);
  }
  return tff_fp_sat_shl(r, 1);
}

/* TFLite's GetReciprocal: for x > 0 with `digits` integer bits, a Q0.31 R
 * with 1/x = R·2^−bits, from 1/(1+f) where x = 2^(digits−h)·(1+f), h = clz(x). */
static inline int32_t tff_reciprocal(int32_t x, int digits, int* bits) {
  int h = 0;
  while (!(((uint32_t)x << h) & 0x80000000u)) ++h;
  *bits = digits - h;
  return tff_fp_one_over_one_plus_x((int32_t)(((uint32_t)x << h) - (1u << 31)));
}

/* Saturating int32 a + b and a - b (TFLite's SaturatingAddNonGemmlowp, SaturatingSub). */
static inline int32_t tff_fp_sat_add(int64_t a, int64_t b) {
  const int64_t s = a + b;
  return s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : (int32_t)s);
}

/* TFLite's log_x_for_x_greater_than_or_equal_to_1: log(x) of x >= 1 in
 * Q(in_bits), result in Q(out_bits); accumulated in Q(out_bits + 1). x is
 * normalised to r in [sqrt(1/2), 1) times 2^z twice (directly and after a
 * sqrt(1/2) factor), the pair with the smaller r kept; log(r) comes from a
 * rational approximation around 2^(-1/4). */
static inline int32_t tff_fp_log_ge1(int32_t x, int in_bits, int out_bits) {
  /* Q0.31 constants: ln 2, 2^(-1/4), 2^(-1/2), and the four coefficients of
   * the rational approximation of ln(m) for m near 2^(-1/4). */
  const int32_t ln2 = 1488522236, root4_half = 1805811301, root2_half = 1518500250;
  const int32_t c_num = 117049297, c_den2 = 127690142, c_den1 = 1057819769, c_den0 = 638450708;
  const int acc_bits = out_bits + 1;
  const int32_t quarter = tff_rdbpot(536870912, acc_bits); /* 1/4 in Q(acc_bits) */
  /* Candidate 1: m1 = x normalised (top bit at 30) times 2^(-1/2), doubled. */
  const int lz1 = x ? tff_clz32((uint32_t)x) : 32;
  const int32_t m1 = tff_fp_sat_shl(tff_srdhm(tff_fp_sat_shl(x, lz1 - 1), root2_half), 1);
  const int32_t e1 = tff_fp_sat_add(tff_fp_sat_shl(in_bits - lz1, 31 - acc_bits), quarter);
  /* Candidate 2: x normalised after scaling by 2^(-1/2). */
  const int32_t x_scaled = tff_srdhm(x, root2_half);
  const int lz2 = (x_scaled ? tff_clz32((uint32_t)x_scaled) : 32) - 1;
  const int32_t m2 = tff_fp_sat_shl(x, lz2);
  const int32_t e2 =
      tff_fp_sat_add(tff_fp_sat_shl(in_bits - lz2, 31 - acc_bits), -(int64_t)quarter);
  /* The smaller mantissa is the one nearer 2^(-1/4); its exponent term wins. */
  const int32_t m = m1 < m2 ? m1 : m2;
  const int32_t e = e1 > e2 ? e1 : e2;
  const int64_t mid2 = (int64_t)m + root4_half;
  const int32_t mid = (int32_t)((mid2 + (mid2 >= 0 ? 1 : -1)) / 2); /* (m + 2^(-1/4)) / 2 */
  int32_t d = tff_fp_add(m, -root4_half);
  d = tff_fp_add(d, d); /* 2 (m - 2^(-1/4)) */
  const int32_t d2 = tff_srdhm(d, d);
  const int32_t numer = tff_fp_add(tff_srdhm(d, m), tff_srdhm(tff_srdhm(d, d2), c_num));
  const int32_t denom_less_1 =
      tff_fp_add(tff_srdhm(mid, tff_fp_add(tff_fp_add(c_den1, d), tff_srdhm(c_den2, d2))),
                 tff_srdhm(c_den0, d));
  const int32_t inv_denom = tff_fp_one_over_one_plus_x(denom_less_1);
  const int32_t ln_m = tff_srdhm(tff_rdbpot(numer, acc_bits), inv_denom);
  return tff_fp_sat_shl(tff_fp_add(tff_srdhm(e, ln2), ln_m), acc_bits - out_bits);
}

/* TFLite's GetInvSqrtQuantizedMultiplierExp with reverse shift -1:
 * 1/sqrt(v) as (*mult, *shift) for MBQM (shift a left shift); v <= 1 gives
 * (INT32_MAX, 0). Newton-Raphson in Q3.28 from 1, five steps. */
static inline void tff_fp_inv_sqrt(int32_t v, int32_t* mult, int* shift) {
  if (v <= 1) {
    *mult = INT32_MAX;
    *shift = 0;
    return;
  }
  int s = 11;
  while (v >= (1 << 29)) {
    v /= 4;
    ++s;
  }
  const int pairs = (tff_clz32((uint32_t)v) - 1) / 2 - 1;
  s -= pairs;
  v <<= 2 * pairs;
  const int32_t half_in = tff_rdbpot(v >> 1, 1), half_three = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28; /* Q3.28 */
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = tff_fp_sat_shl(tff_srdhm(tff_srdhm(x, x), x), 6);
    x = tff_fp_sat_shl(tff_fp_add(tff_srdhm(half_three, x), -tff_srdhm(half_in, x3)), 3);
  }
  x = tff_srdhm(x, 1518500250); /* sqrt(2)/2 */
  if (s < 0) {
    x = (int32_t)((uint32_t)x << -s);
    s = 0;
  }
  *mult = x;
  *shift = -s;
}

#endif /* TFLITE_FAST_OPS_FIXEDPOINT_H_ */
