/* The integer LSTM step (TFLite's lstm_eval Integer8x8_16, the one kernel of
 * both modes): int8 input and output state, int8 weights folded with the
 * zero points into effective biases, int16 gates in Q3.12 (the 5
 * intermediates' scales only matter with layer norm, which is not
 * supported), gemmlowp's 16-bit fixed-point sigmoid and tanh, an int16 cell
 * state whose scale is 2^cell_shift, an int8 hidden state requantized to the
 * 5th intermediate's scale and zero point, an int8 projection. */
#ifndef TFLITE_FAST_OPS_LSTM_INTEGER_H_
#define TFLITE_FAST_OPS_LSTM_INTEGER_H_

#include "fixedpoint.h"
#include "kernel_util.h"

typedef struct {
  int32_t a;
  int b;
} tff_qmul;

typedef struct {
  tff_qmul in[4], rec[4], peep[4], hidden, proj;
  tff_qmul ln[4];            /* layer norm: the coefficients' scale */
  int32_t variance_guard[4]; /* layer norm: the variance used when it rounds below 1 */
  int32_t* in_bias[4];  /* bias − z_x·Σw per row (no bias with layer norm) */
  int32_t* rec_bias[4]; /* −z_h·Σw */
  int32_t* proj_bias;   /* bias + z_hidden·Σw */
  int cell_shift;       /* the cell state's scale is 2^cell_shift */
  int16_t cell_clip;
  int8_t proj_clip;
  int32_t hidden_zp, h_zp;
} tff_lstm_int;

static inline tff_qmul tff_qmul_of(double scale) {
  tff_qmul m;
  tff_quantize_multiplier(scale, &m.a, &m.b);
  return m;
}

/* ---- gemmlowp fixed point on int16 raws (Q(ib).(15 − ib)) ---- */

/* SaturatingRoundingDoublingHighMul. */
static inline int16_t tff_fp16_mul(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  const int32_t p = (int32_t)a * b;
  return (int16_t)((p + (p >= 0 ? (1 << 14) : (1 - (1 << 14)))) / (1 << 15));
}

/* SaturatingRoundingMultiplyByPOT: x·2^e, saturating for e > 0, rounding for e < 0. */
static inline int16_t tff_fp16_pot(int16_t x, int e) {
  if (e < 0) return (int16_t)tff_rdbpot(x, -e);
  const int32_t thr = (1 << (15 - e)) - 1;
  return x > thr ? INT16_MAX : (x < -thr ? INT16_MIN : (int16_t)(uint16_t)((uint32_t)x << e));
}

static inline int16_t tff_fp16_const(int32_t raw32) { return (int16_t)tff_rdbpot(raw32, 16); }
static inline int16_t tff_fp16_add(int16_t a, int16_t b) { return (int16_t)(uint16_t)(a + b); }

/* exp(a) for a in [−1/4, 0), Q0.15. */
static inline int16_t tff_fp16_exp_quarter(int16_t a) {
  const int16_t c = tff_fp16_const(1895147668), third = tff_fp16_const(715827883);
  const int16_t x = tff_fp16_add(a, 1 << 12);
  const int16_t x2 = tff_fp16_mul(x, x), x3 = tff_fp16_mul(x2, x), x4 = tff_fp16_mul(x2, x2);
  const int16_t t = tff_fp16_add(tff_fp16_pot(x4, -2), x3);
  const int16_t poly = tff_fp16_pot(tff_fp16_add(tff_fp16_mul(t, third), x2), -1);
  const int32_t s = tff_fp16_mul(c, tff_fp16_add(x, poly)) + (int32_t)c;
  return (int16_t)(s > INT16_MAX ? INT16_MAX : (s < INT16_MIN ? INT16_MIN : s));
}

/* exp(a) for a <= 0 in Q(ib), as Q0.15. */
static inline int16_t tff_fp16_exp_neg(int16_t a, int ib) {
  static const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308,
                                  39332535,   720401,     242};
  const int fb = 15 - ib;
  const int16_t quarter = (int16_t)(1 << (fb - 2));
  const int16_t amq = (int16_t)(uint16_t)((a & (quarter - 1)) - quarter);
  int16_t r = tff_fp16_exp_quarter(tff_fp16_pot(amq, ib));
  const int16_t rem = (int16_t)(uint16_t)(amq - a);
  for (int e = -2; e <= 4; ++e)
    if (ib > e && (rem & (1 << (fb + e)))) r = tff_fp16_mul(r, tff_fp16_const(mult[e + 2]));
  if (ib > 5 && a < tff_fp16_const(-(1 << (36 - ib)))) r = 0;
  return a == 0 ? INT16_MAX : r;
}

