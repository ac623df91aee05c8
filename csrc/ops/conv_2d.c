/* CONV_2D over NHWC: float, int8 (per-channel or per-tensor weights) and
 * hybrid (float activations, int8 weights), grouped when the input has a
 * multiple of the filter's channels. The filter [out][kh][kw][in/groups] is
 * packed per group at prepare (at each invoke for a float filter computed at
 * run time); each output pixel is one GEMM row over the taps' input pixels,
 * so a 1x1 stride-1 conv is a plain GEMM over its input pixels in place.
 * Float and default-mode int8 run a SIMD ukernel (tff_gemm) over an
 * indirection buffer of every pixel's taps, rebuilt only when the input
 * moves; reference int8 and hybrid run the portable GEMM pixel by pixel.
 * Numerics: conv_common.h; 16x8 (int16 activations): conv_int16.h. */
#include "conv_common.h"
#include "conv_int16.h"
#include "ops.h"

#define OP "CONV_2D"

typedef struct {
  tff_conv_kind kind;
  tff_conv_geom g;
  int groups, cin_g, cout_g, cout;
  size_t group_elems;  /* packed weights per group */
  void* packed;        /* weights, tff_pack layout, group after group */
  int32_t* wsum;       /* portable path: Σ weights per output channel */
  int32_t* init;       /* portable path: bias − z·Σw per output channel */
  int32_t* acc;        /* one output pixel of int32 accumulators */
  const void** taps;   /* one input pointer per filter tap */
  void* pad;           /* in_c values of the input's zero, read by padding taps */
  float* wscales;      /* hybrid: filter scales (one when per-tensor) */
  int per_channel;
  tff_requant rq;      /* int8 */
  tff_hybrid_quant hq; /* hybrid */
  int per_pixel;       /* hybrid: quantize each input pixel on its own, not the image */
  float lo, hi;        /* float and hybrid clamp */
  int use_gemm;        /* float, default int8: the ukernel path below */
  tff_gemm gemm;
  const void** ind;    /* [out_h·out_w][taps] input pointers of each output pixel */
  const char* ind_image; /* the image ind points into (NULL: not built) */
  int8_t* cols;        /* im2col: [out_h·out_w][taps·in_c], rows of ind (see alloc_gemm) */
  int8_t* padded;      /* cols of a small image: it in a zero-point frame [.][pw][in_c] */
  int pw;              /* the frame's width in pixels */
  int rows;            /* float: one GEMM tap per filter row (see alloc_gemm) */
  int one_tile;        /* one output pixel in one tile: tff_gemm_row at one thread */
  size_t nedge;        /* rows: filter rows cut by the image's left or right border */
  int32_t* edge_at;    /* [nedge][2]: input row and first column of each */
  float* edge;         /* [nedge][k_w·in_c]: their taps, zeros outside, copied each invoke */
  int int16;           /* 16x8: int16 activations, the reference loop below */
  tff_rq16 rq16;
} OpData;

static void release(TfLiteContext* ctx, OpData* d) {
  tff_persistent_free(ctx, d->packed);
  free(d->wsum);
  free(d->init);
  free(d->acc);
  free(d->taps);
  free(d->pad);
  free(d->wscales);
  free(d->ind);
  free(d->cols);
  free(d->padded);
  free(d->edge_at);
  free(d->edge);
  tff_gemm_free(ctx, &d->gemm);
  tff_requant_free(&d->rq);
  tff_rq16_free(&d->rq16);
  memset(d, 0, sizeof(*d));
}

TFF_ZEROED_INIT(init, OpData)

static void free_data(TfLiteContext* ctx, void* data) {
  if (data) release(ctx, (OpData*)data);
  free(data);
}

/* Filter row ky of output row oy: its input row *iy, and whether that is in
 * the image. */
static int row_inside(const tff_conv_geom* g, int oy, int ky, int* iy) {
  *iy = oy * g->stride_h - g->pad_t + ky * g->dil_h;
  return *iy >= 0 && *iy < g->in_h;
}

/* The filter rows of output column ox (dilation 1 across), from input column
 * *ix0: 0 wholly left or right of the image, 1 inside, 2 cut by a border. */
