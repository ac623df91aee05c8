/* Shared by CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: type and
 * quantization checks, output geometry, the three int8 requantization
 * schemes, the three ways of quantizing a float input on the fly (hybrid
 * ops), and the packed int8/float GEMM the convolutions and FC run on.
 *
 * Numerics (docs/numerics.md §1.4, §2.4; each rule below measured against
 * ai-edge-litert 2.3.0 with single-op models, tests/test_ops_conv.py):
 *  - int8, default (XNNPACK): fp32 requantization with the scale computed in
 *    float32 as f32(f32(s_x*s_w[c])/s_y), XNNPACK's activation bounds.
 *  - int8, reference: CONV/DW apply MBQM (double rounding) with
 *    QuantizeMultiplier(double s_x*s_w[c]/s_y); FC's reference kernel (since
 *    2025) rounds double(acc)*that scale half away from zero instead.
 *  - hybrid: the float input is quantized per batch row (FC) or per image
 *    (conv), the int8 GEMM runs, and acc*dq*s_w[c] + bias is the output.
 *    Default mode quantizes like XNNPACK's qd8 convert (CONV, FC; per pixel
 *    for the 1x1 convs XNNPACK turns into FC); reference mode, and DEPTHWISE
 *    which AUTO leaves on the builtin kernel, like TFLite's tensor_utils as
 *    built for x86.
 * Accumulators: acc = bias - z_x*Σw + Σ w·x, taps in padding read a buffer
 * holding the input's zero, so folding z_x is exact at the borders too.
 * Kernels: float and default-mode int8 run the SIMD ukernels (tff_gemm at the
 * end of this file); reference-mode int8 and hybrid run the portable packed
 * GEMM (tff_igemm_s8) with the requantization/epilogue of their mode.
 */
#ifndef TFLITE_FAST_OPS_CONV_COMMON_H_
#define TFLITE_FAST_OPS_CONV_COMMON_H_

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "kernel_util.h"
#include "threadpool.h"
#include "ukernels/f32-gemm/f32-gemm.h"
#include "ukernels/qs8-packw/qs8-packw.h"
#include "ukernels/qs8-qc8w-gemm/qs8-qc8w-gemm.h"
#include "ukernels/qs8-requantization/qs8-requantization.h"
#include "ukernels/qs8-rsum/qs8-rsum.h"

typedef enum { TFF_CONV_FLOAT, TFF_CONV_INT8, TFF_CONV_HYBRID } tff_conv_kind;

/* Input/filter/output types: float/float/float, int8/int8/int8 or the hybrid
 * float/int8/float, dense weights; anything else is named in the message. */
