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
    tff_pool_f32(&d->g, in->data.f, out->data.f, 1);
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