static int col_cut(const tff_conv_geom* g, int ox, int* ix0) {
  *ix0 = ox * g->stride_w - g->pad_l;
  if (*ix0 + g->k_w <= 0 || *ix0 >= g->in_w) return 0;
  return *ix0 >= 0 && *ix0 + g->k_w <= g->in_w ? 1 : 2;
}

/* Filter row ky of output (oy, ox): 0 wholly outside the image, 1 inside, 2
 * cut by its left or right border. */
static int row_cut(const tff_conv_geom* g, int oy, int ox, int ky, int* iy, int* ix0) {
  const int in = row_inside(g, oy, ky, iy), cut = col_cut(g, ox, ix0);
  return in ? cut : 0;
}

/* Float rows: each pixel's filter rows, in place when inside the image, the
 * zero row when outside, else the next edge copy (whose place it records). */
static void rows_ind(OpData* d, const float* image) {
  const tff_conv_geom* g = &d->g;
  const size_t kc = (size_t)g->k_w * g->in_c;
  const void** ind = d->ind;
  size_t e = 0;
  for (int oy = 0; oy < g->out_h; ++oy)
    for (int ox = 0; ox < g->out_w; ++ox)
      for (int ky = 0; ky < g->k_h; ++ky) {
        int iy, ix0;
        switch (row_cut(g, oy, ox, ky, &iy, &ix0)) {
          case 0: *ind++ = d->pad; break;
          case 1: *ind++ = image + ((size_t)iy * g->in_w + ix0) * g->in_c; break;
          default:
            d->edge_at[2 * e] = iy;
            d->edge_at[2 * e + 1] = ix0;
            *ind++ = d->edge + e++ * kc;
        }
      }
}

/* The edge copies of this image: taps inside it, zeros outside. */
static void fill_edges(const OpData* d, const float* image) {
  const tff_conv_geom* g = &d->g;
  const size_t c = (size_t)g->in_c;
  float* dst = d->edge;
  for (size_t e = 0; e < d->nedge; ++e) {
    const int iy = d->edge_at[2 * e], ix0 = d->edge_at[2 * e + 1];
    for (int ix = ix0; ix < ix0 + g->k_w; ++ix, dst += c) {
      if (ix >= 0 && ix < g->in_w)
        memcpy(dst, image + ((size_t)iy * g->in_w + ix) * c, c * sizeof(float));
      else
        memset(dst, 0, c * sizeof(float));
    }
  }
}

/* The ukernel path: kernel, packed weights (and bias or folded zero point
 * when constant), indirection buffer and zero-point padding. An ungrouped
 * int8 conv of few input channels (the 3-channel first layer) runs instead
 * as a GEMM of one row per pixel holding all its taps (im2col, rebuilt each
 * invoke): kc = taps·in_c is padded to the kernel's KR once, not per tap.
 * A float one (dilation 1 across) takes each filter row's taps, adjacent in
 * the image, as one tap of k_w·in_c channels (the filter's order already):
 * the 3x3 and 5x5 first layers of mobilenet_v2 and face_detection run 4%
 * and 10% faster than with a tap of 3 channels. Rows cut by the image's
 * border read a copy. */
