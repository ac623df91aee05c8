/* int16 LOGISTIC and TANH (16x8 mode: zero points 0, output scale 2^-15),
 * TFLite's two kernels (activations.cc SigmoidPrepare/TanhPrepare and Eval;
 * XNNPACK takes no int16, so AUTO runs them as the builtin optimized ones):
 *  - gemmlowp fixed point on the raw input read as Q3.12 (lstm_integer.h),
 *    when the input scale is a power of two (CheckedLog2: within 1e-3 in
 *    log2) whose left shift 12 + log2(s) is 0 (TANH: 0 or 1, the input then
 *    doubled, saturating); in the default mode only;
 *  - otherwise, and always in the reference mode, a 256-entry uint16 table
 *    of sigmoid with linear interpolation. The input is first rescaled to
 *    units of 1/12288 (x·3·4096: entry 255 sits at 10.6), v = (q·M + r) >> L
 *    with r = half of 2^L: a power-of-two scale takes M = 3·2^(12 + log2 s),
 *    L = 0; any other M = trunc(s·12288·2^L), the least L making M > 16383.5.
 *    LOGISTIC reads |v| as table index (bits 9 and up) and 9 fraction bits;
 *    TANH as index and 8 fraction bits, since tanh(x) = 2σ(2x) − 1.
 * Verified against ai-edge-litert 2.3 over all 65536 inputs, both modes. */
#ifndef TFLITE_FAST_OPS_SIGMOID_INT16_H_
#define TFLITE_FAST_OPS_SIGMOID_INT16_H_

#include <math.h>

#include "lstm_integer.h"
#include "unary_common.h"

typedef struct tff_sig16 {
  uint16_t table[256];
  int32_t mult; /* M */
  int shift;    /* L */
  int gemmlowp; /* 1: the fixed-point kernel; pre_shift doubles TANH's input */
  int pre_shift;
} tff_sig16;

/* OpData of LOGISTIC and TANH: the 8-bit table first (tff_unary_lut_run
 * reads it through a tff_unary_data pointer), then the int16 kernel. */
typedef struct tff_sig_data {
  tff_unary_data u;
  tff_sig16 s16;
} tff_sig_data;

TFF_ZEROED_INIT(tff_sig_init, tff_sig_data)

/* TFLite's CheckedLog2, in float as there: log2(x) rounded to *l, and
 * whether x is within 1e-3 (in log2) of 2^l. */
static inline int tff_checked_log2(float x, int* l) {
  const float lg = logf(x) * (1.0f / logf(2.0f));
  const float r = roundf(lg);
  *l = (int)r;
  return (double)fabsf(lg - r) < 1e-3;
}

static inline double tff_sig16_sample(double x) { return 65536.0 / (1.0 + exp(-x)); }

/* TFLite's sigmoid table, computed (its source lists the values; this
 * formula was found by fitting the oracle's outputs): entry i is 65536·σ(i/24)
 * raised by half the error of interpolating linearly to the next entry,
 * measured at the segment's midpoint,
 *   t[i] = round(y(x) + (y(x + 1/48) − (y(x) + y(x + 1/24))/2)/2),  x = i/24,
 * and the last entry is 65535 (the only value the oracle's outputs on the
 * last segment admit). The 255 computed entries equal the ones read from the
 * oracle (inputs on sample points, where interpolation vanishes); each
 * rounded value lies >= 0.004 from a .5 tie while double exp() is good to
 * ~1e-11 here, so no libm can flip an entry. */
static inline void tff_sig16_table(uint16_t* t) {
  for (int i = 0; i < 255; ++i) {
    const double x = i / 24.0, y = tff_sig16_sample(x);
    const double mid = tff_sig16_sample(x + 1.0 / 48.0), next = tff_sig16_sample((i + 1) / 24.0);
    t[i] = (uint16_t)floor(y + (mid - (y + next) / 2.0) / 2.0 + 0.5);
  }
  t[255] = 65535;
}

