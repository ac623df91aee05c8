/* Shared by CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: type and
 * quantization checks, output geometry, the three int8 requantization
 * schemes, the three ways of quantizing a float input on the fly (hybrid
 * ops), and the packed int8/float GEMM the convolutions and FC run on.
 *
 * Numerics (docs/numerics.md §1.4, §2.4; measured against ai-edge-litert):
 *  - int8, default: XNNPACK fp32, scale f32(f32(s_x*s_w[c])/s_y).
 *  - int8, reference: CONV/DW use MBQM with QuantizeMultiplier of the double
 *    s_x*s_w[c]/s_y; FC (reference kernel since 2025) rounds
 *    double(acc)*that scale half away from zero instead.
 *  - hybrid: the float input is quantized per batch row (FC) or per image
 *    (conv), the int8 GEMM runs, and acc*dq_scale*s_w[c] + bias is the output.
 *    Default mode quantizes like XNNPACK's qd8 convert (CONV, FC); reference
 *    mode and DEPTHWISE (left on the builtin kernel by AUTO) like TFLite's
 *    tensor_utils as built for x86.
 * Accumulators: acc = bias - z_x*Σw + Σ w·x, taps in padding read a buffer
 * holding the input's zero, so folding z_x is exact at the borders too.
 */
#ifndef TFLITE_FAST_OPS_CONV_COMMON_H_
#define TFLITE_FAST_OPS_CONV_COMMON_H_

#include <limits.h>
#include <stdlib.h>

#include "kernel_util.h"

typedef enum { TFF_CONV_FLOAT, TFF_CONV_INT8, TFF_CONV_HYBRID } tff_conv_kind;

/* Input/filter/output types: float/float/float, int8/int8/int8 or the hybrid
 * float/int8/float; anything else is named in the message. */
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
  void* mem; /* owns the per-channel arrays below */
  float* scale;
  double* dscale;
  int32_t* mult;
  int32_t* shift;
  int32_t zp, lo, hi;
  float lo_less_zp, hi_less_zp;
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
  if (scheme == TFF_RQ_FP32) {
    tff_act_range_quant_xnn(act, sy, rq->zp, -128, 127, &rq->lo, &rq->hi);
    rq->lo_less_zp = (float)(rq->lo - rq->zp);
    rq->hi_less_zp = (float)(rq->hi - rq->zp);
    return kTfLiteOk;
  }
  return tff_act_range_quant(ctx, act, out, &rq->lo, &rq->hi);
}

/* out[c] = requantized acc[c] for c < n. */
static inline void tff_requant_row(const tff_requant* rq, const int32_t* acc, int n,
                                   int8_t* out) {
  switch (rq->scheme) {
    case TFF_RQ_FP32:
      for (int c = 0; c < n; ++c)
        out[c] = (int8_t)tff_requant_fp32(acc[c], rq->scale[c], rq->lo_less_zp, rq->hi_less_zp,
                                          rq->zp);
      break;
    case TFF_RQ_MBQM:
      for (int c = 0; c < n; ++c) {
        int32_t v = tff_mbqm(acc[c], rq->mult[c], rq->shift[c]) + rq->zp;
        v = v < rq->lo ? rq->lo : (v > rq->hi ? rq->hi : v);
        out[c] = (int8_t)v;
      }
      break;
    case TFF_RQ_DOUBLE:
      for (int c = 0; c < n; ++c) {
        double r = round((double)acc[c] * rq->dscale[c]);
        r = r > 1e9 ? 1e9 : (r >= -1e9 ? r : -1e9); /* keeps the cast defined */
        int32_t v = (int32_t)r + rq->zp;
        v = v < rq->lo ? rq->lo : (v > rq->hi ? rq->hi : v);
        out[c] = (int8_t)v;
      }
      break;
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

/* ---- packed GEMM: the inner loops run over TFF_NR contiguous channels ---- */
#define TFF_NR 16

/* Elements of a packed [n][k] matrix: n rounded up to TFF_NR. */
static inline size_t tff_packed_elems(int n, int k) {
  return (size_t)((n + TFF_NR - 1) / TFF_NR) * TFF_NR * (size_t)k;
}

/* Row-major [n][k] to tiles of TFF_NR rows, each tile k-major (row n0+j at
 * position j of each group of TFF_NR), zero past row n. */
#define TFF_DEFINE_PACK(name, T)                                                  \
  static inline void name(int n, int k, const T* w, T* packed) {                  \
    for (int n0 = 0; n0 < n; n0 += TFF_NR) {                                      \
      for (int i = 0; i < k; ++i) {                                               \
        for (int j = 0; j < TFF_NR; ++j)                                          \
          *packed++ = n0 + j < n ? w[(size_t)(n0 + j) * k + i] : (T)0;            \
      }                                                                           \
    }                                                                             \
  }
TFF_DEFINE_PACK(tff_pack_s8, int8_t)
TFF_DEFINE_PACK(tff_pack_f32, float)
#undef TFF_DEFINE_PACK

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

/* The float twin: bias first, then taps and channels in filter order, one
 * sequential sum per output as XNNPACK's GEMM does (up to its FMA). */
static inline void tff_igemm_f32(int n, int ntaps, int cin, const void* const* taps, size_t off,
                                 const float* packed, const float* init, float* acc) {
  const size_t k = (size_t)ntaps * cin;
  for (int n0 = 0; n0 < n; n0 += TFF_NR) {
    const int nr = n - n0 < TFF_NR ? n - n0 : TFF_NR;
    const float* w = packed + (size_t)n0 * k;
    float a[TFF_NR];
    for (int j = 0; j < TFF_NR; ++j) a[j] = init && j < nr ? init[n0 + j] : 0.0f;
    for (int t = 0; t < ntaps; ++t) {
      const float* x = (const float*)taps[t] + off;
      for (int i = 0; i < cin; ++i, w += TFF_NR) {
        const float xv = x[i];
        for (int j = 0; j < TFF_NR; ++j) a[j] += xv * w[j];
      }
    }
    for (int j = 0; j < nr; ++j) acc[n0 + j] = a[j];
  }
}

/* sums[c] = Σ_i w[c][i] over a row-major [n][k] int8 matrix. */
static inline void tff_row_sums_s8(int n, int k, const int8_t* w, int32_t* sums) {
  for (int c = 0; c < n; ++c) {
    uint32_t s = 0;
    for (int i = 0; i < k; ++i) s += (uint32_t)w[(size_t)c * k + i];
    sums[c] = (int32_t)s;
  }
}

/* init[c] = bias[c] − z·sums[c] (bias may be NULL), wrapping like the GEMM. */
static inline void tff_fold_zero_point(int n, const int32_t* bias, int32_t z,
                                       const int32_t* sums, int32_t* init) {
  for (int c = 0; c < n; ++c)
    init[c] = (int32_t)((bias ? (uint32_t)bias[c] : 0u) - (uint32_t)z * (uint32_t)sums[c]);
}

#endif /* TFLITE_FAST_OPS_CONV_COMMON_H_ */
