/* DEPTHWISE_CONV_2D over NHWC: float, int8 (per-channel or per-tensor
 * weights) and hybrid (float activations, int8 per-channel weights), any
 * depth multiplier: output channel c = ic·multiplier + m reads input channel
 * ic through filter [0, ky, kx, c]. The filter is already tap-major with
 * contiguous channels, so it is read in place; each output pixel sums its
 * taps over all channels at once.
 * Numerics: conv_common.h; AUTO leaves hybrid DEPTHWISE on TFLite's kernel,
 * so both modes quantize its input like TFLite (asymmetric, per image).
 *
 * Multiplier 1 with constant weights (all of MobileNet's) runs on the
 * dwconv microkernels instead: int8 in default mode (fp32 requantization)
 * and float. Weights, bias and scales are packed at prepare for the kernel
 * the CPU's best ISA offers; an indirection buffer holds each output
 * pixel's tap pointers into the first image (built at invoke whenever the
 * input's address differs from the one it was built for; later images are
 * reached through the kernel's input offset), and output rows are spread
 * over the interpreter's threads. Rows whose taps all lie inside the image
 * vertically share one indirection row, shifted to theirs by the input
 * offset too, so the buffer stays small and cache-resident. An int8 node
 * with one output pixel over a column or row of taps inside the image
 * (streaming models) calls the ISA's column kernel directly instead: taps
 * at a constant stride, no indirection, nothing else of the node read at
 * invoke. Reference mode and the rest keep the portable loops below, which
 * share the numerics bit for bit.
 * 16x8 (int16 activations): TFLite's reference loop in both modes,
 * conv_int16.h. */
#include "../runtime/alias.h"
#include "conv_common.h"
#include "conv_int16.h"
#include "cpu/cpu.h"
#include "ops.h"
#include "threadpool.h"
#include "ukernels/f32-dwconv/f32-dwconv.h"
#include "ukernels/qs8-qc8w-dwconv/qs8-qc8w-dwconv.h"

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
  /* microkernel path (one of q8/f32 set) */
  const tff_qs8_qc8w_dwconv_config* q8;
  const tff_f32_dwconv_config* f32;
  tff_qs8_dwconv_params q8p;
  tff_f32_dwconv_params f32p;
  void* packed;        /* weights in the kernel's tile layout */
  const void** ind;    /* ind_rows·out_w·taps tap pointers into image 0 or pad */
  int r0, r1;          /* rows [r0, r1) read row r0's indirection (else r0 = r1 = out_h) */
  const char* ind_base; /* input data the indirection points into */
  /* int8, one output pixel whose taps lie inside the image along a column
   * (or a row): the column kernel reads tap t at in + t·col_stride */
  tff_qs8_qc8w_dwconv_col_fn col;
  size_t col_stride;
  const char* kernel;  /* profiling string */
  int int16;           /* 16x8 */
  tff_rq16 rq16;
} OpData;

static void release(TfLiteContext* ctx, OpData* d) {
  free(d->wsum);
  free(d->init);
  free(d->acc);
  free(d->taps);
  free(d->pad);
  free(d->wscales);
  tff_persistent_free(ctx, d->packed);
  free(d->ind);
  tff_requant_free(&d->rq);
  tff_rq16_free(&d->rq16);
  memset(d, 0, sizeof(*d));
}

TFF_ZEROED_INIT(init, OpData)

static void free_data(TfLiteContext* ctx, void* data) {
  if (data) release(ctx, (OpData*)data);
  free(data);
}