/* Prepare of the int16 variant; `tanh` selects TANH. */
static inline TfLiteStatus tff_sig16_prepare(TfLiteContext* ctx, const char* name, int tanh,
                                             const TfLiteTensor* in, const TfLiteTensor* out,
                                             tff_sig16* p) {
  TF_LITE_ENSURE_OK(ctx, tff_unary_check_quant(ctx, name, in, out, 1));
  const float s = tff_scale(in), so = tff_scale(out);
  int log2_out, log2_in;
  /* LOGISTIC checks the exact scale, TANH only CheckedLog2 (as TFLite). */
  TF_LITE_ENSURE_MSG(ctx, tanh ? tff_checked_log2(so, &log2_out) && log2_out == -15
                               : (double)so == 1.0 / 32768.0,
                     "%s: int16 output scale %g must be 2^-15", name, (double)so);
  const int pot = tff_checked_log2(s, &log2_in), left = 12 + log2_in;
  p->gemmlowp = p->pre_shift = 0;
  if (pot && (left == 0 || (tanh && left == 1))) {
    p->gemmlowp = !tff_numerics_ref(ctx);
    p->pre_shift = left;
    p->mult = 3 << left;
    p->shift = 0;
  } else {
    double m = (double)s * 4096.0 * 3.0;
    int l = 0;
    while (m <= 32767.0 / 2.0 && l <= 30) ++l, m *= 2.0;
    /* Beyond these TFLite's int32 arithmetic overflows (M = 0 would even
     * take the power-of-two branch): scales below ~4e-14 or above 16/3. */
    TF_LITE_ENSURE_MSG(ctx, m >= 1.0 && m < 65536.0,
                       "%s: int16 input scale %g is outside the range of TFLite's kernel "
                       "(4e-14 .. 5.3)", name, (double)s);
    p->mult = (int32_t)m;
    p->shift = l;
  }
  tff_sig16_table(p->table);
  return kTfLiteOk;
}

/* v = (q·M + r) >> L, the input in units of 1/12288 (as TFLite, in int32). */
static inline int32_t tff_sig16_rescale(const tff_sig16* p, int16_t q) {
  const int32_t r = p->shift > 0 ? 1 << (p->shift - 1) : 0;
  return (q * p->mult + r) >> p->shift;
}

/* TFLite's reference_integer_ops::Logistic (int16): Q0.15 out. The sum
 * ua·512 + ut·(ub − ua) is the interpolated table value with 9 fraction
 * bits; beyond the table it is 32767 after rounding. Negative inputs
 * mirror it, 1 − σ(|x|), rounding the other way. */
static inline int16_t tff_logistic16_table(const tff_sig16* p, int16_t q) {
  const int32_t v = tff_sig16_rescale(p, q);
  const int32_t a = v < 0 ? -v : v, k = a >> 9;
  int32_t r = 0x7fff << 10;
  if (k < 255) r = p->table[k] * 512 + (a & 511) * (p->table[k + 1] - p->table[k]);
  return (int16_t)((v >= 0 ? r + 512 : (1 << 25) - r + 511) >> 10);
}

/* TFLite's reference_integer_ops::Tanh (int16): 2σ(2x) − 1 from the same
 * table with 8 fraction bits; beyond the table σ = 65535/65536. */
static inline int16_t tff_tanh16_table(const tff_sig16* p, int16_t q) {
  const int32_t v = tff_sig16_rescale(p, q);
  const int32_t a = v < 0 ? -v : v, k = a >> 8;
  int32_t r = 0xffff << 8;
  if (k < 255) r = p->table[k] * 256 + (a & 255) * (p->table[k + 1] - p->table[k]);
  return (int16_t)((v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1) >> 8);
}

static inline void tff_sig16_run(const tff_sig16* p, int tanh, const int16_t* x, int16_t* y,
                                 size_t n) {
  if (p->gemmlowp && tanh) {
    for (size_t i = 0; i < n; ++i) y[i] = tff_fp16_tanh(tff_fp16_pot(x[i], p->pre_shift), 3);
  } else if (p->gemmlowp) {
    for (size_t i = 0; i < n; ++i) y[i] = tff_fp16_logistic(x[i], 3);
  } else if (tanh) {
    for (size_t i = 0; i < n; ++i) y[i] = tff_tanh16_table(p, x[i]);
  } else {
    for (size_t i = 0; i < n; ++i) y[i] = tff_logistic16_table(p, x[i]);
  }
}

#endif /* TFLITE_FAST_OPS_SIGMOID_INT16_H_ */