static TfLiteStatus alloc_gemm(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                               const TfLiteTensor* filter, const TfLiteTensor* bias) {
  const size_t taps = (size_t)d->g.k_h * d->g.k_w, pixels = (size_t)d->g.out_h * d->g.out_w;
  const int is_f32 = d->kind == TFF_CONV_FLOAT;
  const int few = d->groups == 1 && taps > 1 && d->cin_g < 8;
  const int cols = !is_f32 && few && taps * d->cin_g <= 128;
  d->rows = is_f32 && few && d->g.k_w > 1 && d->g.dil_w == 1;
  const size_t ks = cols ? 1 : (d->rows ? (size_t)d->g.k_h : taps);
  const size_t kc = (size_t)d->cin_g * (cols ? taps : (d->rows ? (size_t)d->g.k_w : 1));
  TF_LITE_ENSURE_MSG(ctx, pixels * d->groups <= INT_MAX && pixels <= SIZE_MAX / 8 / taps,
                     OP ": output of %zu pixels is too large", pixels);
  TF_LITE_ENSURE_OK(ctx, tff_gemm_prepare(ctx, OP, &d->gemm, is_f32, pixels, d->groups,
                                          (size_t)d->cout_g, ks, kc, filter->data.data));
  d->ind = malloc(pixels * ks * sizeof(void*));
  d->pad = calloc(d->rows ? kc : (size_t)d->g.in_c, is_f32 ? sizeof(float) : 1);
  TF_LITE_ENSURE_MSG(ctx, d->ind && d->pad, OP ": out of memory");
  if (d->rows) {
    /* Cut rows: (rows in the image) x (columns cut), not a walk of every
     * pixel's rows (mobilenet_v3_small_float's first layer: 37632, ~50 us). */
    int iy, ix0;
    size_t rows_in = 0, cols_cut = 0;
    for (int oy = 0; oy < d->g.out_h; ++oy)
      for (int ky = 0; ky < d->g.k_h; ++ky) rows_in += (size_t)row_inside(&d->g, oy, ky, &iy);
    for (int ox = 0; ox < d->g.out_w; ++ox) cols_cut += col_cut(&d->g, ox, &ix0) == 2;
    d->nedge = rows_in * cols_cut;
    d->edge_at = malloc((d->nedge ? d->nedge : 1) * 2 * sizeof(int32_t));
    d->edge = malloc((d->nedge ? d->nedge : 1) * kc * sizeof(float));
    TF_LITE_ENSURE_MSG(ctx, d->edge_at && d->edge, OP ": out of memory");
  }
  if (!is_f32) memset(d->pad, (int8_t)in->params.zero_point, d->g.in_c);
  if (cols) {
    d->cols = malloc(pixels * kc);
    TF_LITE_ENSURE_MSG(ctx, d->cols, OP ": out of memory");
    for (size_t p = 0; p < pixels; ++p) d->ind[p] = d->cols + p * kc;
    /* A small image (its frame at most a quarter of the im2col bytes: kws's
     * 10x4 first layer, where 2 of 5 output columns cut the border and a
     * filter row is 4 bytes) is copied into a frame padded with the zero
     * point, so that cols_task reads every tap without a bounds test: that
     * layer 21.8 -> 10.7 us. */
    const tff_conv_geom* g = &d->g;
    const int64_t ph = (int64_t)(g->out_h - 1) * g->stride_h + (int64_t)(g->k_h - 1) * g->dil_h,
                  pw = (int64_t)(g->out_w - 1) * g->stride_w + (int64_t)(g->k_w - 1) * g->dil_w;
    /* The frame: the rows and columns the taps reach (to ph, pw) and the image. */
    const int64_t fh = ph + 1 > g->pad_t + g->in_h ? ph + 1 : g->pad_t + g->in_h,
                  fw = pw + 1 > g->pad_l + g->in_w ? pw + 1 : g->pad_l + g->in_w;
    if (g->pad_t >= 0 && g->pad_l >= 0 && fh * fw * g->in_c <= (int64_t)(pixels * kc / 4)) {
      d->pw = (int)fw;
      d->padded = malloc((size_t)(fh * fw * g->in_c) + 7); /* + copy_short's over-read */
      TF_LITE_ENSURE_MSG(ctx, d->padded, OP ": out of memory");
      memset(d->padded, (int8_t)in->params.zero_point, (size_t)(fh * fw * g->in_c) + 7);
    }
  }
  TF_LITE_ENSURE_OK(ctx,
                    tff_gemm_pack(ctx, OP, &d->gemm, in, filter, bias, &d->rq, d->lo, d->hi));
  d->one_tile = d->g.batches == 1 && !cols && !d->rows && tff_gemm_one_tile(&d->gemm, pixels);
  return kTfLiteOk;
}

/* The portable path (int8 filter, constant): packs it per group and
 * allocates the per-pixel buffers. */
static TfLiteStatus alloc_buffers(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                                  const TfLiteTensor* filter) {
  const int k = d->g.k_h * d->g.k_w * d->cin_g;
  d->group_elems = tff_packed_elems(d->cout_g, k);
  d->packed = tff_persistent_alloc(ctx, d->groups * d->group_elems);
  d->acc = malloc((size_t)d->cout * sizeof(int32_t));
  d->taps = malloc((size_t)d->g.k_h * d->g.k_w * sizeof(void*));
  d->pad = calloc((size_t)d->g.in_c, 1);
  d->wsum = malloc((size_t)d->cout * sizeof(int32_t));
  d->init = malloc((size_t)d->cout * sizeof(int32_t));
  TF_LITE_ENSURE_MSG(ctx, d->packed && d->acc && d->taps && d->pad && d->wsum && d->init,
                     OP ": out of memory");
  for (int grp = 0; grp < d->groups; ++grp)
    tff_pack_s8(ctx, d->cout_g, k, filter->data.int8 + (size_t)grp * d->cout_g * k,
                (int8_t*)d->packed + grp * d->group_elems, d->wsum + grp * d->cout_g);
  if (d->kind == TFF_CONV_INT8) memset(d->pad, (int8_t)in->params.zero_point, d->g.in_c);
  return kTfLiteOk;
}

