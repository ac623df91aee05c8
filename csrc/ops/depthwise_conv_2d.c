/* DEPTHWISE_CONV_2D over NHWC: float, int8 (per-channel or per-tensor
 * weights) and hybrid (float activations, int8 per-channel weights), any
 * depth multiplier: output channel c = ic·multiplier + m reads input channel
 * ic through filter [0, ky, kx, c]. The filter is already tap-major with
 * contiguous channels, so it is read in place; each output pixel sums its
 * taps over all channels at once.
 * Numerics: conv_common.h; AUTO leaves hybrid DEPTHWISE on TFLite's kernel,
 * so both modes quantize its input like TFLite (asymmetric, per image). */
#include "conv_common.h"
#include "ops.h"

#define OP "DEPTHWISE_CONV_2D"

typedef struct {
  tff_conv_kind kind;
  tff_conv_geom g;
  int cout, mult;
  int32_t* wsum;       /* per output channel: Σ weights over the taps (int8, hybrid) */
  int32_t* init;       /* per output channel: bias − z·Σw (int8, hybrid) */
  int32_t* acc;        /* one output pixel of int32 accumulators */
  const void** taps;   /* one input pointer per filter tap */
  void* pad;           /* in_c values of the input's zero, read by padding taps */
  float* wscales;      /* hybrid: per-channel filter scales */
  tff_requant rq;      /* int8 */
  float lo, hi;        /* float and hybrid clamp */
} OpData;

static void release(OpData* d) {
  free(d->wsum);
  free(d->init);
  free(d->acc);
  free(d->taps);
  free(d->pad);
  free(d->wscales);
  tff_requant_free(&d->rq);
  memset(d, 0, sizeof(*d));
}

static void* init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  return calloc(1, sizeof(OpData));
}

static void free_data(TfLiteContext* ctx, void* data) {
  (void)ctx;
  if (data) release((OpData*)data);
  free(data);
}

static TfLiteStatus alloc_buffers(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                                  const TfLiteTensor* filter) {
  const int ntaps = d->g.k_h * d->g.k_w;
  const size_t esz = d->kind == TFF_CONV_FLOAT ? sizeof(float) : 1;
  d->acc = malloc((size_t)d->cout * sizeof(int32_t));
  d->taps = malloc((size_t)ntaps * sizeof(void*));
  d->pad = calloc((size_t)d->g.in_c, esz);
  TF_LITE_ENSURE_MSG(ctx, d->acc && d->taps && d->pad, OP ": out of memory");
  if (d->kind == TFF_CONV_FLOAT) return kTfLiteOk;
  d->wsum = calloc((size_t)d->cout, sizeof(int32_t));
  d->init = malloc((size_t)d->cout * sizeof(int32_t));
  TF_LITE_ENSURE_MSG(ctx, d->wsum && d->init, OP ": out of memory");
  const int8_t* w = filter->data.int8;
  for (int t = 0; t < ntaps; ++t, w += d->cout) {
    for (int c = 0; c < d->cout; ++c) d->wsum[c] = (int32_t)((uint32_t)d->wsum[c] + (uint32_t)w[c]);
  }
  if (d->kind == TFF_CONV_INT8) memset(d->pad, (int8_t)in->params.zero_point, d->g.in_c);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteDepthwiseConvParams* p = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  release(d);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 || tff_num_inputs(node) == 3,
                     OP ": expected 2 or 3 inputs, got %d", tff_num_inputs(node));
  TF_LITE_ENSURE_MSG(ctx, tff_num_outputs(node) == 1, OP ": expected 1 output, got %d",
                     tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && filter && out && p, OP ": input, filter and output are required");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4, OP ": input must be 4-D (NHWC), got rank %d",
                     tff_rank(in));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(filter) == 4 && tff_dim(filter, 0) == 1,
                     OP ": filter must be 4-D [1, h, w, out]");
  TF_LITE_ENSURE_OK(ctx, tff_conv_kind_of(ctx, OP, in, filter, out, &d->kind));
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, OP, p->activation));
  TF_LITE_ENSURE_MSG(ctx, d->kind == TFF_CONV_FLOAT || (tff_is_constant(filter) && filter->data.data),
                     OP ": an int8 filter must be a constant tensor");

  d->cout = tff_dim(filter, 3);
  TF_LITE_ENSURE_OK(ctx, tff_conv_geom_prepare(ctx, OP, p->padding, p->stride_height,
                                               p->stride_width, p->dilation_height_factor,
                                               p->dilation_width_factor, in, tff_dim(filter, 1),
                                               tff_dim(filter, 2), &d->g));
  TF_LITE_ENSURE_MSG(ctx, d->g.in_c > 0 && d->cout > 0 && d->cout % d->g.in_c == 0,
                     OP ": output channels %d are not a positive multiple of input channels %d",
                     d->cout, d->g.in_c);
  d->mult = d->cout / d->g.in_c;
  if (bias) TF_LITE_ENSURE_OK(ctx, tff_check_bias(ctx, OP, bias, d->kind, d->cout));

  if (d->kind == TFF_CONV_FLOAT) {
    tff_act_range_float(p->activation, &d->lo, &d->hi);
  } else {
    const float* scales;
    int per_channel;
    TF_LITE_ENSURE_OK(
        ctx, tff_filter_scales(ctx, OP, filter, d->cout, 3, &scales, &per_channel));
    if (d->kind == TFF_CONV_INT8) {
      TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, OP, "input", in));
      TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, OP, "output", out));
      TF_LITE_ENSURE_OK(ctx, tff_requant_prepare(ctx, OP, &d->rq,
                                                 tff_numerics_ref(ctx) ? TFF_RQ_MBQM
                                                                       : TFF_RQ_FP32,
                                                 d->cout, in, scales, per_channel, out,
                                                 p->activation));
    } else {
      /* TFLite's hybrid kernel indexes one scale per output channel. */
      TF_LITE_ENSURE_MSG(ctx, per_channel || d->cout == 1,
                         OP ": hybrid filter needs one scale per output channel (%d)", d->cout);
      d->wscales = malloc((size_t)d->cout * sizeof(float));
      TF_LITE_ENSURE_MSG(ctx, d->wscales, OP ": out of memory");
      memcpy(d->wscales, scales, (size_t)d->cout * sizeof(float));
      tff_act_range_float(p->activation, &d->lo, &d->hi);
    }
  }
  const int shape[4] = {d->g.batches, d->g.out_h, d->g.out_w, d->cout};
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, 4, shape));
  TF_LITE_ENSURE_OK(ctx, alloc_buffers(ctx, d, in, filter));
  /* Last: AddTensors may move the tensor array under in/filter/out. */
  if (d->kind != TFF_CONV_HYBRID) return kTfLiteOk;
  return tff_scratch_request(ctx, node, 0, (size_t)d->g.in_h * d->g.in_w * d->g.in_c);
}

