/* The 2-D pooling window walk shared by AVERAGE_POOL_2D and MAX_POOL_2D
 * (TFLite pooling.cc): NHWC, SAME/VALID padding, and padding taps skipped,
 * so every window is the in-image part of filter_h x filter_w. With SAME or
 * VALID padding each window holds at least one pixel.
 *
 * An op supplies a tff_pool_kernel: begin() resets the accumulators of one
 * output pixel, tap() folds one input pixel (a vector of `channels` values)
 * into them, end() writes the output pixel from them and the tap count. */
#ifndef TFLITE_FAST_OPS_POOL_COMMON_H_
#define TFLITE_FAST_OPS_POOL_COMMON_H_

#include "kernel_util.h"

typedef struct tff_pool_geom {
  int batches, in_h, in_w, channels;
  int out_h, out_w;
  int stride_h, stride_w, filter_h, filter_w;
  int pad_h, pad_w;   /* padding rows / columns before the first pixel */
  float flo, fhi;     /* float activation bounds */
} tff_pool_geom;

typedef struct tff_pool_kernel {
  void (*begin)(const void* op, int channels, void* out);
  void (*tap)(const void* op, const void* pixel, int channels, void* out);
  void (*end)(const void* op, int count, int channels, void* out);
} tff_pool_kernel;

/* Validates the node as TFLite's GenericPrepare does, fills g (g == NULL when
 * init failed) and sizes the output [N, out_h, out_w, C]. */
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
  return tff_resize_output(ctx, out, 4, dims);
}

/* The in-image window [lo, hi) of output index o along one axis. */
static inline void tff_pool_span(int o, int stride, int pad, int filter, int size, int* lo,
                                 int* hi) {
  const int s = o * stride - pad;
  *lo = s > 0 ? s : 0;
  *hi = s + filter < size ? s + filter : size;
}

/* Runs kernel k over every output pixel; elem is the element size in bytes. */
static inline void tff_pool_run(const tff_pool_geom* g, size_t elem, const void* input,
                                void* output, const tff_pool_kernel* k, const void* op) {
  const size_t pixel = (size_t)g->channels * elem;
  const size_t row = (size_t)g->in_w * pixel;
  char* out = (char*)output;
  for (int b = 0; b < g->batches; ++b) {
    const char* image = (const char*)input + (size_t)b * g->in_h * row;
    for (int oy = 0; oy < g->out_h; ++oy) {
      int y0, y1, x0, x1;
      tff_pool_span(oy, g->stride_h, g->pad_h, g->filter_h, g->in_h, &y0, &y1);
      for (int ox = 0; ox < g->out_w; ++ox) {
        tff_pool_span(ox, g->stride_w, g->pad_w, g->filter_w, g->in_w, &x0, &x1);
        k->begin(op, g->channels, out);
        for (int y = y0; y < y1; ++y) {
          for (int x = x0; x < x1; ++x) k->tap(op, image + y * row + x * pixel, g->channels, out);
        }
        k->end(op, (y1 - y0) * (x1 - x0), g->channels, out);
        out += pixel;
      }
    }
  }
}

/* ---- float32: max or average, 16 then 4 channels at a time in 4-lane
 * vectors (GCC/Clang vector extensions: SSE2 or NEON code without an ISA
 * file; -O2 does not vectorize the per-tap loops by itself), fewer than 4
 * channels in scalars. Each channel sees the same operations
 * in the same order as the scalar loop: max starts at -inf and takes a tap
 * only when it is greater (a NaN tap is skipped, as in TFLite's kernel);
 * average sums from 0 in tap order and divides by the in-image tap count.
 * MSVC has no vector extensions: there every channel takes the scalar loop,
 * which gives the same bits. */
#if defined(__GNUC__)
#if defined(__SSE__)
#include <xmmintrin.h>
#endif
typedef float tff_v4f __attribute__((vector_size(16)));
typedef int32_t tff_v4i __attribute__((vector_size(16)));