/* Newton–Raphson 1/(1 + a) (minus: (1 − a)/(1 + a)) for a in [0, 1], Q0.15. */
static inline int16_t tff_fp16_recip(int16_t a, int minus) {
  const int32_t sum = (int32_t)a + INT16_MAX; /* RoundingHalfSum(a, 1) */
  const int16_t half = (int16_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
  int16_t x = tff_fp16_add(tff_fp16_const(1515870810),
                           tff_fp16_mul(half, tff_fp16_const(-1010580540)));
  for (int i = 0; i < 3; ++i) {
    const int16_t one_minus = tff_fp16_add(1 << 13, (int16_t)-tff_fp16_mul(half, x));
    x = tff_fp16_add(x, tff_fp16_pot(tff_fp16_mul(x, one_minus), 2));
  }
  return minus ? tff_fp16_pot(tff_fp16_add(x, -(1 << 13)), 2) : tff_fp16_pot(x, 1);
}

/* gemmlowp::logistic of a Q(ib) raw, Q0.15. */
static inline int16_t tff_fp16_logistic(int16_t a, int ib) {
  const int16_t abs = a > 0 ? a : (int16_t)(uint16_t)-a;
  const int16_t pos = tff_fp16_recip(tff_fp16_exp_neg((int16_t)(uint16_t)-abs, ib), 0);
  if (a == 0) return 1 << 14;
  return a > 0 ? pos : (int16_t)(INT16_MAX - pos);
}

/* gemmlowp::tanh of a Q(ib) raw, Q0.15. */
static inline int16_t tff_fp16_tanh(int16_t a, int ib) {
  const int16_t n = a < 0 ? a : (int16_t)(uint16_t)-a;
  const int16_t t = tff_fp16_recip(tff_fp16_exp_neg(n, ib + 1), 1);
  if (a == 0) return 0;
  return a < 0 ? (int16_t)(uint16_t)-t : t;
}

static inline int32_t tff_clamp32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* out[b][j] = clamp(out + mbqm(bias[j] + W[j]·x_b) + zp) to [lo, hi]; rows of
 * x `stride` apart. TFLite's MatrixBatchVectorMultiplyAccumulate (int32
 * sums, which wrap). */
static inline void tff_lstm_mv_int(const int8_t* w, const int32_t* bias, tff_qmul m, int batch,
                                   int rows, int cols, const int8_t* x, size_t stride,
                                   int32_t zp, int32_t lo, int32_t hi, int16_t* out16,
                                   int8_t* out8) {
  for (int b = 0; b < batch; ++b, x += stride)
    for (int j = 0; j < rows; ++j) {
      uint32_t acc = (uint32_t)bias[j];
      for (int i = 0; i < cols; ++i) acc += (uint32_t)(x[i] * w[(size_t)j * cols + i]);
      const size_t o = (size_t)b * rows + j;
      const int32_t prev = out16 ? out16[o] : out8[o];
      const int32_t v = tff_clamp32(tff_mbqm((int32_t)acc, m.a, m.b) + zp + prev, lo, hi);
      if (out16) out16[o] = (int16_t)v;
      else out8[o] = (int8_t)v;
    }
}

/* TFLite's integer ApplyLayerNorm of each row of n: mean and variance with 10
 * extra bits, 1/stddev by gemmlowp's inverse sqrt, then ·w + bias rescaled to
 * Q3.12. The int32 products wrap as TFLite's do. */
static inline void tff_lstm_layer_norm(int16_t* v, const int16_t* w, const int32_t* bias,
                                       tff_qmul m, int32_t guard, int batch, int n) {
  for (int b = 0; b < batch; ++b, v += n) {
    int64_t sum = 0, sum_sq = 0;
    for (int j = 0; j < n; ++j) {
      sum += v[j];
      sum_sq += (int32_t)v[j] * v[j];
    }
    const int32_t mean = (int32_t)(sum * 1024 / n);
    const int64_t var = sum_sq * ((1 << 20) / n) - (int64_t)mean * mean;
    int32_t var2 = (int32_t)(var / (1 << 20));
    if (var2 < 1) var2 = guard;
    int32_t inv_a;
    int inv_b;
    tff_fp_inv_sqrt(var2, &inv_a, &inv_b);
    for (int j = 0; j < n; ++j) {
      const int32_t shifted = (int32_t)((uint32_t)(1024 * (int32_t)v[j]) - (uint32_t)mean);
      const int32_t r = tff_mbqm(shifted, inv_a, inv_b);
      const int64_t v3 = (int32_t)((uint32_t)r * (uint32_t)(int32_t)w[j] + (uint32_t)bias[j]);
      const int32_t v4 = (int32_t)((v3 > 0 ? v3 + 512 : v3 - 512) / 1024);
      v[j] = (int16_t)tff_clamp32(tff_mbqm(v4, m.a, m.b + 12), INT16_MIN, INT16_MAX);
    }
  }
}

#endif /* TFLITE_FAST_OPS_LSTM_INTEGER_H_ */