/* 16x8: geometry and requantization; the filter is read in place. */
static TfLiteStatus prepare_int16(TfLiteContext* ctx, OpData* d, const TfLiteConvParams* p,
                                  const TfLiteTensor* in, const TfLiteTensor* filter,
                                  const TfLiteTensor* bias, TfLiteTensor* out) {
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, OP, p->activation));
  /* TFLite's 16x8 conv reads the bias unconditionally. */
  TF_LITE_ENSURE_MSG(ctx, bias != NULL, OP ": int16 input needs a bias tensor");
  d->cout = tff_dim(filter, 0);
  d->cin_g = tff_dim(filter, 3);
  TF_LITE_ENSURE_OK(ctx, tff_conv_geom_prepare(ctx, OP, p->padding, p->stride_height,
                                               p->stride_width, p->dilation_height_factor,
                                               p->dilation_width_factor, in, tff_dim(filter, 1),
                                               tff_dim(filter, 2), &d->g));
  TF_LITE_ENSURE_MSG(ctx, d->cout > 0 && d->cin_g > 0 && d->g.in_c % d->cin_g == 0,
                     OP ": input channels %d are not a multiple of the filter's %d (filter "
                     "outputs %d)", d->g.in_c, d->cin_g, d->cout);
  d->groups = d->g.in_c / d->cin_g;
  TF_LITE_ENSURE_MSG(ctx, d->cout % d->groups == 0,
                     OP ": output channels %d are not a multiple of the %d groups", d->cout,
                     d->groups);
  d->cout_g = d->cout / d->groups;
  TF_LITE_ENSURE_OK(ctx, tff_rq16_prepare(ctx, OP, in, filter, bias, out, d->cout, 0,
                                          p->activation, &d->rq16));
  const int shape[4] = {d->g.batches, d->g.out_h, d->g.out_w, d->cout};
  return tff_resize_output(ctx, out, 4, shape);
}

/* 16x8, TFLite's reference ConvPerChannel: taps outside the image skipped
 * (the input zero point is 0), int64 sums. */