static TfLiteStatus alloc_buffers(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                                  const TfLiteTensor* filter) {
  const int ntaps = d->g.k_h * d->g.k_w;
  const size_t esz = d->kind == TFF_CONV_FLOAT ? sizeof(float) : 1;
  d->pad = calloc((size_t)d->g.in_c, esz);
  TF_LITE_ENSURE_MSG(ctx, d->pad, OP ": out of memory");
  if (d->kind == TFF_CONV_INT8) memset(d->pad, (int8_t)in->params.zero_point, d->g.in_c);
  if (d->q8 || d->f32) return kTfLiteOk; /* the microkernels need only the zero pixel */
  d->acc = malloc((size_t)d->cout * sizeof(int32_t));
  d->taps = malloc((size_t)ntaps * sizeof(void*));
  TF_LITE_ENSURE_MSG(ctx, d->acc && d->taps, OP ": out of memory");
  if (d->kind == TFF_CONV_FLOAT) return kTfLiteOk;
  d->wsum = calloc((size_t)d->cout, sizeof(int32_t));
  d->init = malloc((size_t)d->cout * sizeof(int32_t));
  TF_LITE_ENSURE_MSG(ctx, d->wsum && d->init, OP ": out of memory");
  const int8_t* w = filter->data.int8;
  for (int t = 0; t < ntaps; ++t, w += d->cout) {
    for (int c = 0; c < d->cout; ++c) d->wsum[c] = (int32_t)((uint32_t)d->wsum[c] + w[c]);
  }
  return kTfLiteOk;
}

static int constant_or_absent(const TfLiteTensor* t) {
  return t == NULL || (tff_is_constant(t) && t->data.data != NULL);
}

/* The indirection row output row oy reads (oy = out_h: the row count). */
static int ind_row(const OpData* d, int oy) {
  if (oy <= d->r0) return oy;
  return oy < d->r1 ? d->r0 : oy - (d->r1 - d->r0) + 1;
}

/* Sets d->col when the int8 node has one output pixel whose taps all lie in
 * the image (from its first pixel: no padding before) along one filter
 * column or row and the kernel's tile fits the channels. Streaming models'
 * depthwise convs (a [1, taps, 1, C] window) are all of this. */
static void prepare_col(OpData* d) {
  const tff_conv_geom* g = &d->g;
  const int inside = g->pad_t == 0 && g->pad_l == 0 &&
                     (int64_t)(g->k_h - 1) * g->dil_h < g->in_h &&
                     (int64_t)(g->k_w - 1) * g->dil_w < g->in_w;
  if (g->batches != 1 || g->out_h != 1 || g->out_w != 1 || !inside ||
      (g->k_h != 1 && g->k_w != 1) || (size_t)d->cout < d->q8->tile)
    return;
  d->col = d->q8->col;
  d->kernel = d->q8->col_name;
  d->col_stride = (g->k_w == 1 ? (size_t)g->dil_h * g->in_w : (size_t)g->dil_w) * g->in_c;
}

/* Chooses and feeds a dwconv microkernel when the node fits one (multiplier
 * 1, constant weights and bias, not reference numerics); else leaves q8 and
 * f32 NULL. */
