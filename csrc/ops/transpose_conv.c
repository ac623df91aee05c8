/* TRANSPOSE_CONV: the gradient of CONV_2D with respect to its input.
 * Inputs: output_shape (INT32 [4]), filter [C_out, kh, kw, C_in], input
 * [N, h, w, C_in], optional bias [C_out]; output [N, H, W, C_out] as
 * output_shape says, which must hold its values at prepare. The padding is
 * that of a CONV_2D from the output size to the input size, and that conv
 * must give back exactly h x w (TFLite's check).
 *
 * Every input pixel scatters its C_in vector times each filter tap into the
 * output pixel under the tap: acc[oy, ox, :] += W[:, ky, kx, :]·x, with
 * oy = iy·stride − pad_top + ky (TFLite's optimized kernel: a GEMM, then
 * col2im).
 *
 * Numerics. float32: exact sums in any order, within 1e-5 of TFLite and
 * XNNPACK. int8 (per-channel or per-tensor filter, zero point 0):
 * acc = bias + Σ w·(x − z_x) exactly, then
 *  - reference: MBQM with QM((double)s_x·s_w[c]/s_y), TFLite bounds;
 *  - default, when AUTO's XNNPACK takes the node (output_shape, filter and
 *    bias model constants; SAME needs kernel >= stride, VALID kernel <=
 *    output): XNNPACK deconvolution, fp32 with f32(f32(s_x·s_w[c])/s_y);
 *  - default otherwise (e.g. output_shape computed by SHAPE/PACK, as the
 *    converter emits it): TFLite's optimized kernel, whose Quantize() runs
 *    NEON code (through NEON_2_SSE on x86) on channel blocks of 8:
 *      a = acc << L (int32), h = (a·M + 2^30) >> 31,
 *      y = (h + 2^(R−1)) >> R (vrshl, ties up), with R = max(−e, 1) and
 *      L = e + R; the channels past the last block of 8 use scalar MBQM.
 *    The source reads vqdmulh (truncating), but the oracle rounds h half up
 *    as vqrdmulh does: measured, 0 of 16384 outputs differ this way, 3
 *    with truncation. */
#include <limits.h>

#include "conv_common.h"
#include "ops.h"

enum { SCHEME_FLOAT, SCHEME_REF, SCHEME_XNN, SCHEME_OPT };

typedef struct OpData {
  int scheme;
  int kh, kw, cin, cout, sh, sw, pad_t, pad_l;
  int packed_ok;      /* filter packed at prepare (constant filter) */
  void* packed;       /* [kh][kw][cin][cout] filter, elements of the input type */
  tff_requant rq;     /* int8 per-channel requantization */
  float flo, fhi;     /* float activation bounds */
} OpData;

TFF_ZEROED_INIT(init, OpData)

static void release(TfLiteContext* ctx, void* data) {
  OpData* d = (OpData*)data;
  if (d) {
    tff_persistent_free(ctx, d->packed);
    tff_requant_free(&d->rq);
  }
  free(d);
}

enum { SCRATCH_ACC = 0, SCRATCH_COL = 1 };

/* [C_out][kh][kw][C_in] -> [C_in][kh][kw][C_out]: one input channel's row
 * holds every product it contributes to, tap-major. */
#define PACK(T)                                                                       \
  static void pack_##T(const OpData* d, const T* w, T* p) {                           \
    const size_t taps = (size_t)d->kh * d->kw;                                        \
    for (int ci = 0; ci < d->cin; ++ci)                                               \
      for (size_t t = 0; t < taps; ++t)                                               \
        for (int co = 0; co < d->cout; ++co)                                          \
          p[((size_t)ci * taps + t) * d->cout + co] = w[((size_t)co * taps + t) * d->cin + ci]; \
  }
PACK(float)
PACK(int8_t)
#undef PACK

/* The scatter. Per input pixel, col = Σ_ci X(x[ci])·w[ci] over the packed
 * rows (kh·kw·C_out products, one long vector loop), then each tap's slice
 * of col is added to the output pixel under it (col2im). `ACC` is the
 * accumulator type; acc holds N x H x W x C_out, already initialized; col
 * has kh·kw·C_out elements. */