static void eval_int16(const OpData* d, const int16_t* in, const int8_t* w, const int64_t* bias,
                       int16_t* out) {
  const tff_conv_geom* g = &d->g;
  const int kk = g->k_h * g->k_w * d->cin_g;
  for (int b = 0; b < g->batches; ++b) {
    const int16_t* image = in + (size_t)b * g->in_h * g->in_w * g->in_c;
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox, out += d->cout) {
        const int y0 = oy * g->stride_h - g->pad_t, x0 = ox * g->stride_w - g->pad_l;
        for (int oc = 0; oc < d->cout; ++oc) {
          const int ic0 = oc / d->cout_g * d->cin_g;
          const int8_t* wc = w + (size_t)oc * kk;
          int64_t acc = 0;
          for (int ky = 0; ky < g->k_h; ++ky) {
            const int y = y0 + ky * g->dil_h;
            if (y < 0 || y >= g->in_h) continue;
            for (int kx = 0; kx < g->k_w; ++kx) {
              const int x = x0 + kx * g->dil_w;
              if (x < 0 || x >= g->in_w) continue;
              const int16_t* px = image + ((size_t)y * g->in_w + x) * g->in_c + ic0;
              const int8_t* wt = wc + (ky * g->k_w + kx) * d->cin_g;
              int64_t s = 0;
              for (int i = 0; i < d->cin_g; ++i) s += (int32_t)px[i] * wt[i];
              acc += s;
            }
          }
          if (bias) acc = (int64_t)((uint64_t)acc + (uint64_t)bias[oc]);
          out[oc] = tff_rq16_apply(&d->rq16, acc, oc);
        }
      }
    }
  }
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteConvParams* p = (const TfLiteConvParams*)node->builtin_data;
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
  TF_LITE_ENSURE_MSG(ctx, tff_rank(filter) == 4,
                     OP ": filter must be 4-D [out, h, w, in], got rank %d", tff_rank(filter));
  d->int16 = in->type == kTfLiteInt16;
  if (d->int16) return prepare_int16(ctx, d, p, in, filter, bias, out);
  TF_LITE_ENSURE_OK(ctx, tff_conv_kind_of(ctx, OP, in, filter, out, &d->kind));
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, OP, p->activation));
  TF_LITE_ENSURE_MSG(ctx, (tff_is_constant(filter) && filter->data.data) ||
                              d->kind == TFF_CONV_FLOAT,
                     OP ": an int8 filter must be a constant tensor");

  d->cout = tff_dim(filter, 0);
  d->cin_g = tff_dim(filter, 3);
  TF_LITE_ENSURE_OK(ctx, tff_conv_geom_prepare(ctx, OP, p->padding, p->stride_height,
                                               p->stride_width, p->dilation_height_factor,
                                               p->dilation_width_factor, in, tff_dim(filter, 1),
                                               tff_dim(filter, 2), &d->g));
  TF_LITE_ENSURE_MSG(ctx, d->cout > 0 && d->cin_g > 0,
                     OP ": filter shape [%d, %d, %d, %d] has an empty dimension", d->cout,
                     d->g.k_h, d->g.k_w, d->cin_g);
  TF_LITE_ENSURE_MSG(ctx, d->g.in_c > 0 && d->g.in_c % d->cin_g == 0,
                     OP ": input channels %d are not a positive multiple of the filter's %d",
                     d->g.in_c, d->cin_g);
  d->groups = d->g.in_c / d->cin_g;
  TF_LITE_ENSURE_MSG(ctx, d->cout % d->groups == 0,
                     OP ": output channels %d are not a multiple of the %d groups", d->cout,
                     d->groups);
  d->cout_g = d->cout / d->groups;
  TF_LITE_ENSURE_MSG(ctx, (int64_t)d->g.k_h * d->g.k_w * d->cin_g <= INT_MAX / TFF_NR,
                     OP ": filter of %d x %d x %d is too large", d->g.k_h, d->g.k_w, d->cin_g);
  if (bias) TF_LITE_ENSURE_OK(ctx, tff_check_bias(ctx, OP, bias, d->kind, d->cout));

  const int ref = tff_numerics_ref(ctx);
  if (d->kind == TFF_CONV_FLOAT) {
    tff_act_range_float(p->activation, &d->lo, &d->hi);
  } else {
    const float* scales;
    TF_LITE_ENSURE_OK(
        ctx, tff_filter_scales(ctx, OP, filter, d->cout, 0, &scales, &d->per_channel));
    if (d->kind == TFF_CONV_INT8) {
      TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, OP, "input", in));
      TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, OP, "output", out));
      TF_LITE_ENSURE_OK(ctx, tff_requant_prepare(ctx, OP, &d->rq,
                                                 ref ? TFF_RQ_MBQM : TFF_RQ_FP32, d->cout, in,
                                                 scales, d->per_channel, out, p->activation));
      tff_requant_label(&d->rq, "tff_igemm_s8 (portable)");
    } else {
      const int n = d->per_channel ? d->cout : 1;
      d->wscales = malloc((size_t)n * sizeof(float));
      TF_LITE_ENSURE_MSG(ctx, d->wscales, OP ": out of memory");
      memcpy(d->wscales, scales, (size_t)n * sizeof(float));
      /* AUTO runs hybrid CONV_2D in XNNPACK. TFLite's kernel quantizes
       * asymmetrically when the channel scales differ or the conv is grouped
       * (its per-channel path), symmetrically otherwise. */
      int varying = 0;
      for (int c = 1; c < n; ++c) varying |= scales[c] != scales[0];
      d->hq = !ref ? TFF_HYB_XNN_QD8
                   : (varying || d->groups > 1 ? TFF_HYB_TFL_ASYM : TFF_HYB_TFL_SYM);
      /* XNNPACK rewrites an ungrouped 1x1 stride-1 conv (unless 1 channel in
       * and out) into FULLY_CONNECTED, which quantizes per row: per pixel. */
      d->per_pixel = !ref && d->groups == 1 && d->g.k_h == 1 && d->g.k_w == 1 &&
                     d->g.stride_h == 1 && d->g.stride_w == 1 && d->cin_g + d->cout > 2;
      tff_act_range_float(p->activation, &d->lo, &d->hi);
    }
  }
  const int shape[4] = {d->g.batches, d->g.out_h, d->g.out_w, d->cout};
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, 4, shape));
  d->use_gemm = d->kind == TFF_CONV_FLOAT || (d->kind == TFF_CONV_INT8 && !ref);
  if (d->use_gemm) return alloc_gemm(ctx, d, in, filter, bias);
  TF_LITE_ENSURE_OK(ctx, alloc_buffers(ctx, d, in, filter));
  /* Last: AddTensors may move the tensor array under in/filter/out. */
  if (d->kind != TFF_CONV_HYBRID) return kTfLiteOk;
  const size_t pixels = d->per_pixel ? 1 : (size_t)d->g.in_h * d->g.in_w;
  return tff_scratch_request(ctx, node, 0, pixels * d->g.in_c);
}

