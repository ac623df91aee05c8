/* The 16x8 quantization mode of CONV_2D, DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED: int16 activations (symmetric, zero point 0), int8 weights
 * (per-channel or per-tensor, symmetric), optional int64 bias. Both numerics
 * modes run TFLite's reference_integer_ops 16x8 formula (XNNPACK takes no
 * int16 op; the builtin kernels fall back to the reference for int64 bias):
 *   acc = Σ w·x + bias                                  (int64)
 *   y   = clamp( (acc·m16 + 2^(14−e)) >> (15−e) )       (one rounding)
 * where (M, e) = QuantizeMultiplier(s_in·s_w[c]/s_out) in double and m16 is
 * M reduced to 16 bits, round(M/2^16) (0x7FFF from 0x7FFF0000 up).
 * FULLY_CONNECTED differs (measured, both modes): with its int64 bias the
 * multiplier is not reduced, one rounding of the exact product,
 *   y = clamp( (acc·M + 2^(30−e)) >> (31−e) )           (tff_rq16_apply_full);
 * without a bias it runs the int32-bias instantiation, int32 sums and the
 * 32-bit double-rounding MBQM,
 *   y = clamp( MBQM(Σ w·x, M, e) )                      (tff_rq16_apply32). */
#ifndef TFLITE_FAST_OPS_CONV_INT16_H_
#define TFLITE_FAST_OPS_CONV_INT16_H_

#include "kernel_util.h"

typedef struct {
  int32_t* mult; /* per output channel: the 16-bit reduced multiplier */
  int* shift;    /* per output channel: 15 − e, the total right shift */
  int32_t* m32;  /* per output channel: M and e themselves */
  int* e32;
  int32_t lo, hi;
} tff_rq16;

static inline void tff_rq16_free(tff_rq16* r) {
  free(r->mult);
  free(r->shift);
  free(r->m32);
  free(r->e32);
  r->mult = NULL;
  r->shift = NULL;
  r->m32 = NULL;
  r->e32 = NULL;
}

/* TFLite's int64 MultiplyByQuantizedMultiplier with the multiplier already
 * reduced; the sums wrap instead of overflowing (they never do for a model
 * whose scales fit 16x8). */
static inline int32_t tff_mbqm64(int64_t acc, int32_t m16, int total_shift) {
  const uint64_t p = (uint64_t)acc * (uint64_t)(int64_t)m16 + (1ULL << (total_shift - 1));
  return (int32_t)((int64_t)p >> total_shift);
}

static inline int16_t tff_rq16_apply(const tff_rq16* r, int64_t acc, int c) {
  int32_t v = tff_mbqm64(acc, r->mult[c], r->shift[c]);
  v = v < r->lo ? r->lo : (v > r->hi ? r->hi : v);
  return (int16_t)v;
}

static inline int16_t tff_rq16_apply32(const tff_rq16* r, int32_t acc, int c) {
  int32_t v = tff_mbqm(acc, r->m32[c], r->e32[c]);
  v = v < r->lo ? r->lo : (v > r->hi ? r->hi : v);
  return (int16_t)v;
}

/* (acc·M + 2^(ts−1)) >> ts for ts = 31 − e in [24, 62], exact for
 * |acc| < 2^47 without a 128-bit type: acc = hi·2^31 + lo, 0 <= lo < 2^31,
 * and the low part's carry folded in first. Wraps (no UB) beyond that. */
static inline int16_t tff_rq16_apply_full(const tff_rq16* r, int64_t acc, int c) {
  const int ts = 31 - r->e32[c];
  const uint64_t m = (uint64_t)(int64_t)r->m32[c];
  const int64_t hi = acc >> 31;
  const uint64_t lo = (uint64_t)acc & 0x7FFFFFFFu;
  const uint64_t low = lo * m + (1ULL << (ts - 1)); /* < 2^63 */
  int64_t v;
  if (ts >= 31) {
    const uint64_t t = (uint64_t)hi * m + (low >> 31);
    v = (int64_t)t >> (ts - 31);
  } else {
    v = (int64_t)(((uint64_t)hi * m << (31 - ts)) + (low >> ts));
  }
  v = v < r->lo ? r->lo : (v > r->hi ? r->hi : v);
  return (int16_t)v;
}