static TfLiteStatus prepare_ukernel(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                                    const TfLiteTensor* filter, const TfLiteTensor* bias) {
  d->kernel = d->kind == TFF_CONV_HYBRID ? "depthwise_hybrid_portable"
              : d->kind == TFF_CONV_INT8  ? tff_requant_label(&d->rq, "depthwise_portable")
                                          : "depthwise_portable";
  const size_t taps = (size_t)d->g.k_h * d->g.k_w, c = (size_t)d->cout;
  const int fits = d->mult == 1 && constant_or_absent(filter) && constant_or_absent(bias);
  if (fits && d->kind == TFF_CONV_INT8 && d->rq.scheme == TFF_RQ_FP32) {
    d->q8 = tff_qs8_qc8w_dwconv_select(tff_cpu_effective(), taps, c);
    d->packed = tff_persistent_alloc(ctx, tff_qs8_qc8w_dwconv_packed_size(d->q8, c, taps));
    TF_LITE_ENSURE_MSG(ctx, d->packed, OP ": out of memory");
    tff_qs8_qc8w_dwconv_pack(d->q8, c, taps, filter->data.int8,
                             bias ? bias->data.i32 : NULL, in->params.zero_point, d->rq.scale,
                             d->packed);
    d->q8p = (tff_qs8_dwconv_params){d->rq.lo_less_zp, d->rq.hi_less_zp, d->rq.zp};
    d->kernel = d->q8->name;
    prepare_col(d);
  } else if (fits && d->kind == TFF_CONV_FLOAT) {
    d->f32 = tff_f32_dwconv_select(tff_cpu_effective(), taps);
    d->packed = tff_persistent_alloc(ctx, tff_f32_dwconv_packed_size(c, taps, d->f32->tile));
    TF_LITE_ENSURE_MSG(ctx, d->packed, OP ": out of memory");
    tff_f32_dwconv_pack(c, taps, d->f32->tile, filter->data.f, bias ? bias->data.f : NULL,
                        d->packed);
    d->f32p = (tff_f32_dwconv_params){d->lo, d->hi};
    d->kernel = d->f32->name;
  } else {
    return kTfLiteOk;
  }
  /* Row oy is interior when all its taps' input rows exist; they are the
   * rows [r0, r1). */
  const tff_conv_geom* g = &d->g;
  const int64_t reach = (int64_t)(g->k_h - 1) * g->dil_h;
  d->r0 = d->r1 = g->out_h;
  for (int oy = 0; oy < g->out_h; ++oy) {
    const int64_t y0 = (int64_t)oy * g->stride_h - g->pad_t;
    if (y0 < 0 || y0 + reach >= g->in_h) continue;
    if (d->r0 == g->out_h) d->r0 = oy;
    d->r1 = oy + 1;
  }
  const size_t pixels = (size_t)ind_row(d, g->out_h) * g->out_w; /* < 2^60: both < 2^30 */
  TF_LITE_ENSURE_MSG(ctx, pixels <= SIZE_MAX / sizeof(void*) / (taps + 1),
                     OP ": output of %d x %d pixels is too large", g->out_h, g->out_w);
  d->ind = malloc((pixels * taps + 1) * sizeof(void*)); /* +1: never malloc(0) */
  TF_LITE_ENSURE_MSG(ctx, d->ind, OP ": out of memory");
  d->ind_base = NULL;
  return kTfLiteOk;
}

/* 16x8: geometry and requantization; the filter is read in place. */
static TfLiteStatus prepare_int16(TfLiteContext* ctx, OpData* d,
                                  const TfLiteDepthwiseConvParams* p, const TfLiteTensor* in,
                                  const TfLiteTensor* filter, const TfLiteTensor* bias,
                                  TfLiteTensor* out) {
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, OP, p->activation));
  /* TFLite's 16x8 depthwise conv reads the bias unconditionally. */
  TF_LITE_ENSURE_MSG(ctx, bias != NULL, OP ": int16 input needs a bias tensor");
  d->cout = tff_dim(filter, 3);
  TF_LITE_ENSURE_OK(ctx, tff_conv_geom_prepare(ctx, OP, p->padding, p->stride_height,
                                               p->stride_width, p->dilation_height_factor,
                                               p->dilation_width_factor, in, tff_dim(filter, 1),
                                               tff_dim(filter, 2), &d->g));
  TF_LITE_ENSURE_MSG(ctx, d->g.in_c > 0 && d->cout > 0 && d->cout % d->g.in_c == 0,
                     OP ": output channels %d are not a positive multiple of input channels %d",
                     d->cout, d->g.in_c);
  d->mult = d->cout / d->g.in_c;
  TF_LITE_ENSURE_OK(ctx, tff_rq16_prepare(ctx, OP, in, filter, bias, out, d->cout, 3,
                                          p->activation, &d->rq16));
  d->kernel = "depthwise 16x8 (portable reference)";
  const int shape[4] = {d->g.batches, d->g.out_h, d->g.out_w, d->cout};
  return tff_resize_output(ctx, out, 4, shape);
}

/* 16x8, TFLite's reference DepthwiseConvPerChannel: taps outside the image
 * skipped (the input zero point is 0), int64 sums. */