/* One output pixel of the portable path: the GEMM of every group, then the
 * epilogue. */
static void conv_pixel(OpData* d, const float* bias, float dq, void* outp) {
  const int ntaps = d->g.k_h * d->g.k_w;
  for (int grp = 0; grp < d->groups; ++grp) {
    const size_t off = (size_t)grp * d->cin_g, oc = (size_t)grp * d->cout_g;
    tff_igemm_s8(d->cout_g, ntaps, d->cin_g, d->taps, off,
                 (const int8_t*)d->packed + grp * d->group_elems, d->init + oc, d->acc + oc);
  }
  if (d->kind == TFF_CONV_INT8) {
    tff_requant_row(&d->rq, d->acc, d->cout, (int8_t*)outp);
  } else {
    tff_hybrid_row(d->hq, d->acc, d->cout, dq, d->wscales, d->per_channel, bias, d->lo, d->hi,
                   (float*)outp);
  }
}

/* Hybrid 1x1 stride-1 conv as XNNPACK runs it: output pixel p reads input
 * pixel p alone, quantized on its own. */
static void hybrid_per_pixel(OpData* d, const float* in, size_t pixels, const float* bias,
                             int8_t* q, float* out) {
  d->taps[0] = q;
  for (size_t p = 0; p < pixels; ++p) {
    float dq;
    int32_t zp;
    tff_quantize_qd8(in + p * d->g.in_c, d->g.in_c, q, &dq, &zp);
    tff_fold_zero_point(d->cout, NULL, zp, d->wsum, d->init);
    conv_pixel(d, bias, dq, out + p * d->cout);
  }
}

typedef struct {
  const OpData* d;
  const int8_t* image;
} ColsJob;

/* n bytes, 8 at a time (no library call for a few bytes); 4..16 bytes as
 * two overlapping moves. */
static inline int8_t* copy_bytes(int8_t* dst, const int8_t* src, size_t n) {
  if (n >= 8 && n <= 16) {
    memcpy(dst, src, 8);
    memcpy(dst + n - 8, src + n - 8, 8);
    return dst + n;
  }
  if (n >= 4 && n < 8) {
    memcpy(dst, src, 4);
    memcpy(dst + n - 4, src + n - 4, 4);
    return dst + n;
  }
  for (; n >= 8; n -= 8, src += 8, dst += 8) memcpy(dst, src, 8);
  for (size_t i = 0; i < n; ++i) dst[i] = src[i];
  return dst + n;
}

/* n < 8 bytes as one 8-byte move: src has 7 readable bytes past n (the
 * frame's slack) and the 8 - n bytes written past n are the next copy's. */
static inline int8_t* copy_short(int8_t* dst, const int8_t* src, size_t n) {
  memcpy(dst, src, 8);
  return dst + n;
}

/* Output rows [y0, y1) of the im2col matrix: each pixel's taps in filter
 * order, a filter row's taps in one copy when they are adjacent pixels of
 * the image (dilation 1, all inside), else tap by tap (padding taps copy
 * the input's zero point). */