static inline TfLiteStatus tff_conv_kind_of(TfLiteContext* ctx, const char* op,
                                            const TfLiteTensor* in, const TfLiteTensor* filter,
                                            const TfLiteTensor* out, tff_conv_kind* kind) {
  if (in->type == kTfLiteFloat32 && filter->type == kTfLiteFloat32) {
    *kind = TFF_CONV_FLOAT;
  } else if (in->type == kTfLiteInt8 && filter->type == kTfLiteInt8) {
    *kind = TFF_CONV_INT8;
  } else if (in->type == kTfLiteFloat32 && filter->type == kTfLiteInt8) {
    *kind = TFF_CONV_HYBRID;
  } else {
    TF_LITE_KERNEL_LOG(ctx, "%s: input type %s with filter type %s is not supported", op,
                       TfLiteTypeGetName(in->type), TfLiteTypeGetName(filter->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_MSG(ctx, filter->sparsity == NULL, "%s: sparse weights are not supported", op);
  const TfLiteType want = *kind == TFF_CONV_INT8 ? kTfLiteInt8 : kTfLiteFloat32;
  TF_LITE_ENSURE_MSG(ctx, out->type == want, "%s: output type %s, expected %s for input type %s",
                     op, TfLiteTypeGetName(out->type), TfLiteTypeGetName(want),
                     TfLiteTypeGetName(in->type));
  return kTfLiteOk;
}

static inline TfLiteStatus tff_check_activation(TfLiteContext* ctx, const char* op,
                                                TfLiteFusedActivation act) {
  TF_LITE_ENSURE_MSG(ctx,
                     act == kTfLiteActNone || act == kTfLiteActRelu || act == kTfLiteActRelu6 ||
                         act == kTfLiteActReluN1To1,
                     "%s: fused activation %d is not supported (NONE, RELU, RELU6, "
                     "RELU_N1_TO_1 are)", op, (int)act);
  return kTfLiteOk;
}

/* Per-tensor scale and zero point of an int8 activation tensor. */
static inline TfLiteStatus tff_check_act_quant(TfLiteContext* ctx, const char* op,
                                               const char* what, const TfLiteTensor* t) {
  const float s = t->params.scale;
  const int32_t z = t->params.zero_point;
  TF_LITE_ENSURE_MSG(ctx, isfinite(s) && s > 0.0f, "%s: %s scale %g is not a positive number",
                     op, what, (double)s);
  TF_LITE_ENSURE_MSG(ctx, z >= -128 && z <= 127, "%s: %s zero point %d is out of the int8 range",
                     op, what, (int)z);
  return kTfLiteOk;
}

/* The int8 filter's scales: one, or one per output channel along `qdim`;
 * zero points must be 0 (symmetric weights). *per_channel tells which. */
static inline TfLiteStatus tff_filter_scales(TfLiteContext* ctx, const char* op,
                                             const TfLiteTensor* filter, int channels, int qdim,
                                             const float** scales, int* per_channel) {
  const TfLiteAffineQuantization* q = tff_affine(filter);
  TF_LITE_ENSURE_MSG(ctx, q != NULL && q->scale != NULL && q->scale->size > 0,
                     "%s: int8 filter has no quantization scales", op);
  const int n = q->scale->size;
  TF_LITE_ENSURE_MSG(ctx, n == 1 || n == channels,
                     "%s: filter has %d scales, expected 1 or %d (one per output channel)", op,
                     n, channels);
  TF_LITE_ENSURE_MSG(ctx, n == 1 || q->quantized_dimension == qdim,
                     "%s: per-channel filter quantized along dimension %d, expected %d", op,
                     (int)q->quantized_dimension, qdim);
  for (int c = 0; c < n; ++c) {
    const float s = q->scale->data[c];
    TF_LITE_ENSURE_MSG(ctx, isfinite(s) && s > 0.0f,
                       "%s: filter scale %g of channel %d is not a positive number", op,
                       (double)s, c);
  }
  if (q->zero_point != NULL) {
    for (int c = 0; c < q->zero_point->size; ++c) {
      TF_LITE_ENSURE_MSG(ctx, q->zero_point->data[c] == 0,
                         "%s: filter zero point %d of channel %d is not 0 (int8 weights are "
                         "symmetric)", op, q->zero_point->data[c], c);
    }
  }
  *scales = q->scale->data;
  *per_channel = n > 1;
  return kTfLiteOk;
}

/* Bias: `n` elements of INT32 (int8 ops) or FLOAT32. */
static inline TfLiteStatus tff_check_bias(TfLiteContext* ctx, const char* op,
                                          const TfLiteTensor* bias, tff_conv_kind kind, int n) {
  const TfLiteType want = kind == TFF_CONV_INT8 ? kTfLiteInt32 : kTfLiteFloat32;
  TF_LITE_ENSURE_MSG(ctx, bias->type == want, "%s: bias type %s, expected %s", op,
                     TfLiteTypeGetName(bias->type), TfLiteTypeGetName(want));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(bias->dims) == (size_t)n,
                     "%s: bias has %zu elements, expected %d (output channels)", op,
                     tff_num_elements(bias->dims), n);
  return kTfLiteOk;
}

/* ---- output geometry of a 2-D window op over NHWC ---- */
typedef struct {
  int batches, in_h, in_w, in_c;
  int k_h, k_w, stride_h, stride_w, dil_h, dil_w;
  int out_h, out_w, pad_t, pad_l;
} tff_conv_geom;

/* TFLite's output size and padding (ComputePaddingHeightWidth), computed in
 * 64 bits so that any stride/dilation a model holds is rejected, not UB. */
static inline TfLiteStatus tff_conv_geom_prepare(TfLiteContext* ctx, const char* op,
                                                 TfLitePadding padding, int stride_h,
                                                 int stride_w, int dil_h, int dil_w,
                                                 const TfLiteTensor* in, int k_h, int k_w,
                                                 tff_conv_geom* g) {
  TF_LITE_ENSURE_MSG(ctx, stride_h >= 1 && stride_w >= 1, "%s: strides %dx%d must be >= 1", op,
                     stride_h, stride_w);
  TF_LITE_ENSURE_MSG(ctx, dil_h >= 1 && dil_w >= 1, "%s: dilations %dx%d must be >= 1", op,
                     dil_h, dil_w);
  TF_LITE_ENSURE_MSG(ctx, padding == kTfLitePaddingSame || padding == kTfLitePaddingValid,
                     "%s: unknown padding %d", op, (int)padding);
  TF_LITE_ENSURE_MSG(ctx, k_h >= 1 && k_w >= 1, "%s: filter size %dx%d must be >= 1", op, k_h,
                     k_w);
  g->batches = tff_dim(in, 0);
  g->in_h = tff_dim(in, 1);
  g->in_w = tff_dim(in, 2);
  g->in_c = tff_dim(in, 3);
  g->k_h = k_h;
  g->k_w = k_w;
  g->stride_h = stride_h;
  g->stride_w = stride_w;
  g->dil_h = dil_h;
  g->dil_w = dil_w;
  const int ins[2] = {g->in_h, g->in_w}, ks[2] = {k_h, k_w};
  const int strides[2] = {stride_h, stride_w}, dils[2] = {dil_h, dil_w};
  int outs[2], pads[2];
  for (int i = 0; i < 2; ++i) {
    const int64_t eff = (int64_t)(ks[i] - 1) * dils[i] + 1;
    TF_LITE_ENSURE_MSG(ctx, eff <= INT_MAX / 2, "%s: dilated filter size %lld is too large", op,
                       (long long)eff);
    const int64_t out = padding == kTfLitePaddingSame
                            ? (ins[i] + (int64_t)strides[i] - 1) / strides[i]
                            : (ins[i] >= eff ? (ins[i] - eff) / strides[i] + 1 : 0);
    const int64_t total = out > 0 ? (out - 1) * strides[i] + eff - ins[i] : 0;
    TF_LITE_ENSURE_MSG(ctx, total + ins[i] <= INT_MAX / 2,
                       "%s: stride %d is too large for input size %d", op, strides[i], ins[i]);
    outs[i] = (int)out;
    pads[i] = total > 0 ? (int)(total / 2) : 0;
  }
  g->out_h = outs[0];
  g->out_w = outs[1];
  g->pad_t = pads[0];
  g->pad_l = pads[1];
  return kTfLiteOk;
}

/* Pointers to the input pixel under each filter tap of output (oy, ox), in
 * filter order; taps outside the image point at `pad` (the input's zero). */
static inline void tff_conv_taps(const tff_conv_geom* g, const char* image, size_t pixel_bytes,
                                 const void* pad, int oy, int ox, const void** taps) {
  const int y0 = oy * g->stride_h - g->pad_t, x0 = ox * g->stride_w - g->pad_l;
  for (int ky = 0; ky < g->k_h; ++ky) {
    const int iy = y0 + ky * g->dil_h;
    for (int kx = 0; kx < g->k_w; ++kx) {
      const int ix = x0 + kx * g->dil_w;
      const int inside = iy >= 0 && iy < g->in_h && ix >= 0 && ix < g->in_w;
      *taps++ = inside ? image + ((size_t)iy * g->in_w + ix) * pixel_bytes : pad;
    }
  }
}

/* ---- int8 requantization, one scheme per numerics mode/op ---- */
typedef enum {
  TFF_RQ_FP32,   /* XNNPACK (default mode) */
  TFF_RQ_MBQM,   /* TFLite reference CONV/DW: double rounding */
  TFF_RQ_DOUBLE, /* TFLite reference FC: round(double(acc)*scale) */
} tff_rq_scheme;

typedef struct {
  tff_rq_scheme scheme;
  void* mem;      /* owns the per-channel arrays; only those of `scheme` are set */
  float* scale;   /* FP32 */
  double* dscale; /* DOUBLE */
  int32_t* mult;  /* MBQM */
  int32_t* shift; /* MBQM */
  int32_t zp, lo, hi;
  float lo_less_zp, hi_less_zp;
  /* The qs8-requantization kernel of `scheme` chosen at prepare, its
   * parameters (pointing into mem) and name. */
  union {
    tff_qs8_requantize_fp32_ukernel* fp32;
    tff_qs8_requantize_gemmlowp_ukernel* gemmlowp;
    tff_qs8_requantize_double_ukernel* dbl;
  } fn;
  union {
    tff_qs8_requantize_fp32_params fp32;
    tff_qs8_requantize_gemmlowp_params gemmlowp;
    tff_qs8_requantize_double_params dbl;
  } p;
  const char* kernel;
  char label[128]; /* tff_requant_label */
} tff_requant;

static inline void tff_requant_free(tff_requant* rq) {
  free(rq->mem);
  memset(rq, 0, sizeof(*rq));
}

/* Per-channel parameters for `n` output channels; filter scales as given by
 * tff_filter_scales (one is broadcast). Frees what an earlier call held. */
static inline TfLiteStatus tff_requant_prepare(TfLiteContext* ctx, const char* op,
                                               tff_requant* rq, tff_rq_scheme scheme, int n,
                                               const TfLiteTensor* in, const float* wscales,
                                               int per_channel, const TfLiteTensor* out,
                                               TfLiteFusedActivation act) {
  tff_requant_free(rq);
  rq->scheme = scheme;
  rq->mem = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  TF_LITE_ENSURE_MSG(ctx, rq->mem != NULL, "%s: out of memory", op);
  rq->scale = (float*)rq->mem;
  rq->dscale = (double*)rq->mem;
  rq->mult = (int32_t*)rq->mem;
  rq->shift = (int32_t*)rq->mem + n;
  const float sx = in->params.scale, sy = out->params.scale;
  rq->zp = out->params.zero_point;
  for (int c = 0; c < n; ++c) {
    const float sw = wscales[per_channel ? c : 0];
    const double real = (double)sx * (double)sw / (double)sy;
    switch (scheme) {
      case TFF_RQ_FP32: rq->scale[c] = sx * sw / sy; break; /* float32 ops, in this order */
      case TFF_RQ_DOUBLE: rq->dscale[c] = real; break;
      case TFF_RQ_MBQM: {
        int shift;
        tff_quantize_multiplier(real, &rq->mult[c], &shift);
        TF_LITE_ENSURE_MSG(ctx, shift <= 30,
                           "%s: requantization scale %g of channel %d is too large", op, real,
                           c);
        rq->shift[c] = shift;
        break;
      }
    }
  }
  const uint32_t isa = tff_cpu_effective();
  if (scheme == TFF_RQ_FP32) {
    tff_act_range_quant_xnn(act, sy, rq->zp, -128, 127, &rq->lo, &rq->hi);
    rq->lo_less_zp = (float)(rq->lo - rq->zp);
    rq->hi_less_zp = (float)(rq->hi - rq->zp);
    const tff_qs8_requantize_fp32_config* k = tff_qs8_requantize_fp32_select(isa);
    rq->fn.fp32 = k->fn;
    rq->kernel = k->name;
    rq->p.fp32 = (tff_qs8_requantize_fp32_params){rq->scale, rq->lo_less_zp, rq->hi_less_zp,
                                                  rq->zp};
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(ctx, tff_act_range_quant(ctx, act, out, &rq->lo, &rq->hi));
  if (scheme == TFF_RQ_MBQM) {
    const tff_qs8_requantize_gemmlowp_config* k = tff_qs8_requantize_gemmlowp_select(isa);
    rq->fn.gemmlowp = k->fn;
    rq->kernel = k->name;
    rq->p.gemmlowp = (tff_qs8_requantize_gemmlowp_params){rq->mult, rq->shift, rq->zp, rq->lo,
                                                          rq->hi};
  } else {
    const tff_qs8_requantize_double_config* k = tff_qs8_requantize_double_select(isa);
    rq->fn.dbl = k->fn;
    rq->kernel = k->name;
    rq->p.dbl = (tff_qs8_requantize_double_params){rq->dscale, rq->zp, rq->lo, rq->hi};
  }
  return kTfLiteOk;
}

/* "<base> + <the requantization kernel>", kept in rq: the kernel name of a
 * portable int8 path (after tff_requant_prepare). */
static inline const char* tff_requant_label(tff_requant* rq, const char* base) {
  snprintf(rq->label, sizeof(rq->label), "%s + %s", base, rq->kernel);
  return rq->label;
}

/* out[c] = requantized acc[c] for c < n, by the kernel prepare chose. */
static inline void tff_requant_row(const tff_requant* rq, const int32_t* acc, int n,
                                   int8_t* out) {
  switch (rq->scheme) {
    case TFF_RQ_FP32: rq->fn.fp32((size_t)n, acc, out, &rq->p.fp32); break;
    case TFF_RQ_MBQM: rq->fn.gemmlowp((size_t)n, acc, out, &rq->p.gemmlowp); break;
    case TFF_RQ_DOUBLE: rq->fn.dbl((size_t)n, acc, out, &rq->p.dbl); break;
  }
}

/* ---- hybrid ops: quantize a float row; real ≈ dq·(q − zp) ---- */
typedef enum {
  TFF_HYB_XNN_QD8,  /* XNNPACK dynamic quantization (default CONV/FC) */
  TFF_HYB_TFL_SYM,  /* TFLite SymmetricQuantizeFloats */
  TFF_HYB_TFL_ASYM, /* TFLite AsymmetricQuantizeFloats */
} tff_hybrid_quant;

/* |x·scale| <= 255 for finite rows; bounding it keeps the int conversions
 * defined when a row holds inf or NaN (the result is then meaningless). */
static inline float tff_bound_256(float p) {
  return p > 256.0f ? 256.0f : (p >= -256.0f ? p : -256.0f);
}

/* XNNPACK f32→qd8: scale 255/(max−min) over the row widened to include 0,
 * zero point nudged from whichever end loses less, q = rint(x·scale) + zp. */
static inline void tff_quantize_qd8(const float* x, size_t n, int8_t* q, float* dq,
                                    int32_t* zp) {
  float mn = INFINITY, mx = -INFINITY;
  for (size_t i = 0; i < n; ++i) {
    mn = x[i] < mn ? x[i] : mn;
    mx = x[i] > mx ? x[i] : mx;
  }
  const float rmin = mn < 0.0f ? mn : 0.0f, rmax = mx > 0.0f ? mx : 0.0f;
  const float scale = rmin == rmax ? 1.0f : 255.0f / (rmax - rmin);
  const float dmin = rmin * scale, dmax = rmax * scale;
  float z = (-128.0f + dmin) + (127.0f + dmax) > 0.0f ? -128.0f - dmin : 127.0f - dmax;
  z = z < -128.0f ? -128.0f : (z > 127.0f ? 127.0f : z);
  const int32_t zi = (int32_t)lrintf(z);
  for (size_t i = 0; i < n; ++i) {
    int32_t v = (int32_t)lrintf(tff_bound_256(x[i] * scale)) + zi;
    q[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
  *dq = 1.0f / scale;
  *zp = zi;
}

/* TFLite's x86 build runs its NEON tensor_utils through NEON_2_SSE: blocks of
 * 8 round by adding ±0.5 in float and truncating (vcvtq), the tail with
 * round-half-away. They differ only at 0.5−2^−25; measured on the oracle. */
static inline int32_t tff_round_neon_emul(float v) {
  return (int32_t)(v + (v < 0.0f ? -0.5f : 0.5f));
}


static inline void tff_quantize_sym_tfl(const float* x, size_t n, int8_t* q, float* dq,
                                        int32_t* zp) {
  float mn = n ? x[0] : 0.0f, mx = mn;
  for (size_t i = 1; i < n; ++i) {
    mn = x[i] < mn ? x[i] : mn;
    mx = x[i] > mx ? x[i] : mx;
  }
  const float range = fabsf(mn) < fabsf(mx) ? fabsf(mx) : fabsf(mn);
  *zp = 0;
  if (range == 0.0f) {
    memset(q, 0, n);
    *dq = 1.0f;
    return;
  }
  *dq = range / 127.0f;
  const float inv = 127.0f / range;
  const size_t nv = n & ~(size_t)7;
  for (size_t i = 0; i < n; ++i) {
    const float p = tff_bound_256(inv * x[i]);
    int32_t v = i < nv ? tff_round_neon_emul(p) : (int32_t)roundf(p);
    q[i] = (int8_t)(v < -127 ? -127 : (v > 127 ? 127 : v));
  }
}

static inline void tff_quantize_asym_tfl(const float* x, size_t n, int8_t* q, float* dq,
                                         int32_t* zp) {
  float rmin = 0.0f, rmax = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    rmin = x[i] < rmin ? x[i] : rmin;
    rmax = x[i] > rmax ? x[i] : rmax;
  }
  if (rmin == rmax) {
    memset(q, 0, n);
    *dq = 1.0f;
    *zp = 0;
    return;
  }
  /* The NEON variant subtracts in float, then works in double. */
  const double scale = (double)(rmax - rmin) / 255.0;
  const double zmin = -128.0 - rmin / scale, zmax = 127.0 - rmax / scale;
  const double emin = 128.0 + fabs(rmin / scale), emax = 127.0 + fabs(rmax / scale);
  const double zd = emin < emax ? zmin : zmax;
  const int32_t z = zd <= -128.0 ? -128 : (zd >= 127.0 ? 127 : (int32_t)round(zd));
  *dq = (float)scale;
  *zp = z;
  const float inv = (float)(1.0 / (double)*dq);
  const size_t nv = n & ~(size_t)7;
  for (size_t i = 0; i < n; ++i) {
    const float p = tff_bound_256(inv * x[i]);
    int32_t v = z + (i < nv ? tff_round_neon_emul(p) : (int32_t)roundf(p));
    q[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}

static inline void tff_quantize_hybrid(tff_hybrid_quant how, const float* x, size_t n,
                                       int8_t* q, float* dq, int32_t* zp) {
  switch (how) {
    case TFF_HYB_XNN_QD8: tff_quantize_qd8(x, n, q, dq, zp); break;
    case TFF_HYB_TFL_SYM: tff_quantize_sym_tfl(x, n, q, dq, zp); break;
    case TFF_HYB_TFL_ASYM: tff_quantize_asym_tfl(x, n, q, dq, zp); break;
  }
}

/* Float output of a hybrid op: XNNPACK scales by the row's dq first, TFLite
 * by the product dq·s_w (the two orders differ by an ulp). */
static inline void tff_hybrid_row(tff_hybrid_quant how, const int32_t* acc, int n, float dq,
                                  const float* wscales, int per_channel, const float* bias,
                                  float lo, float hi, float* out) {
  for (int c = 0; c < n; ++c) {
    const float sw = wscales[per_channel ? c : 0];
    float v = how == TFF_HYB_XNN_QD8 ? (float)acc[c] * dq * sw : (float)acc[c] * (dq * sw);
    if (bias) v += bias[c];
    v = v < lo ? lo : v;
    out[c] = v > hi ? hi : v;
  }
}

/* ---- portable packed int8 GEMM (reference mode, hybrid): the inner loops
 * run over TFF_NR contiguous channels ---- */
#define TFF_NR 16

/* Elements of a packed [n][k] matrix: n rounded up to TFF_NR. */
static inline size_t tff_packed_elems(int n, int k) {
  return (size_t)((n + TFF_NR - 1) / TFF_NR) * TFF_NR * (size_t)k;
}

/* Items of item_bytes (> 0) per run when packing weights over the
 * interpreter's threads: runs of >= 64 KiB, each core streaming its own
 * share (packing is memory bound). */
static inline int tff_pack_grain(size_t item_bytes) {
  return (int)(((64 << 10) + item_bytes - 1) / item_bytes);
}

typedef struct {
  tff_qs8_packw_ukernel* fn;
  size_t n, k;
  const int8_t* w;
  int8_t* packed;
  int32_t* sums;
} tff_pack_s8_job;

/* Tiles [begin, end): tile t is rows [t·TFF_NR, ...) and starts t·TFF_NR·k
 * bytes into packed, whichever call packs it. */
static void tff_pack_s8_task(void* arg, int begin, int end) {
  const tff_pack_s8_job* j = (const tff_pack_s8_job*)arg;
  const size_t r0 = (size_t)begin * TFF_NR, r1 = (size_t)end * TFF_NR;
  j->fn((r1 < j->n ? r1 : j->n) - r0, j->k, j->w + r0 * j->k, j->packed + r0 * j->k,
        j->sums + r0);
}

/* Row-major [n][k] to tiles of TFF_NR rows (qs8-packw's layout) and
 * sums[c] = Σ_i w[c][i], by the best kernel of this CPU, spread over the
 * interpreter's threads (tff_pack_grain): mobilenet_v2_hybrid's 3.5 MB
 * were half its construction. */
static inline void tff_pack_s8(TfLiteContext* ctx, int n, int k, const int8_t* w, int8_t* packed,
                               int32_t* sums) {
  tff_pack_s8_job j = {tff_qs8_packw_select(tff_cpu_effective())->fn, (size_t)n, (size_t)k, w,
                       packed, sums};
  tff_parallel_for(ctx, (n + TFF_NR - 1) / TFF_NR, tff_pack_grain((size_t)TFF_NR * (size_t)k),
                   tff_pack_s8_task, &j);
}

/* acc[c] = init[c] (0 without init) + Σ_t Σ_i taps[t][off + i]·w[c][t·cin + i]
 * for c < n, weights packed by tff_pack_s8. Accumulates in uint32 so that
 * wrap-around (which TFLite's int32 has too) is defined. */
static inline void tff_igemm_s8(int n, int ntaps, int cin, const void* const* taps, size_t off,
                                const int8_t* packed, const int32_t* init, int32_t* acc) {
  const size_t k = (size_t)ntaps * cin;
  for (int n0 = 0; n0 < n; n0 += TFF_NR) {
    const int nr = n - n0 < TFF_NR ? n - n0 : TFF_NR;
    const int8_t* w = packed + (size_t)n0 * k;
    uint32_t a[TFF_NR];
    for (int j = 0; j < TFF_NR; ++j) a[j] = init && j < nr ? (uint32_t)init[n0 + j] : 0;
    for (int t = 0; t < ntaps; ++t) {
      const int8_t* x = (const int8_t*)taps[t] + off;
      for (int i = 0; i < cin; ++i, w += TFF_NR) {
        const int32_t xv = x[i];
        for (int j = 0; j < TFF_NR; ++j) a[j] += (uint32_t)(xv * w[j]);
      }
    }
    for (int j = 0; j < nr; ++j) acc[n0 + j] = (int32_t)a[j];
  }
}

/* sums[c] = Σ_i w[c][i] over a row-major [n][k] int8 matrix, wrapping, by
 * the best qs8-rsum kernel of this CPU. */
static inline void tff_row_sums_s8(int n, int k, const int8_t* w, int32_t* sums) {
  tff_qs8_rsum_select(tff_cpu_effective())->fn((size_t)n, (size_t)k, w, sums);
}

/* init[c] = bias[c] − z·sums[c] (bias may be NULL), wrapping like the GEMM. */
static inline void tff_fold_zero_point(int n, const int32_t* bias, int32_t z,
                                       const int32_t* sums, int32_t* init) {
  for (int c = 0; c < n; ++c)
    init[c] = (int32_t)((bias ? (uint32_t)bias[c] : 0u) - (uint32_t)z * (uint32_t)sums[c]);
}

/* ---- ukernel GEMM: float, and int8 with fp32 requantization ----
 * Rows are given indirectly ([m][ks] pointers, see the ukernel headers): one
 * pointer per FC batch row, or per conv output pixel its taps. Groups are
 * side by side in a row: group g reads channels [g·kc, (g+1)·kc) of each
 * tap and writes channels [g·nc, (g+1)·nc) of the output row. */
typedef struct {
  const tff_qs8_qc8w_gemm_config* qs8; /* one of the two is set */
  const tff_f32_gemm_config* f32;
  int groups, mr, nr;
  size_t nc, ks, kc;  /* per group */
  size_t esz;         /* bytes of an input/output element */
  size_t group_bytes; /* packed weights per group */
  void* packed;
  tff_qs8_minmax_fp32_params qp;
  tff_f32_minmax_params fp;
  int pack_at_invoke;  /* float weights that are not constant */
  int bias_at_invoke;  /* bias not constant: packed (int8: folded) at each invoke */
  int32_t izp;         /* int8: the input zero point */
  int32_t* wsum;       /* int8: Σw per output channel */
  int32_t* init;       /* int8: room for the folded bias per output channel */
} tff_gemm;

static inline void tff_gemm_free(TfLiteContext* ctx, tff_gemm* g) {
  tff_persistent_free(ctx, g->packed);
  free(g->wsum);
  free(g->init);
  memset(g, 0, sizeof(*g));
}

/* Picks the kernel of the best effective ISA (its 1-row variant when m is 1;
 * int8: its x-widening kernel when ks·kc fits it, a wsym one when no weight
 * of w [groups·nc][ks][kc] is -128) and allocates its packed weights. */
static inline TfLiteStatus tff_gemm_prepare(TfLiteContext* ctx, const char* op, tff_gemm* g,
                                            int is_f32, size_t m, int groups, size_t nc,
                                            size_t ks, size_t kc, const void* w) {
  tff_gemm_free(ctx, g);
  g->groups = groups;
  g->nc = nc;
  g->ks = ks;
  g->kc = kc;
  if (is_f32) {
    g->f32 = tff_f32_gemm_select(tff_cpu_effective(), m, nc);
    g->mr = g->f32->mr;
    g->nr = g->f32->nr;
    g->esz = sizeof(float);
    g->group_bytes = tff_f32_gemm_packed_size(nc, ks, kc, g->nr) * sizeof(float);
  } else {
    /* Only a GEMV has wsym kernels: the weights are scanned for one. */
    const size_t bytes = (size_t)groups * nc * ks * kc;
    g->qs8 = tff_qs8_qc8w_gemm_select(tff_cpu_effective(), m, ks, kc,
                                      m == 1 && w != NULL && memchr(w, 0x80, bytes) == NULL);
    g->mr = g->qs8->mr;
    g->nr = g->qs8->nr;
    g->esz = 1;
    g->group_bytes = tff_qs8_qc8w_gemm_packed_size(nc, ks, kc, g->nr, g->qs8->kr);
  }
  g->packed = tff_persistent_alloc(ctx, g->group_bytes * (size_t)groups);
  TF_LITE_ENSURE_MSG(ctx, g->packed != NULL, "%s: out of memory", op);
  return kTfLiteOk;
}

static inline const char* tff_gemm_name(const tff_gemm* g) {
  return g->qs8 ? g->qs8->name : (g->f32 ? g->f32->name : "");
}

typedef struct {
  const tff_gemm* g;
  const char* w; /* weights [groups·nc][ks][kc] */
  const float* scales;
} tff_gemm_pack_job;

/* Blocks [begin, end) of nr channels, counted over the groups in order:
 * each block's bytes are the same whichever call packs it. */
static void tff_gemm_pack_task(void* arg, int begin, int end) {
  const tff_gemm_pack_job* j = (const tff_gemm_pack_job*)arg;
  const tff_gemm* g = j->g;
  const int nb = (int)((g->nc + g->nr - 1) / g->nr);
  const size_t kk = g->ks * g->kc, block_bytes = g->group_bytes / (size_t)nb;
  for (int b = begin; b < end;) {
    const int grp = b / nb, b0 = b % nb, b1 = end - b < nb - b0 ? b0 + end - b : nb;
    const size_t n0 = (size_t)b0 * g->nr, c0 = (size_t)grp * g->nc + n0;
    const size_t nc = ((size_t)b1 * g->nr < g->nc ? (size_t)b1 * g->nr : g->nc) - n0;
    char* dst = (char*)g->packed + grp * g->group_bytes + (size_t)b0 * block_bytes;
    if (g->f32)
      g->f32->pack(nc, g->ks, g->kc, g->nr, (const float*)j->w + c0 * kk, (float*)dst);
    else
      g->qs8->pack(nc, g->ks, g->kc, g->nr, g->qs8->kr, (const int8_t*)j->w + c0 * kk,
                   j->scales + c0, 1, dst);
    b += b1 - b0;
  }
}

/* Packs weights [groups·nc][ks][kc] and, for int8, the requantization
 * scales (one per output channel), spread over the interpreter's threads
 * (tff_pack_grain; mobilenet_v2_float: 14 MB). */
static inline void tff_gemm_pack_weights(TfLiteContext* ctx, tff_gemm* g, const void* w,
                                         const float* scales) {
  const tff_gemm_pack_job j = {g, (const char*)w, scales};
  const size_t nb = (g->nc + g->nr - 1) / g->nr, block = g->nr * g->ks * g->kc * g->esz;
  tff_parallel_for(ctx, (int)nb * g->groups, tff_pack_grain(block), tff_gemm_pack_task,
                   (void*)&j);
}

/* int8: init = bias − (z_x + the kernel's extra)·Σw per channel; `tmp` holds
 * groups·nc values. */
static inline void tff_gemm_pack_init(tff_gemm* g, const int32_t* bias, int32_t z,
                                      const int32_t* wsum, int32_t* tmp) {
  tff_fold_zero_point(g->groups * (int)g->nc, bias, z + g->qs8->izp_extra, wsum, tmp);
  for (int grp = 0; grp < g->groups; ++grp)
    tff_qs8_qc8w_gemm_pack_init(g->nc, g->ks, g->kc, g->nr, g->qs8->kr, tmp + grp * g->nc,
                                (char*)g->packed + grp * g->group_bytes);
}

/* float: the bias (NULL: zeros). */
static inline void tff_gemm_pack_bias(tff_gemm* g, const float* bias) {
  for (int grp = 0; grp < g->groups; ++grp)
    tff_f32_gemm_pack_bias(g->nc, g->ks, g->kc, g->nr, bias ? bias + grp * g->nc : NULL,
                           (float*)((char*)g->packed + grp * g->group_bytes));
}

/* Packs what prepare can: the weights (unless float and not constant), the
 * bias (unless not constant), and for int8 the scales of rq and the folded
 * input zero point. Float outputs are clamped to [lo, hi]. */
static inline TfLiteStatus tff_gemm_pack(TfLiteContext* ctx, const char* op, tff_gemm* g,
                                         const TfLiteTensor* in, const TfLiteTensor* filter,
                                         const TfLiteTensor* bias, const tff_requant* rq,
                                         float lo, float hi) {
  g->pack_at_invoke = !(tff_is_constant(filter) && filter->data.data);
  g->bias_at_invoke = bias && !(tff_is_constant(bias) && bias->data.data);
  if (g->f32) {
    g->fp.min = lo;
    g->fp.max = hi;
    if (!g->pack_at_invoke) tff_gemm_pack_weights(ctx, g, filter->data.f, NULL);
    if (!g->bias_at_invoke) tff_gemm_pack_bias(g, bias ? bias->data.f : NULL);
    return kTfLiteOk;
  }
  const int n = g->groups * (int)g->nc;
  g->qp.min_less_zp = rq->lo_less_zp;
  g->qp.max_less_zp = rq->hi_less_zp;
  g->qp.zp = rq->zp;
  g->izp = in->params.zero_point;
  g->wsum = malloc((size_t)n * sizeof(int32_t));
  g->init = malloc((size_t)n * sizeof(int32_t));
  TF_LITE_ENSURE_MSG(ctx, g->wsum && g->init, "%s: out of memory", op);
  /* Sums first: their sequential pass streams the weights from memory into
   * the cache, where the packing's strided reads of nr rows then find them. */
  tff_row_sums_s8(n, (int)(g->ks * g->kc), filter->data.int8, g->wsum);
  tff_gemm_pack_weights(ctx, g, filter->data.int8, rq->scale);
  if (!g->bias_at_invoke) tff_gemm_pack_init(g, bias ? bias->data.i32 : NULL, g->izp, g->wsum,
                                             g->init);
  return kTfLiteOk;
}

/* At invoke: packs what was not constant at prepare. */
static inline void tff_gemm_repack(TfLiteContext* ctx, tff_gemm* g, const TfLiteTensor* filter,
                                   const TfLiteTensor* bias) {
  if (g->pack_at_invoke) tff_gemm_pack_weights(ctx, g, filter->data.f, NULL);
  if (!g->bias_at_invoke) return;
  if (g->f32)
    tff_gemm_pack_bias(g, bias->data.f);
  else
    tff_gemm_pack_init(g, bias->data.i32, g->izp, g->wsum, g->init);
}

typedef struct {
  const tff_gemm* g;
  size_t m;
  const void* const* ind;
  char* out;
  size_t out_stride;
  int nblocks, nsplit;
  int by_slice; /* items slice-major (tile fastest); see tff_gemm_run */
} tff_gemm_job;

/* Rows [m0, m0 + mr) of group grp, channels [n0, n1), weights from w. */
static inline void tff_gemm_tile(const tff_gemm_job* j, int grp, size_t m0, size_t n0, size_t n1,
                                 const char* w) {
  const tff_gemm* g = j->g;
  const size_t mr = j->m - m0 < (size_t)g->mr ? j->m - m0 : (size_t)g->mr;
  char* c = j->out + m0 * j->out_stride + (grp * g->nc + n0) * g->esz;
  const void* const* a = j->ind + m0 * g->ks;
  const size_t a_offset = grp * g->kc * g->esz;
  if (g->f32)
    g->f32->fn(mr, n1 - n0, g->kc, g->ks, (const float* const*)a, a_offset, (const float*)w,
               (float*)c, j->out_stride, &g->fp);
  else
    g->qs8->fn(mr, n1 - n0, g->kc, g->ks, (const int8_t* const*)a, a_offset, w, (int8_t*)c,
               j->out_stride, &g->qp);
}

/* Slice s (of nsplit) of the channel blocks, rows [m0, m0 + mr) of group grp. */
static inline void tff_gemm_slice(const tff_gemm_job* j, int grp, size_t m0, int s,
                                  size_t block_bytes) {
  const tff_gemm* g = j->g;
  const size_t b0 = j->nsplit == 1 ? 0 : (size_t)s * j->nblocks / j->nsplit;
  const size_t b1 = j->nsplit == 1 ? (size_t)j->nblocks
                                   : (size_t)(s + 1) * j->nblocks / j->nsplit;
  const size_t n0 = b0 * g->nr, n1 = b1 * g->nr < g->nc ? b1 * g->nr : g->nc;
  tff_gemm_tile(j, grp, m0, n0, n1,
                (const char*)g->packed + grp * g->group_bytes + b0 * block_bytes);
}

/* Item = (tile of mr rows, group, slice of channel blocks), slice fastest,
 * or by_slice (one group): (slice, tile), tile fastest.
 * The indices are decoded once and then stepped: a 1x1 conv over 112x112
 * pixels runs ~2500 items of ~60 ns, where per-item divisions cost ~15%. */
static void tff_gemm_task(void* arg, int begin, int end) {
  const tff_gemm_job* j = (const tff_gemm_job*)arg;
  const tff_gemm* g = j->g;
  /* Whole rows of one group (every conv but grouped and 7x7 ones at 2
   * threads): only the tile steps. The loop below costs the 1x1 conv over
   * 112x112x32 pixels of mobilenet_v2 7% more. */
  if (j->nsplit == 1 && g->groups == 1) {
    for (size_t m0 = (size_t)begin * g->mr, m1 = (size_t)end * g->mr; m0 < m1; m0 += g->mr)
      tff_gemm_tile(j, 0, m0, 0, g->nc, (const char*)g->packed);
    return;
  }
  const size_t block_bytes = g->group_bytes / (size_t)j->nblocks;
  if (j->by_slice) { /* items of microseconds: the divisions do not count */
    const int tiles = (int)((j->m + g->mr - 1) / g->mr);
    for (int it = begin; it < end; ++it)
      tff_gemm_slice(j, 0, (size_t)(it % tiles) * g->mr, it / tiles, block_bytes);
    return;
  }
  int s = begin % j->nsplit, grp = begin / j->nsplit % g->groups;
  size_t m0 = (size_t)(begin / j->nsplit / g->groups) * g->mr;
  for (int it = begin; it < end; ++it) {
    tff_gemm_slice(j, grp, m0, s, block_bytes);
    if (++s < j->nsplit) continue;
    s = 0;
    if (++grp < g->groups) continue;
    grp = 0;
    m0 += (size_t)g->mr;
  }
}

/* Whether tff_gemm_run of m rows is, at one thread, a single tile with
 * nothing packed at invoke: then tff_gemm_row runs it without the job setup
 * (streaming models' one-pixel convs and batch-1 FCs). */
static inline int tff_gemm_one_tile(const tff_gemm* g, size_t m) {
  return m == 1 && g->groups == 1 && g->nc > 0 && g->kc > 0 && !g->pack_at_invoke &&
         !g->bias_at_invoke;
}
static inline void tff_gemm_row(const tff_gemm* g, const void* const* ind, void* out) {
  const tff_gemm_job j = {g, 1, ind, (char*)out, 0, 1, 1};
  tff_gemm_tile(&j, 0, 0, 0, g->nc, (const char*)g->packed);
}

/* Output rows [0, m) at out + r·out_stride bytes. Threads split row tiles
 * (and channel blocks when there are few tiles), never a sum. The caller
 * checked at prepare that tiles·groups·blocks fits an int. */
static inline void tff_gemm_run(TfLiteContext* ctx, const tff_gemm* g, size_t m,
                                const void* const* ind, void* out, size_t out_stride) {
  tff_gemm_job j = {g, m, ind, (char*)out, out_stride, (int)((g->nc + g->nr - 1) / g->nr), 1, 0};
  const int items = (int)((m + g->mr - 1) / g->mr) * g->groups;
  const int threads = tff_num_threads(ctx);
  /* Float weights past half the L2 (256 KiB; mobilenet_v2's 7x7 layers:
   * 0.4-1.6 MB) are evicted before the next tile reads them again: every
   * tile streamed them from L3. By slices of 4 blocks (64 channels), every
   * tile of a slice in turn, they stream once; at 2 threads each thread
   * streams only its half. */
  if (g->f32 && g->groups == 1 && items > 1 && g->group_bytes > (256u << 10)) {
    j.nsplit = (j.nblocks + 3) / 4;
    j.by_slice = 1;
    tff_parallel_for(ctx, items * j.nsplit, 1, tff_gemm_task, &j);
    return;
  }
  /* At least `each` items a thread, so the last item a thread runs is short
   * next to its share (7x7 layers have 9 tiles). Float: 32, which also
   * splits the 33 tiles of 14x14 layers (one thread ran 17 to the other's
   * 16; 2-5% faster at 2 threads); int8 tiles are cheaper and were 2-3%
   * slower with 32, so 16. */
  const int each = g->f32 ? 32 : 16;
  if (threads > 1 && items < each * threads) {
    const int want = (each * threads + items - 1) / items;
    j.nsplit = want < j.nblocks ? want : j.nblocks;
    /* A float GEMV: slices of ~4 blocks, which the row kernel runs at once
     * (one block is latency-bound, ~4x slower per channel). */
    const int slices4 = (j.nblocks + 3) / 4 > threads ? (j.nblocks + 3) / 4 : threads;
    if (g->f32 && items == 1 && j.nsplit > slices4) j.nsplit = slices4;
  }
  if (items * j.nsplit == 1) { /* one tile (a GEMV): no pool, none of the task's divisions */
    tff_gemm_tile(&j, 0, 0, 0, g->nc, (const char*)g->packed);
    return;
  }
  tff_parallel_for(ctx, items * j.nsplit, 1, tff_gemm_task, &j);
}

#endif /* TFLITE_FAST_OPS_CONV_COMMON_H_ */