static void eval_int16(const OpData* d, const int16_t* in, const int8_t* w, const int64_t* bias,
                       int16_t* out) {
  const tff_conv_geom* g = &d->g;
  for (int b = 0; b < g->batches; ++b) {
    const int16_t* image = in + (size_t)b * g->in_h * g->in_w * g->in_c;
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox, out += d->cout) {
        const int y0 = oy * g->stride_h - g->pad_t, x0 = ox * g->stride_w - g->pad_l;
        for (int c = 0; c < d->cout; ++c) {
          const int ic = c / d->mult;
          int64_t acc = 0;
          for (int ky = 0; ky < g->k_h; ++ky) {
            const int y = y0 + ky * g->dil_h;
            if (y < 0 || y >= g->in_h) continue;
            for (int kx = 0; kx < g->k_w; ++kx) {
              const int x = x0 + kx * g->dil_w;
              if (x < 0 || x >= g->in_w) continue;
              acc += (int32_t)image[((size_t)y * g->in_w + x) * g->in_c + ic] *
                     w[(size_t)(ky * g->k_w + kx) * d->cout + c];
            }
          }
          if (bias) acc = (int64_t)((uint64_t)acc + (uint64_t)bias[c]);
          out[c] = tff_rq16_apply(&d->rq16, acc, c);
        }
      }
    }
  }
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteDepthwiseConvParams* p = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  release(ctx, d);
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
  d->int16 = in->type == kTfLiteInt16;
  if (d->int16) return prepare_int16(ctx, d, p, in, filter, bias, out);
  TF_LITE_ENSURE_OK(ctx, tff_conv_kind_of(ctx, OP, in, filter, out, &d->kind));
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, OP, p->activation));
  /* A float filter is read at invoke; int8 weight sums are taken at prepare. */
  TF_LITE_ENSURE_MSG(ctx,
                     d->kind == TFF_CONV_FLOAT || (tff_is_constant(filter) && filter->data.data),
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
  TF_LITE_ENSURE_MSG(ctx, (int64_t)d->g.k_h * d->g.k_w * d->cout <= INT_MAX,
                     OP ": filter of %d x %d x %d is too large", d->g.k_h, d->g.k_w, d->cout);
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
  TF_LITE_ENSURE_OK(ctx, prepare_ukernel(ctx, d, in, filter, bias));
  TF_LITE_ENSURE_OK(ctx, alloc_buffers(ctx, d, in, filter));
  /* The column kernel reads in_c bytes of every tap's pixel, col_stride
   * bytes apart: the input may be a strided view (alias.h). */
  if (d->col)
    tff_view_strided_reader(ctx, node, node->inputs->data[0], (size_t)d->g.in_c,
                            d->col_stride / (size_t)d->g.in_c, &d->col_stride);
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

/* One task of the microkernel path: output rows [begin, end) of all images. */
typedef struct {
  const OpData* d;
  char* out;
  size_t in_image, in_rows; /* bytes of an image; of stride_h input rows */
  int pieces;               /* items per output row (its pixels cut evenly) */
} RowTask;

/* Pixels [x0, x1) of output row oy of image b. */
static void dw_piece(const RowTask* t, int b, int oy, size_t x0, size_t x1) {
  const OpData* d = t->d;
  const size_t taps = (size_t)d->g.k_h * d->g.k_w, w = (size_t)d->g.out_w;
  const size_t c = (size_t)d->cout, r = (size_t)b * d->g.out_h + oy;
  const void** ind = d->ind + ((size_t)ind_row(d, oy) * w + x0) * taps;
  const size_t shift = oy >= d->r0 && oy < d->r1 ? (size_t)(oy - d->r0) * t->in_rows : 0;
  const size_t pixel = (r * w + x0) * c, off = (size_t)b * t->in_image + shift;
  if (d->q8)
    d->q8->fn(c, x1 - x0, taps, (const int8_t**)ind, d->packed, (int8_t*)t->out + pixel, 0, off,
              (const int8_t*)d->pad, &d->q8p);
  else
    d->f32->fn(c, x1 - x0, taps, (const float**)ind, d->packed, (float*)t->out + pixel, 0, off,
               (const float*)d->pad, &d->f32p);
}

/* Items [begin, end): piece i % pieces of output row i / pieces. */
static void dw_rows(void* arg, int begin, int end) {
  const RowTask* t = (const RowTask*)arg;
  const size_t w = (size_t)t->d->g.out_w;
  for (int i = begin; i < end; ++i) {
    const int r = i / t->pieces, piece = i % t->pieces;
    dw_piece(t, r / t->d->g.out_h, r % t->d->g.out_h, w * piece / t->pieces,
             w * (piece + 1) / t->pieces);
  }
}

static void eval_ukernel(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                         TfLiteTensor* out) {
  const tff_conv_geom* g = &d->g;
  const size_t esz = d->q8 ? 1 : sizeof(float), taps = (size_t)g->k_h * g->k_w;
  if (d->ind_base != in->data.raw) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      if (oy > d->r0 && oy < d->r1) continue; /* shares row r0's */
      for (int ox = 0; ox < g->out_w; ++ox)
        tff_conv_taps(g, in->data.raw, (size_t)g->in_c * esz, d->pad, oy, ox,
                      d->ind + ((size_t)ind_row(d, oy) * g->out_w + ox) * taps);
    }
    d->ind_base = in->data.raw;
  }
  const size_t pixel = (size_t)g->in_c * esz;
  /* At least 16 items a thread (rows cut into pieces when there are fewer),
   * so the last item a thread runs is short next to its share (7x7 layers
   * have 7 rows). */
  const int rows = g->batches * g->out_h, threads = tff_num_threads(ctx);
  int pieces = 1;
  if (threads > 1 && rows < 16 * threads) pieces = (16 * threads + rows - 1) / rows;
  if (pieces > g->out_w) pieces = g->out_w;
  RowTask t = {d, out->data.raw, (size_t)g->in_h * g->in_w * pixel,
               (size_t)g->stride_h * g->in_w * pixel, pieces};
  if (rows * pieces == 1) { /* one output row (streaming models): no pool, no divisions */
    dw_piece(&t, 0, 0, 0, (size_t)g->out_w);
    return;
  }
  /* ~32K multiply-adds per chunk at least, so small layers stay inline. */
  const size_t item_work = (size_t)g->out_w * d->cout * taps / (size_t)pieces;
  const int grain = item_work >= 32768 ? 1 : (int)(32768 / (item_work ? item_work : 1));
  tff_parallel_for(ctx, rows * pieces, grain, dw_rows, &t);
}