static void cols_task(void* arg, int y0, int y1) {
  const ColsJob* j = (const ColsJob*)arg;
  const tff_conv_geom* g = &j->d->g;
  const size_t c = (size_t)g->in_c;
  const int8_t* pad = (const int8_t*)j->d->pad;
  int8_t* row = j->d->cols + (size_t)y0 * g->out_w * g->k_h * g->k_w * c;
  if (j->d->padded) { /* every tap inside: no bounds, a filter row one copy at dilation 1 */
    /* In locals: the int8 stores may alias anything, so fields would be
     * reloaded per copy. */
    const int out_w = g->out_w, k_h = g->k_h, copies = g->dil_w == 1 ? 1 : g->k_w;
    const size_t pixel_step = (size_t)g->stride_w * c, tap_step = (size_t)g->dil_w * c;
    const size_t line = (size_t)j->d->pw * c, row_step = (size_t)g->stride_h * line,
                 ky_step = (size_t)g->dil_h * line;
    const size_t n = g->dil_w == 1 ? (size_t)g->k_w * c : c;
    /* Copies of a few bytes (small_cnn_int8's 1-channel 3x3 layer: 3) as
     * 8-byte moves, but for those within 8 bytes of the range's end, whose
     * spill would reach the rows another thread writes. */
    const int8_t* const end = j->d->cols + (size_t)y1 * out_w * k_h * copies * n;
    const int8_t* frame_row = j->d->padded + (size_t)y0 * row_step;
    for (int oy = y0; oy < y1; ++oy, frame_row += row_step)
      for (int ox = 0; ox < out_w; ++ox) {
        const int8_t* src_ky = frame_row + (size_t)ox * pixel_step;
        for (int ky = 0; ky < k_h; ++ky, src_ky += ky_step) {
          const int8_t* src = src_ky;
          for (int kx = 0; kx < copies; ++kx, src += tap_step)
            row = n < 8 && end - row >= 8 ? copy_short(row, src, n) : copy_bytes(row, src, n);
        }
      }
    return;
  }
  for (int oy = y0; oy < y1; ++oy) {
    for (int ox = 0; ox < g->out_w; ++ox) {
      const int iy0 = oy * g->stride_h - g->pad_t, ix0 = ox * g->stride_w - g->pad_l;
      const int ix1 = ix0 + (g->k_w - 1) * g->dil_w;
      for (int ky = 0; ky < g->k_h; ++ky) {
        const int iy = iy0 + ky * g->dil_h, row_in = iy >= 0 && iy < g->in_h;
        const int8_t* line = row_in ? j->image + (size_t)iy * g->in_w * c : pad;
        if (row_in && g->dil_w == 1 && ix0 >= 0 && ix1 < g->in_w) {
          row = copy_bytes(row, line + (size_t)ix0 * c, (size_t)g->k_w * c);
          continue;
        }
        for (int kx = 0; kx < g->k_w; ++kx) {
          const int ix = ix0 + kx * g->dil_w;
          const int inside = row_in && ix >= 0 && ix < g->in_w;
          row = copy_bytes(row, inside ? line + (size_t)ix * c : pad, c);
        }
      }
    }
  }
}

/* The ukernel path, image by image. */
static void eval_gemm(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                      const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* out) {
  const tff_conv_geom* g = &d->g;
  const size_t ks = (size_t)g->k_h * g->k_w, pixels = (size_t)g->out_h * g->out_w;
  const size_t esz = d->gemm.esz;
  tff_gemm_repack(ctx, &d->gemm, filter, bias);
  const size_t in_image = (size_t)g->in_h * g->in_w * g->in_c * esz;
  for (int b = 0; b < g->batches; ++b) {
    const char* image = in->data.raw + b * in_image;
    if (d->cols) {
      if (d->padded) { /* the image into its frame, whose border holds the zero point */
        const size_t line = (size_t)g->in_w * g->in_c, pline = (size_t)d->pw * g->in_c;
        int8_t* dst = d->padded + (size_t)g->pad_t * pline + (size_t)g->pad_l * g->in_c;
        for (int y = 0; y < g->in_h; ++y) memcpy(dst + y * pline, image + y * line, line);
      }
      ColsJob j = {d, (const int8_t*)image};
      tff_parallel_for(ctx, g->out_h, 1, cols_task, &j);
    } else if (image != d->ind_image) {
      if (d->rows)
        rows_ind(d, (const float*)image);
      else
        for (int oy = 0, p = 0; oy < g->out_h; ++oy)
          for (int ox = 0; ox < g->out_w; ++ox, ++p)
            tff_conv_taps(g, image, g->in_c * esz, d->pad, oy, ox, d->ind + p * ks);
      d->ind_image = image;
    }
    if (d->rows) fill_edges(d, (const float*)image);
    tff_gemm_run(ctx, &d->gemm, pixels, d->ind, out->data.raw + b * pixels * d->cout * esz,
                 d->cout * esz);
  }
}