static inline tff_v4f tff_v4_select(tff_v4i m, tff_v4f a, tff_v4f b) {
  return (tff_v4f)((m & (tff_v4i)a) | (~m & (tff_v4i)b));
}

/* v > a ? v : a per lane (a when either is NaN): one maxps on x86 (SSE is
 * baseline there), whose NaN rule is exactly this; a select elsewhere (NEON
 * vmaxq returns the NaN). */
static inline tff_v4f tff_v4_max(tff_v4f v, tff_v4f a) {
#if defined(__SSE__)
  return (tff_v4f)_mm_max_ps((__m128)v, (__m128)a);
#else
  return tff_v4_select(v > a, v, a);
#endif
}

/* a < lo ? lo : a, then v > hi ? hi : v (a NaN passes): on x86 maxps and
 * minps with the value second, which return it for a NaN or a tie. */
static inline tff_v4f tff_v4_clamp(tff_v4f a, tff_v4f lo, tff_v4f hi) {
#if defined(__SSE__)
  return (tff_v4f)_mm_min_ps((__m128)hi, _mm_max_ps((__m128)lo, (__m128)a));
#else
  const tff_v4f v = tff_v4_select(a < lo, lo, a);
  return tff_v4_select(v > hi, hi, v);
#endif
}

/* NV (1 to 4) vectors of channels from channel c on (NV, NT and MAX
 * constants after inlining, so acc stays in registers). The taps are the
 * window's in-image pixels, in order, or, when NT > 0 (max over a whole
 * window), first + off[t] for t < NT in an unrolled loop without the
 * window's index math: off lists the taps in order, padded by repeating
 * the first, which never passes the `greater` test again (the bits stay
 * those of the in-order fold). */
static TFF_ALWAYS_INLINE void tff_pool_f32_vecs(const tff_pool_geom* g, const float* image,
                                                const float* first, const size_t* off,
                                                const int NT, int y0, int y1, int x0, int x1,
                                                size_t c, const int NV, const int MAX,
                                                float* out) {
  const float init = MAX ? -INFINITY : 0.0f;
  tff_v4f acc[4];
  _Pragma("GCC unroll 4")
  for (int j = 0; j < NV; ++j) acc[j] = (tff_v4f){init, init, init, init};
#define TFF_POOL_TAP(p)                                          \
  _Pragma("GCC unroll 4") for (int j = 0; j < NV; ++j) {         \
    tff_v4f v;                                                   \
    memcpy(&v, (p) + c + 4 * j, sizeof(v));                      \
    acc[j] = MAX ? tff_v4_max(v, acc[j]) : acc[j] + v;           \
  }
  if (NT) {
    _Pragma("GCC unroll 9")
    for (int t = 0; t < NT; ++t) TFF_POOL_TAP(first + off[t])
  } else {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) TFF_POOL_TAP(image + ((size_t)y * g->in_w + x) * g->channels)
  }
#undef TFF_POOL_TAP
  const float count = (float)((y1 - y0) * (x1 - x0));
  const tff_v4f lo = {g->flo, g->flo, g->flo, g->flo}, hi = {g->fhi, g->fhi, g->fhi, g->fhi};
  _Pragma("GCC unroll 4")
  for (int j = 0; j < NV; ++j) {
    const tff_v4f a = MAX ? acc[j] : acc[j] / (tff_v4f){count, count, count, count};
    acc[j] = tff_v4_clamp(a, lo, hi);
  }
  memcpy(out + c, acc, (size_t)NV * sizeof(tff_v4f));
}
#endif

static inline void tff_pool_f32_tail(const tff_pool_geom* g, const float* image, int y0, int y1,
                                     int x0, int x1, int n, int max, float* out) {
  for (int c = 0; c < n; ++c) {
    float m = max ? -INFINITY : 0.0f;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        const float v = image[((size_t)y * g->in_w + x) * g->channels + c];
        m = max ? (v > m ? v : m) : m + v;
      }
    if (!max) m /= (float)((y1 - y0) * (x1 - x0));
    out[c] = m < g->flo ? g->flo : (m > g->fhi ? g->fhi : m);
  }
}