/* Everything but the fast path of eval below: out of line, so that path
 * runs without this one's register saves and stack frame. */
static TFF_NOINLINE TfLiteStatus eval_general(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const tff_conv_geom* g = &d->g;
  if (out->bytes == 0) return kTfLiteOk; /* an empty output */
  if (d->int16) {
    eval_int16(d, in->data.i16, filter->data.int8, bias ? bias->data.i64 : NULL, out->data.i16);
    return kTfLiteOk;
  }
  if (d->q8 || d->f32) {
    eval_ukernel(ctx, d, in, out);
    return kTfLiteOk;
  }
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

static TfLiteStatus eval(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  if (d->col) { /* first: nothing else of the node is read */
    d->col((size_t)d->cout, (size_t)d->g.k_h * d->g.k_w, tff_input(ctx, node, 0)->data.int8,
           d->col_stride, d->packed, tff_output(ctx, node, 0)->data.int8, &d->q8p);
    return kTfLiteOk;
  }
  return eval_general(ctx, node);
}

static const char* profiling_string(const TfLiteContext* ctx, const TfLiteNode* node) {
  (void)ctx;
  return ((const OpData*)node->user_data)->kernel;
}

const TfLiteRegistration* tff_register_DEPTHWISE_CONV_2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = eval,
                                       .profiling_string = profiling_string,
                                       .builtin_code = kTfLiteBuiltinDepthwiseConv2d,
                                       .version = 1};
  return &r;
}