/* Everything but the fast path of eval below: out of line, so that path
 * runs without this one's register saves and stack frame. */
static TFF_NOINLINE TfLiteStatus eval_general(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const tff_conv_geom* g = &d->g;
  if (out->bytes == 0) return kTfLiteOk; /* an empty output */
  if (d->int16) {
    eval_int16(d, in->data.i16, tff_input(ctx, node, 1)->data.int8, bias ? bias->data.i64 : NULL,
               out->data.i16);
    return kTfLiteOk;
  }
  if (d->use_gemm) {
    eval_gemm(ctx, d, in, tff_input(ctx, node, 1), bias, out);
    return kTfLiteOk;
  }
  const size_t in_image = (size_t)g->in_h * g->in_w * g->in_c;
  const size_t out_pixel = (size_t)d->cout * (d->kind == TFF_CONV_INT8 ? 1 : sizeof(float));
  const float* fbias = bias && d->kind == TFF_CONV_HYBRID ? bias->data.f : NULL;
  if (d->per_pixel) {
    hybrid_per_pixel(d, in->data.f, (size_t)g->batches * g->in_h * g->in_w, fbias,
                     (int8_t*)tff_scratch(ctx, node, 0), out->data.f);
    return kTfLiteOk;
  }
  if (d->kind == TFF_CONV_INT8)
    tff_fold_zero_point(d->cout, bias ? bias->data.i32 : NULL, in->params.zero_point, d->wsum,
                        d->init);
  char* outp = out->data.raw;
  for (int b = 0; b < g->batches; ++b) {
    const char* image;
    float dq = 1.0f;
    if (d->kind == TFF_CONV_HYBRID) {
      int8_t* q = (int8_t*)tff_scratch(ctx, node, 0);
      int32_t zp = 0;
      tff_quantize_hybrid(d->hq, in->data.f + b * in_image, in_image, q, &dq, &zp);
      memset(d->pad, (int8_t)zp, g->in_c);
      tff_fold_zero_point(d->cout, NULL, zp, d->wsum, d->init);
      image = (const char*)q;
    } else {
      image = in->data.raw + b * in_image;
    }
    for (int oy = 0; oy < g->out_h; ++oy) {
      for (int ox = 0; ox < g->out_w; ++ox, outp += out_pixel) {
        tff_conv_taps(g, image, g->in_c, d->pad, oy, ox, d->taps);
        conv_pixel(d, fbias, dq, outp);
      }
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus eval(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  if (d->one_tile && tff_num_threads(ctx) == 1) { /* first: only the input and output read */
    const char* image = tff_input(ctx, node, 0)->data.raw;
    if (image != d->ind_image) {
      tff_conv_taps(&d->g, image, d->g.in_c * d->gemm.esz, d->pad, 0, 0, d->ind);
      d->ind_image = image;
    }
    tff_gemm_row(&d->gemm, d->ind, tff_output(ctx, node, 0)->data.raw);
    return kTfLiteOk;
  }
  return eval_general(ctx, node);
}

/* The kernel prepare chose, for profiling and show_config. */
static const char* kernel_name(const TfLiteContext* ctx, const TfLiteNode* node) {
  (void)ctx;
  const OpData* d = (const OpData*)node->user_data;
  if (d->int16) return "conv 16x8 (portable reference)";
  if (d->use_gemm) return tff_gemm_name(&d->gemm);
  return d->kind == TFF_CONV_INT8 ? d->rq.label : "tff_igemm_s8 (portable)";
}

const TfLiteRegistration* tff_register_CONV_2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = eval,
                                       .profiling_string = kernel_name,
                                       .builtin_code = kTfLiteBuiltinConv2d,
                                       .version = 1};
  return &r;
}
