/* The 2-D pooling window walk shared by AVERAGE_POOL_2D and MAX_POOL_2D
 * (TFLite pooling.cc): NHWC, SAME/VALID padding, and padding taps skipped,
 * so every window is the in-image part of filter_h x filter_w. With SAME or
 * VALID padding each window holds at least one pixel.
 *
 * The walk hands a pooling ukernel (ukernels/pool.h) runs of output pixels
 * of one row with the same in-image tap count: the interior of a row in one
 * call, each edge pixel whose window is cut by padding apart. */
#ifndef TFLITE_FAST_OPS_POOL_COMMON_H_
#define TFLITE_FAST_OPS_POOL_COMMON_H_

#include "kernel_util.h"
#include "ukernels/pool.h"

typedef struct tff_pool_geom {
  int batches, in_h, in_w, channels;
  int out_h, out_w;
  int stride_h, stride_w, filter_h, filter_w;
  int pad_h, pad_w;   /* padding rows / columns before the first pixel */
  float flo, fhi;     /* float activation bounds */
} tff_pool_geom;

/* The most in-image taps a window can have: a filter larger than the image
 * (SAME padding) covers at most the image. */
static inline size_t tff_pool_max_taps(const tff_pool_geom* g) {
  const int h = g->filter_h < g->in_h ? g->filter_h : g->in_h;
  const int w = g->filter_w < g->in_w ? g->filter_w : g->in_w;
  return h > 0 && w > 0 ? (size_t)h * (size_t)w : 1;
}

/* Pixels per kernel call: a row, or fewer so the call's tap pointers stay
 * within about 32 KiB (a global window takes one pixel at a time). */
static inline size_t tff_pool_chunk(const tff_pool_geom* g) {
  const size_t cap = 4096 / tff_pool_max_taps(g);
  return cap < 1 ? 1 : (cap < (size_t)g->out_w ? cap : (size_t)g->out_w);
}

/* The scratch bytes of the tap pointers of one call. */
static inline size_t tff_pool_scratch_bytes(const tff_pool_geom* g) {
  return tff_pool_chunk(g) * tff_pool_max_taps(g) * sizeof(void*);
}

/* Validates the node as TFLite's GenericPrepare does, fills g (g == NULL when
 * init failed), sizes the output [N, out_h, out_w, C] and requests scratch
 * slot 0 for the tap pointers. */
static inline TfLiteStatus tff_pool_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                            tff_pool_geom* g) {
  TF_LITE_ENSURE(ctx, g != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 1);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLitePoolParams* p = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, p != NULL && in != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4, "input must be 4-D (NHWC), got rank %d",
                     tff_rank(in));
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteInt8 ||
                              in->type == kTfLiteInt16,
                     "type %s not supported (float32, int8, int16)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, p->stride_height > 0 && p->stride_width > 0,
                     "strides must be positive, got %dx%d", p->stride_height, p->stride_width);
  TF_LITE_ENSURE_MSG(ctx, p->filter_height > 0 && p->filter_width > 0,
                     "filter size must be positive, got %dx%d", p->filter_height,
                     p->filter_width);
  TF_LITE_ENSURE_MSG(ctx, p->padding == kTfLitePaddingSame || p->padding == kTfLitePaddingValid,
                     "unknown padding %d", (int)p->padding);
  g->batches = tff_dim(in, 0);
  g->in_h = tff_dim(in, 1);
  g->in_w = tff_dim(in, 2);
  g->channels = tff_dim(in, 3);
  g->stride_h = p->stride_height;
  g->stride_w = p->stride_width;
  g->filter_h = p->filter_height;
  g->filter_w = p->filter_width;
  g->out_h = tff_conv_out_size(p->padding, g->in_h, g->filter_h, g->stride_h, 1);
  g->out_w = tff_conv_out_size(p->padding, g->in_w, g->filter_w, g->stride_w, 1);
  int odd;
  g->pad_h = tff_conv_pad(g->stride_h, 1, g->in_h, g->filter_h, g->out_h, &odd);
  g->pad_w = tff_conv_pad(g->stride_w, 1, g->in_w, g->filter_w, g->out_w, &odd);
  tff_act_range_float(p->activation, &g->flo, &g->fhi);
  const int dims[4] = {g->batches, g->out_h, g->out_w, g->channels};
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, 4, dims));
  return tff_scratch_request(ctx, node, 0, tff_pool_scratch_bytes(g));
}

/* The in-image window [lo, hi) of output index o along one axis. */
static inline void tff_pool_span(int o, int stride, int pad, int filter, int size, int* lo,
                                 int* hi) {
  const int s = o * stride - pad;
  *lo = s > 0 ? s : 0;
  *hi = s + filter < size ? s + filter : size;
}

/* Defines NAME(g, input, output, ind, kernel, params): every output pixel by
 * a pooling ukernel on elements T with params P; ind is the scratch of
 * tff_pool_scratch_bytes. One definition per element type: the tap pointer
 * arrays are typed (const T*), as the kernels read them. */