#define SCATTER(NAME, T, ACC, X)                                                          \
  static void NAME(const OpData* d, int batches, int ih, int iw, int oh, int ow,          \
                   const T* in, const T* w, int32_t zx, ACC* col, ACC* acc) {             \
    (void)zx;                                                                             \
    const int cin = d->cin, cout = d->cout;                                               \
    const size_t row = (size_t)d->kh * d->kw * cout;                                      \
    for (int n = 0; n < batches; ++n) {                                                   \
      for (int iy = 0; iy < ih; ++iy) {                                                   \
        for (int ix = 0; ix < iw; ++ix) {                                                 \
          const T* x = in + (((size_t)n * ih + iy) * iw + ix) * cin;                      \
          for (size_t j = 0; j < row; ++j) col[j] = 0;                                    \
          for (int ci = 0; ci < cin; ++ci) {                                              \
            const ACC v = X(x[ci]);                                                       \
            const T* wr = w + (size_t)ci * row;                                           \
            for (size_t j = 0; j < row; ++j) col[j] += v * (ACC)wr[j];                    \
          }                                                                               \
          for (int ky = 0; ky < d->kh; ++ky) {                                            \
            const int oy = iy * d->sh - d->pad_t + ky;                                    \
            if (oy < 0 || oy >= oh) continue;                                             \
            for (int kx = 0; kx < d->kw; ++kx) {                                          \
              const int ox = ix * d->sw - d->pad_l + kx;                                  \
              if (ox < 0 || ox >= ow) continue;                                           \
              ACC* o = acc + (((size_t)n * oh + oy) * ow + ox) * cout;                    \
              const ACC* c = col + (size_t)(ky * d->kw + kx) * cout;                      \
              for (int co = 0; co < cout; ++co) o[co] += c[co];                           \
            }                                                                             \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
#define X_FLOAT(v) (v)
#define X_S8(v) ((uint32_t)((int32_t)(v) - zx))
SCATTER(scatter_f32, float, float, X_FLOAT)
SCATTER(scatter_s8, int8_t, uint32_t, X_S8)
#undef X_FLOAT
#undef X_S8
#undef SCATTER

/* TFLite's optimized Quantize() on one output pixel's channels. */
static void requant_opt(const tff_requant* rq, const int32_t* acc, int n, int8_t* out) {
  const int blocks = n - n % 8;
  for (int c = 0; c < n; ++c) {
    int32_t v;
    if (c < blocks) {
      const int e = rq->shift[c];
      const int right = e < -1 ? -e : 1;
      const int32_t a = (int32_t)((uint32_t)acc[c] << (e + right));
      const int32_t h = (int32_t)(((int64_t)a * rq->mult[c] + (1LL << 30)) >> 31);
      v = (int32_t)(((int64_t)h + ((int64_t)1 << (right - 1))) >> right);
    } else {
      v = tff_mbqm(acc[c], rq->mult[c], rq->shift[c]);
    }
    v += rq->zp;
    v = v < rq->lo ? rq->lo : (v > rq->hi ? rq->hi : v);
    out[c] = (int8_t)v;
  }
}

/* AUTO's XNNPACK delegate takes the node only with these inputs constant in
 * the model and a geometry its deconvolution accepts. */
static int xnnpack_takes(const TfLiteTensor* shape, const TfLiteTensor* filter,
                         const TfLiteTensor* bias, TfLitePadding padding, int oh, int ow,
                         const OpData* d) {
  if (shape->allocation_type != kTfLiteMmapRo || filter->allocation_type != kTfLiteMmapRo) return 0;
  if (bias && bias->allocation_type != kTfLiteMmapRo) return 0;
  if (padding == kTfLitePaddingSame) return d->kh >= d->sh && d->kw >= d->sw;
  return d->kh <= oh && d->kw <= ow;
}

static TfLiteStatus prepare_q8(TfLiteContext* ctx, const TfLiteTensor* shape,
                               const TfLiteTensor* filter, const TfLiteTensor* in,
                               const TfLiteTensor* bias, TfLiteTensor* out,
                               const TfLiteTransposeConvParams* p, OpData* d) {
  TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, "TRANSPOSE_CONV", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, "TRANSPOSE_CONV", "output", out));
  const float* ws;
  int per_channel;
  TF_LITE_ENSURE_OK(ctx, tff_filter_scales(ctx, "TRANSPOSE_CONV", filter, d->cout, 0, &ws,
                                           &per_channel));
  tff_rq_scheme rs = TFF_RQ_MBQM;
  d->scheme = SCHEME_REF;
  if (!tff_numerics_ref(ctx)) {
    const int xnn = xnnpack_takes(shape, filter, bias, p->padding, tff_dim(out, 1),
                                  tff_dim(out, 2), d);
    d->scheme = xnn ? SCHEME_XNN : SCHEME_OPT;
    rs = xnn ? TFF_RQ_FP32 : TFF_RQ_MBQM;
  }
  return tff_requant_prepare(ctx, "TRANSPOSE_CONV", &d->rq, rs, d->cout, in, ws, per_channel,
                             out, p->activation);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "TRANSPOSE_CONV: out of memory");
  const int ni = tff_num_inputs(node);
  TF_LITE_ENSURE_MSG(ctx, (ni == 3 || ni == 4) && tff_num_outputs(node) == 1,
                     "TRANSPOSE_CONV: expected 3 or 4 inputs and 1 output, got %d and %d", ni,
                     tff_num_outputs(node));
  const TfLiteTensor* shape = tff_input(ctx, node, 0);
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* in = tff_input(ctx, node, 2);
  const TfLiteTensor* bias = tff_input(ctx, node, 3);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, shape && filter && in && out,
                     "TRANSPOSE_CONV: an input or the output is missing");
  const TfLiteTransposeConvParams* p = (const TfLiteTransposeConvParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL, "TRANSPOSE_CONV: options are missing");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4 && tff_rank(filter) == 4,
                     "TRANSPOSE_CONV: input and filter must have 4 dims, got %d and %d",
                     tff_rank(in), tff_rank(filter));
  tff_conv_kind kind;
  TF_LITE_ENSURE_OK(ctx, tff_conv_kind_of(ctx, "TRANSPOSE_CONV", in, filter, out, &kind));
  TF_LITE_ENSURE_MSG(ctx, kind != TFF_CONV_HYBRID,
                     "TRANSPOSE_CONV: float input with int8 filter (hybrid) is not supported");
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, "TRANSPOSE_CONV", p->activation));
  TF_LITE_ENSURE_MSG(ctx, p->stride_height > 0 && p->stride_height <= INT16_MAX &&
                              p->stride_width > 0 && p->stride_width <= INT16_MAX,
                     "TRANSPOSE_CONV: strides %d x %d must be in [1, 32767]", p->stride_height,
                     p->stride_width);
  TF_LITE_ENSURE_MSG(ctx, p->padding == kTfLitePaddingSame || p->padding == kTfLitePaddingValid,
                     "TRANSPOSE_CONV: unknown padding %d", (int)p->padding);
  d->cout = tff_dim(filter, 0);
  d->kh = tff_dim(filter, 1);
  d->kw = tff_dim(filter, 2);
  d->cin = tff_dim(filter, 3);
  d->sh = p->stride_height;
  d->sw = p->stride_width;
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 1) > 0 && tff_dim(in, 2) > 0 && tff_dim(in, 3) > 0 &&
                              d->cout > 0 && d->kh > 0 && d->kw > 0,
                     "TRANSPOSE_CONV: input and filter dims must be positive");
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 3) == d->cin,
                     "TRANSPOSE_CONV: input has %d channels, the filter %d", tff_dim(in, 3),
                     d->cin);
  if (bias) TF_LITE_ENSURE_OK(ctx, tff_check_bias(ctx, "TRANSPOSE_CONV", bias, kind, d->cout));
  /* The output shape. */
  TF_LITE_ENSURE_MSG(ctx, shape->type == kTfLiteInt32 && tff_rank(shape) == 1 &&
                              tff_dim(shape, 0) == 4,
                     "TRANSPOSE_CONV: output_shape must be an INT32 vector of 4 elements");
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(shape),
                     "TRANSPOSE_CONV: output_shape tensor %d is not constant; dynamic shapes "
                     "are not supported yet", node->inputs->data[0]);
  const int* dims = shape->data.i32;
  TF_LITE_ENSURE_MSG(ctx, dims[0] == tff_dim(in, 0) && dims[1] > 0 && dims[2] > 0 &&
                              dims[3] == d->cout,
                     "TRANSPOSE_CONV: output shape [%d, %d, %d, %d] does not fit input batch %d "
                     "and %d output channels", dims[0], dims[1], dims[2], dims[3],
                     tff_dim(in, 0), d->cout);
  /* The conv from the output back to the input must give the input size. */
  const int oh = dims[1], ow = dims[2];
  TF_LITE_ENSURE_MSG(ctx, oh <= INT_MAX / 4 && ow <= INT_MAX / 4 && d->kh <= INT_MAX / 4 &&
                              d->kw <= INT_MAX / 4,
                     "TRANSPOSE_CONV: output %d x %d or filter %d x %d is too large", oh, ow,
                     d->kh, d->kw);
  const int eh = tff_conv_out_size(p->padding, oh, d->kh, d->sh, 1);
  const int ew = tff_conv_out_size(p->padding, ow, d->kw, d->sw, 1);
  TF_LITE_ENSURE_MSG(ctx, eh == tff_dim(in, 1) && ew == tff_dim(in, 2),
                     "TRANSPOSE_CONV: output %d x %d with this filter, stride and padding "
                     "comes from a %d x %d input, not %d x %d", oh, ow, eh, ew, tff_dim(in, 1),
                     tff_dim(in, 2));
  int off;
  d->pad_t = tff_conv_pad(d->sh, 1, oh, d->kh, eh, &off);
  d->pad_l = tff_conv_pad(d->sw, 1, ow, d->kw, ew, &off);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, 4, dims));
  /* Numerics and the packed filter. */
  const size_t es = kind == TFF_CONV_FLOAT ? sizeof(float) : 1;
  tff_persistent_free(ctx, d->packed);
  d->packed = tff_persistent_alloc(ctx, (size_t)d->kh * d->kw * d->cin * d->cout * es);
  TF_LITE_ENSURE_MSG(ctx, d->packed != NULL, "TRANSPOSE_CONV: out of memory");
  d->packed_ok = tff_is_constant(filter);
  if (kind == TFF_CONV_FLOAT) {
    d->scheme = SCHEME_FLOAT;
    tff_act_range_float(p->activation, &d->flo, &d->fhi);
    if (d->packed_ok) pack_float(d, filter->data.f, (float*)d->packed);
    TF_LITE_ENSURE_OK(ctx, tff_scratch_request(ctx, node, SCRATCH_ACC, 0));
    return tff_scratch_request(ctx, node, SCRATCH_COL,
                               (size_t)d->kh * d->kw * d->cout * sizeof(float));
  }
  TF_LITE_ENSURE_OK(ctx, prepare_q8(ctx, shape, filter, in, bias, out, p, d));
  if (d->packed_ok) pack_int8_t(d, filter->data.int8, (int8_t*)d->packed);
  TF_LITE_ENSURE_OK(ctx, tff_scratch_request(ctx, node, SCRATCH_ACC,
                                             tff_num_elements(out->dims) * sizeof(int32_t)));
  return tff_scratch_request(ctx, node, SCRATCH_COL,
                             (size_t)d->kh * d->kw * d->cout * sizeof(uint32_t));
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* in = tff_input(ctx, node, 2);
  const TfLiteTensor* bias = tff_input(ctx, node, 3);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int batches = tff_dim(out, 0), oh = tff_dim(out, 1), ow = tff_dim(out, 2);
  const int ih = tff_dim(in, 1), iw = tff_dim(in, 2);
  const size_t pixels = (size_t)batches * oh * ow;
  const int cout = d->cout;
  if (d->scheme == SCHEME_FLOAT) {
    if (!d->packed_ok) pack_float(d, filter->data.f, (float*)d->packed);
    float* o = out->data.f;
    for (size_t i = 0; i < pixels * cout; ++i) o[i] = 0.0f;
    scatter_f32(d, batches, ih, iw, oh, ow, in->data.f, (const float*)d->packed, 0,
                (float*)tff_scratch(ctx, node, SCRATCH_COL), o);
    for (size_t px = 0; px < pixels; ++px, o += cout) {
      for (int c = 0; c < cout; ++c) {
        float v = o[c] + (bias ? bias->data.f[c] : 0.0f);
        v = v < d->flo ? d->flo : v;
        o[c] = v > d->fhi ? d->fhi : v;
      }
    }
    return kTfLiteOk;
  }
  if (!d->packed_ok) pack_int8_t(d, filter->data.int8, (int8_t*)d->packed);
  uint32_t* acc = (uint32_t*)tff_scratch(ctx, node, SCRATCH_ACC);
  for (size_t px = 0; px < pixels; ++px)
    for (int c = 0; c < cout; ++c) acc[px * cout + c] = bias ? (uint32_t)bias->data.i32[c] : 0u;
  scatter_s8(d, batches, ih, iw, oh, ow, in->data.int8, (const int8_t*)d->packed,
             tff_zero_point(in), (uint32_t*)tff_scratch(ctx, node, SCRATCH_COL), acc);
  int8_t* o = out->data.int8;
  for (size_t px = 0; px < pixels; ++px) {
    const int32_t* a = (const int32_t*)acc + px * cout;
    if (d->scheme == SCHEME_OPT) {
      requant_opt(&d->rq, a, cout, o + px * cout);
    } else {
      tff_requant_row(&d->rq, a, cout, o + px * cout);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_TRANSPOSE_CONV(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = release,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinTransposeConv,
                                       .version = 1};
  return &r;
}