/* Validates the int16 input/output, the int8 filter and the int64 bias of a
 * 16x8 node and computes its requantization. `channels` outputs, filter
 * scales along `qdim`. */
static inline TfLiteStatus tff_rq16_prepare(TfLiteContext* ctx, const char* op,
                                            const TfLiteTensor* in, const TfLiteTensor* filter,
                                            const TfLiteTensor* bias, const TfLiteTensor* out,
                                            int channels, int qdim, TfLiteFusedActivation act,
                                            tff_rq16* r) {
  TF_LITE_ENSURE_MSG(ctx, filter->type == kTfLiteInt8 && out->type == kTfLiteInt16,
                     "%s: int16 input needs an int8 filter and an int16 output, got %s and %s",
                     op, TfLiteTypeGetName(filter->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_MSG(ctx, filter->sparsity == NULL, "%s: sparse weights are not supported", op);
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(filter) && filter->data.data,
                     "%s: an int8 filter must be a constant tensor", op);
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, op, "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, op, "output", out));
  TF_LITE_ENSURE_MSG(ctx, in->params.zero_point == 0 && out->params.zero_point == 0,
                     "%s: int16 zero points must be 0, got input %d and output %d", op,
                     (int)in->params.zero_point, (int)out->params.zero_point);
  if (bias) {
    TF_LITE_ENSURE_MSG(ctx, bias->type == kTfLiteInt64,
                       "%s: bias type %s with int16 input is not supported (INT64 is)", op,
                       TfLiteTypeGetName(bias->type));
    TF_LITE_ENSURE_MSG(ctx, tff_num_elements(bias->dims) == (size_t)channels,
                       "%s: bias has %zu elements, expected %d (output channels)", op,
                       tff_num_elements(bias->dims), channels);
  }
  const TfLiteAffineQuantization* q = tff_affine(filter);
  TF_LITE_ENSURE_MSG(ctx, q != NULL && q->scale != NULL && q->scale->size > 0,
                     "%s: int8 filter has no quantization scales", op);
  const int n = q->scale->size;
  TF_LITE_ENSURE_MSG(ctx, n == 1 || (n == channels && q->quantized_dimension == qdim),
                     "%s: filter has %d scales along dimension %d, expected 1 or %d along %d",
                     op, n, (int)q->quantized_dimension, channels, qdim);
  if (q->zero_point != NULL) {
    for (int c = 0; c < q->zero_point->size; ++c)
      TF_LITE_ENSURE_MSG(ctx, q->zero_point->data[c] == 0,
                         "%s: filter zero point %d of channel %d is not 0", op,
                         q->zero_point->data[c], c);
  }
  tff_rq16_free(r);
  r->mult = malloc((size_t)channels * sizeof(int32_t));
  r->shift = malloc((size_t)channels * sizeof(int));
  r->m32 = malloc((size_t)channels * sizeof(int32_t));
  r->e32 = malloc((size_t)channels * sizeof(int));
  TF_LITE_ENSURE_MSG(ctx, r->mult && r->shift && r->m32 && r->e32, "%s: out of memory", op);
  for (int c = 0; c < channels; ++c) {
    const float ws = q->scale->data[n == 1 ? 0 : c];
    TF_LITE_ENSURE_MSG(ctx, isfinite(ws) && ws > 0.0f,
                       "%s: filter scale %g of channel %d is not a positive number", op,
                       (double)ws, c);
    const double real = (double)in->params.scale * (double)ws / (double)out->params.scale;
    int32_t m;
    int e;
    tff_quantize_multiplier(real, &m, &e);
    TF_LITE_ENSURE_MSG(ctx, e <= 7,
                       "%s: effective scale %g of channel %d is too large for 16x8", op, real, c);
    r->mult[c] = m < 0x7FFF0000 ? (m + (1 << 15)) >> 16 : 0x7FFF;
    r->shift[c] = 15 - e;
    r->m32[c] = m;
    r->e32[c] = e;
  }
  return tff_act_range_quant(ctx, act, out, &r->lo, &r->hi);
}

#endif /* TFLITE_FAST_OPS_CONV_INT16_H_ */