#define TFF_POOL_DEFINE_RUN(NAME, T, P)                                                      \
  static void NAME(const tff_pool_geom* g, const T* input, T* output, const T** ind,          \
                   void (*kernel)(size_t, size_t, size_t, const T* const*, T*, const P*),     \
                   const P* params) {                                                          \
    const size_t C = (size_t)g->channels, chunk = tff_pool_chunk(g);                          \
    for (int b = 0; b < g->batches; ++b) {                                                    \
      const T* image = input + (size_t)b * g->in_h * g->in_w * C;                             \
      for (int oy = 0; oy < g->out_h; ++oy) {                                                 \
        int y0, y1, x0, x1;                                                                   \
        tff_pool_span(oy, g->stride_h, g->pad_h, g->filter_h, g->in_h, &y0, &y1);             \
        tff_pool_span(0, g->stride_w, g->pad_w, g->filter_w, g->in_w, &x0, &x1);              \
        for (int ox = 0; ox < g->out_w;) {                                                    \
          /* the pixels from ox on whose windows are as wide as ox's */                       \
          const int width = x1 - x0;                                                          \
          size_t n = 0;                                                                       \
          const T** q = ind;                                                                  \
          do {                                                                                \
            for (int y = y0; y < y1; ++y)                                                     \
              for (int x = x0; x < x1; ++x) *q++ = image + ((size_t)y * g->in_w + x) * C;     \
            ++n;                                                                              \
            if (++ox < g->out_w)                                                              \
              tff_pool_span(ox, g->stride_w, g->pad_w, g->filter_w, g->in_w, &x0, &x1);       \
          } while (ox < g->out_w && n < chunk && x1 - x0 == width);                           \
          kernel(n, (size_t)(y1 - y0) * width, C, ind, output, params);                       \
          output += n * C;                                                                    \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }

TFF_POOL_DEFINE_RUN(tff_pool_run_f32, float, tff_f32_pool_params)
TFF_POOL_DEFINE_RUN(tff_pool_run_s8, int8_t, tff_qs8_pool_params)
TFF_POOL_DEFINE_RUN(tff_pool_run_s16, int16_t, tff_qs8_pool_params)

/* int16 (16x8 mode): the qs8 scalar twin's max (max) or average on int16
 * codes, in portable C (XNNPACK, so the ukernels, has no int16 pooling). */
static TFF_ALWAYS_INLINE void tff_pool_s16(size_t pixels, size_t taps, size_t channels,
                                           const int16_t* const* in, int16_t* out,
                                           const tff_qs8_pool_params* p, const int max) {
  for (; pixels != 0; --pixels, in += taps, out += channels) {
    for (size_t c = 0; c < channels; ++c) {
      int32_t a = max ? INT16_MIN : 0;
      for (size_t t = 0; t < taps; ++t) a = max ? (in[t][c] > a ? in[t][c] : a) : a + in[t][c];
      if (!max) a = tff_qs8_avgpool_quot(a, (int32_t)taps);
      out[c] = (int16_t)(a < p->min ? p->min : (a > p->max ? p->max : a));
    }
  }
}

typedef void tff_s16_pool_fn(size_t pixels, size_t taps, size_t channels,
                             const int16_t* const* input, int16_t* output,
                             const tff_qs8_pool_params* params);

/* The OpData of both ops: prepare fills the kernel of the output's type. */
typedef struct tff_pool_op {
  tff_pool_geom g;
  tff_f32_pool_params fp;
  tff_qs8_pool_params qp;   /* int8 or int16 activation bounds */
  union {                   /* the kernel of the output's type */
    tff_f32_pool_ukernel* f32;
    tff_qs8_pool_ukernel* s8;
    tff_s16_pool_fn* s16;
  } fn;
  const char* kernel;       /* its name, for profiling and show_config */
} tff_pool_op;

/* The invoke of both ops; scratch slot 0 holds tff_pool_scratch_bytes. */
static inline TfLiteStatus tff_pool_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const tff_pool_op* d = (const tff_pool_op*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  void* ind = tff_scratch(ctx, node, 0);
  if (out->type == kTfLiteFloat32)
    tff_pool_run_f32(&d->g, in->data.f, out->data.f, (const float**)ind, d->fn.f32, &d->fp);
  else if (out->type == kTfLiteInt16)
    tff_pool_run_s16(&d->g, in->data.i16, out->data.i16, (const int16_t**)ind, d->fn.s16, &d->qp);
  else
    tff_pool_run_s8(&d->g, in->data.int8, out->data.int8, (const int8_t**)ind, d->fn.s8, &d->qp);
  return kTfLiteOk;
}

/* Prepare's choice of kernel for the output type: f32 and s8 are the
 * family kernels picked for the CPU, s16 the portable int16 one. */
static inline void tff_pool_kernels(tff_pool_op* d, TfLiteType type, tff_f32_pool_ukernel* f32,
                                    const char* f32_name, tff_qs8_pool_ukernel* s8,
                                    const char* s8_name, tff_s16_pool_fn* s16,
                                    const char* s16_name) {
  d->fp = (tff_f32_pool_params){d->g.flo, d->g.fhi};
  if (type == kTfLiteFloat32)
    d->fn.f32 = f32, d->kernel = f32_name;
  else if (type == kTfLiteInt8)
    d->fn.s8 = s8, d->kernel = s8_name;
  else
    d->fn.s16 = s16, d->kernel = s16_name;
}

static inline const char* tff_pool_kernel_name(const TfLiteContext* ctx, const TfLiteNode* node) {
  (void)ctx;
  return ((const tff_pool_op*)node->user_data)->kernel;
}

#endif /* TFLITE_FAST_OPS_POOL_COMMON_H_ */