/* acc[c] = init[c] + Σ_t taps[t][c / mult]·w[t][c]; uint32 so wrap-around is
 * defined. */
static void dw_s8(int n, int mult, int ntaps, const void* const* taps, const int8_t* w,
                  const int32_t* init, int32_t* acc) {
  uint32_t* a = (uint32_t*)acc;
  for (int c = 0; c < n; ++c) a[c] = (uint32_t)init[c];
  for (int t = 0; t < ntaps; ++t, w += n) {
    const int8_t* x = (const int8_t*)taps[t];
    if (mult == 1) {
      for (int c = 0; c < n; ++c) a[c] += (uint32_t)(x[c] * w[c]);
    } else {
      for (int c = 0, ic = 0; c < n; ++ic) {
        const int32_t xv = x[ic];
        for (int m = 0; m < mult; ++m, ++c) a[c] += (uint32_t)(xv * w[c]);
      }
    }
  }
}

/* The float twin: bias first, then the taps in filter order. */
static void dw_f32(int n, int mult, int ntaps, const void* const* taps, const float* w,
                   const float* bias, float* acc) {
  for (int c = 0; c < n; ++c) acc[c] = bias ? bias[c] : 0.0f;
  for (int t = 0; t < ntaps; ++t, w += n) {
    const float* x = (const float*)taps[t];
    if (mult == 1) {
      for (int c = 0; c < n; ++c) acc[c] += x[c] * w[c];
    } else {
      for (int c = 0, ic = 0; c < n; ++ic) {
        const float xv = x[ic];
        for (int m = 0; m < mult; ++m, ++c) acc[c] += xv * w[c];
      }
    }
  }
}

static TfLiteStatus eval(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const tff_conv_geom* g = &d->g;
  if (tff_num_elements(out->dims) == 0) return kTfLiteOk;
  const int ntaps = g->k_h * g->k_w;
  const size_t in_image = (size_t)g->in_h * g->in_w * g->in_c;
  const size_t in_esz = d->kind == TFF_CONV_INT8 ? 1 : sizeof(float);
  const size_t tap_pixel = (size_t)g->in_c * (d->kind == TFF_CONV_FLOAT ? sizeof(float) : 1);
  const size_t out_pixel = (size_t)d->cout * (d->kind == TFF_CONV_INT8 ? 1 : sizeof(float));
  const float* fbias = bias && d->kind != TFF_CONV_INT8 ? bias->data.f : NULL;
  if (d->kind == TFF_CONV_INT8)
    tff_fold_zero_point(d->cout, bias ? bias->data.i32 : NULL, in->params.zero_point, d->wsum,
                        d->init);
  char* outp = out->data.raw;
  for (int b = 0; b < g->batches; ++b) {
    const char* image = in->data.raw + b * in_image * in_esz;
    float dq = 1.0f;
    if (d->kind == TFF_CONV_HYBRID) {
      int8_t* q = (int8_t*)tff_scratch(ctx, node, 0);
      int32_t zp = 0;
      tff_quantize_asym_tfl((const float*)image, in_image, q, &dq, &zp);
      memset(d->pad, (int8_t)zp, g->in_c);
      tff_fold_zero_point(d->cout, NULL, zp, d->wsum, d->init);
      image = (const char*)q;
    }
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox, outp += out_pixel) {
        tff_conv_taps(g, image, tap_pixel, d->pad, oy, ox, d->taps);
        if (d->kind == TFF_CONV_FLOAT) {
          float* o = (float*)outp;
          dw_f32(d->cout, d->mult, ntaps, d->taps, filter->data.f, fbias, o);
          for (int c = 0; c < d->cout; ++c) {
            const float v = o[c] < d->lo ? d->lo : o[c];
            o[c] = v > d->hi ? d->hi : v;
          }
          continue;
        }
        dw_s8(d->cout, d->mult, ntaps, d->taps, filter->data.int8, d->init, d->acc);
        if (d->kind == TFF_CONV_INT8)
          tff_requant_row(&d->rq, d->acc, d->cout, (int8_t*)outp);
        else
          tff_hybrid_row(TFF_HYB_TFL_ASYM, d->acc, d->cout, dq, d->wscales, 1, fbias, d->lo,
                         d->hi, (float*)outp);
      }
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_DEPTHWISE_CONV_2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = eval,
                                       .builtin_code = kTfLiteBuiltinDepthwiseConv2d,
                                       .version = 1};
  return &r;
}