/* One output pixel, all channels: 16 at a time, then the 1-3 vectors left
 * in one walk (independent chains, taps once), then the 1-3 channels left
 * as the vector ending at the last channel (its other lanes get the values
 * they already have) or, with fewer than 4 channels, in scalars. */
static TFF_ALWAYS_INLINE void tff_pool_f32_pixel(const tff_pool_geom* g, const float* in,
                                                 const float* first, const size_t* off,
                                                 const int NT, int y0, int y1, int x0, int x1,
                                                 const int MAX, float* out) {
  const size_t n = (size_t)g->channels;
  size_t c = 0;
#if defined(__GNUC__)
#define TFF_POOL_VECS(c, nv) \
  tff_pool_f32_vecs(g, in, first, off, NT, y0, y1, x0, x1, c, nv, MAX, out)
  for (; c + 16 <= n; c += 16) TFF_POOL_VECS(c, 4);
  const size_t nv = (n - c) / 4;
  if (nv == 3) TFF_POOL_VECS(c, 3);
  if (nv == 2) TFF_POOL_VECS(c, 2);
  if (nv == 1) TFF_POOL_VECS(c, 1);
  c += 4 * nv;
  if (c < n && n >= 4) {
    TFF_POOL_VECS(n - 4, 1);
    c = n;
  }
#undef TFF_POOL_VECS
#endif
  tff_pool_f32_tail(g, in + c, y0, y1, x0, x1, (int)(n - c), MAX, out + c);
}

static TFF_ALWAYS_INLINE void tff_pool_f32_walk(const tff_pool_geom* g, const float* in,
                                                float* out, const int MAX) {
  const size_t image = (size_t)g->in_h * g->in_w * g->channels;
  /* Max over a whole window of at most 9 taps (all of them with VALID
   * padding): the taps' offsets from the window's first pixel, padded to 4
   * or 9 by repeating the first tap. */
  const int taps = g->filter_h * g->filter_w, nt = taps <= 4 ? 4 : 9;
  size_t off[9] = {0};
  for (int t = 0; MAX && t < taps && taps <= 9; ++t)
    off[t] = ((size_t)(t / g->filter_w) * g->in_w + (size_t)(t % g->filter_w)) * g->channels;
  for (int b = 0; b < g->batches; ++b, in += image) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      int y0, y1, x0, x1;
      tff_pool_span(oy, g->stride_h, g->pad_h, g->filter_h, g->in_h, &y0, &y1);
      for (int ox = 0; ox < g->out_w; ++ox, out += g->channels) {
        tff_pool_span(ox, g->stride_w, g->pad_w, g->filter_w, g->in_w, &x0, &x1);
        const float* first = in + ((size_t)y0 * g->in_w + x0) * g->channels;
        if (!MAX || taps > 9 || (y1 - y0) * (x1 - x0) != taps)
          tff_pool_f32_pixel(g, in, NULL, 0, 0, y0, y1, x0, x1, MAX, out);
        else if (nt == 4)
          tff_pool_f32_pixel(g, in, first, off, 4, y0, y1, x0, x1, 1, out);
        else
          tff_pool_f32_pixel(g, in, first, off, 9, y0, y1, x0, x1, 1, out);
      }
    }
  }
}

/* max: MAX_POOL_2D, else AVERAGE_POOL_2D. */
static inline void tff_pool_f32(const tff_pool_geom* g, const float* in, float* out, int max) {
  if (max)
    tff_pool_f32_walk(g, in, out, 1);
  else
    tff_pool_f32_walk(g, in, out, 0);
}

#endif /* TFLITE_FAST_OPS_POOL_COMMON_H_ */
