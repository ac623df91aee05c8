/* MAX_POOL_2D: float32, int8 and int16 (TFLite pooling.cc). The int8 kernel works on
 * raw codes like TFLite's: input and output quantization are meant to match
 * (TFLite only DCHECKs it), and the output is clamped to the activation
 * bounds of the output quantization. int16 (16x8 mode) is the same on
 * int16 codes in both numerics modes: XNNPACK takes no int16 pooling. */
#include "ops.h"
#include "pool_common.h"

typedef struct OpData {
  tff_pool_geom g;
  int32_t qlo, qhi;   /* int8 activation bounds */
} OpData;

/* Float: each output pixel 16 (then 4) channels at a time, the running max
 * in 4-lane vectors (GCC/Clang vector extensions: SSE2 or NEON code without an
 * ISA file; -O2 does not vectorize these loops by itself). Starts at -inf
 * and takes a tap only when it is greater, so a NaN tap is skipped, as in
 * TFLite's kernel; the last channels (fewer than 4) run the same in scalars. */
typedef float tff_v4f __attribute__((vector_size(16)));
typedef int32_t tff_v4i __attribute__((vector_size(16)));

static inline tff_v4f tff_v4_select(tff_v4i m, tff_v4f a, tff_v4f b) {
  return (tff_v4f)((m & (tff_v4i)a) | (~m & (tff_v4i)b));
}

static inline tff_v4f tff_v4_load(const float* p) {
  tff_v4f v;
  memcpy(&v, p, sizeof(v));
  return v;
}

/* NV (1 or 4, a constant after inlining) vectors of channels at `image`. */
static inline __attribute__((always_inline)) void max_f32_vecs(const tff_pool_geom* g,
                                                               const float* image, int y0,
                                                               int y1, int x0, int x1,
                                                               const int NV, float* out) {
  tff_v4f acc[4];
  _Pragma("GCC unroll 4")
  for (int j = 0; j < NV; ++j) acc[j] = (tff_v4f){-INFINITY, -INFINITY, -INFINITY, -INFINITY};
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const float* p = image + ((size_t)y * g->in_w + x) * g->channels;
      _Pragma("GCC unroll 4")
      for (int j = 0; j < NV; ++j) {
        const tff_v4f v = tff_v4_load(p + 4 * j);
        acc[j] = tff_v4_select(v > acc[j], v, acc[j]);
      }
    }
  }
  const tff_v4f lo = {g->flo, g->flo, g->flo, g->flo}, hi = {g->fhi, g->fhi, g->fhi, g->fhi};
  _Pragma("GCC unroll 4")
  for (int j = 0; j < NV; ++j) {
    const tff_v4f v = tff_v4_select(acc[j] < lo, lo, acc[j]);
    acc[j] = tff_v4_select(v > hi, hi, v);
  }
  memcpy(out, acc, (size_t)NV * sizeof(tff_v4f));
}

static void max_f32_tail(const tff_pool_geom* g, const float* image, int y0, int y1, int x0,
                         int x1, int n, float* out) {
  for (int c = 0; c < n; ++c) {
    float m = -INFINITY;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        const float v = image[((size_t)y * g->in_w + x) * g->channels + c];
        m = v > m ? v : m;
      }
    out[c] = m < g->flo ? g->flo : (m > g->fhi ? g->fhi : m);
  }
}

static void max_f32(const tff_pool_geom* g, const float* in, float* out) {
  const size_t image = (size_t)g->in_h * g->in_w * g->channels;
  for (int b = 0; b < g->batches; ++b) {
    for (int oy = 0; oy < g->out_h; ++oy) {
      int y0, y1, x0, x1;
      tff_pool_span(oy, g->stride_h, g->pad_h, g->filter_h, g->in_h, &y0, &y1);
      for (int ox = 0; ox < g->out_w; ++ox, out += g->channels) {
        tff_pool_span(ox, g->stride_w, g->pad_w, g->filter_w, g->in_w, &x0, &x1);
        int c0 = 0;
        for (; c0 + 16 <= g->channels; c0 += 16)
          max_f32_vecs(g, in + b * image + c0, y0, y1, x0, x1, 4, out + c0);
        for (; c0 + 4 <= g->channels; c0 += 4)
          max_f32_vecs(g, in + b * image + c0, y0, y1, x0, x1, 1, out + c0);
        max_f32_tail(g, in + b * image + c0, y0, y1, x0, x1, g->channels - c0, out + c0);
      }
    }
  }
}

static void begin_s8(const void* op, int n, void* out) {
  (void)op;
  memset(out, INT8_MIN, (size_t)n);
}

static void tap_s8(const void* op, const void* pixel, int n, void* out) {
  (void)op;
  const int8_t* p = (const int8_t*)pixel;
  int8_t* o = (int8_t*)out;
  for (int c = 0; c < n; ++c) o[c] = p[c] > o[c] ? p[c] : o[c];
}

static void end_s8(const void* op, int count, int n, void* out) {
  (void)count;
  const OpData* d = (const OpData*)op;
  int8_t* o = (int8_t*)out;
  for (int c = 0; c < n; ++c) {
    const int32_t v = o[c];
    o[c] = (int8_t)(v < d->qlo ? d->qlo : (v > d->qhi ? d->qhi : v));
  }
}

static void begin_s16(const void* op, int n, void* out) {
  (void)op;
  int16_t* o = (int16_t*)out;
  for (int c = 0; c < n; ++c) o[c] = INT16_MIN;
}

static void tap_s16(const void* op, const void* pixel, int n, void* out) {
  (void)op;
  const int16_t* p = (const int16_t*)pixel;
  int16_t* o = (int16_t*)out;
  for (int c = 0; c < n; ++c) o[c] = p[c] > o[c] ? p[c] : o[c];
}

static void end_s16(const void* op, int count, int n, void* out) {
  (void)count;
  const OpData* d = (const OpData*)op;
  int16_t* o = (int16_t*)out;
  for (int c = 0; c < n; ++c) {
    const int32_t v = o[c];
    o[c] = (int16_t)(v < d->qlo ? d->qlo : (v > d->qhi ? d->qhi : v));
  }
}

static const tff_pool_kernel kMaxS8 = {begin_s8, tap_s8, end_s8};
static const tff_pool_kernel kMaxS16 = {begin_s16, tap_s16, end_s16};

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_pool_prepare(ctx, node, d ? &d->g : NULL));
  const TfLitePoolParams* p = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MAX_POOL_2D", "output", out));
  if (out->type == kTfLiteInt16)
    return tff_act_range_quant(ctx, p->activation, out, &d->qlo, &d->qhi);
  /* AUTO hands int8 max pooling to XNNPACK when no stride exceeds the filter
   * and the quantization of input and output match; XNNPACK rounds the
   * activation bounds ties-to-even, the builtin kernel half away from zero.
   * XNNPACK declines activations past RELU6; tff_act_range_quant rejects them. */
  const int xnnpack = !tff_numerics_ref(ctx) && p->stride_width <= p->filter_width &&
                      p->stride_height <= p->filter_height &&
                      tff_scale(in) == tff_scale(out) &&
                      tff_zero_point(in) == tff_zero_point(out);
  if (xnnpack && p->activation <= kTfLiteActRelu6) {
    tff_act_range_quant_xnn(p->activation, tff_scale(out), tff_zero_point(out), INT8_MIN,
                            INT8_MAX, &d->qlo, &d->qhi);
    return kTfLiteOk;
  }
  return tff_act_range_quant(ctx, p->activation, out, &d->qlo, &d->qhi);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->type == kTfLiteFloat32) {
    max_f32(&d->g, in->data.f, out->data.f);
  } else if (out->type == kTfLiteInt16) {
    tff_pool_run(&d->g, sizeof(int16_t), in->data.data, out->data.data, &kMaxS16, d);
  } else {
    tff_pool_run(&d->g, sizeof(int8_t), in->data.data, out->data.data, &kMaxS8, d);
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_MAX_POOL_2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinMaxPool2d,
                                       .version = 1};
  return &r;
}
