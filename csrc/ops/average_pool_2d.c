/* AVERAGE_POOL_2D: float32, int8 and int16 (TFLite pooling.cc). Padding taps are not
 * counted. int8 (docs/numerics.md §1.10): raw codes (input and output
 * quantization are meant to match; TFLite only DCHECKs it), the sum S of the
 * n in-image taps rounded half away from zero, (S ± n/2)/n, then clamped to
 * the activation bounds. XNNPACK takes only float average pooling, so both
 * numerics modes run this int8 formula; int16 (16x8 mode) runs the same one
 * on int16 codes. */
#include "ops.h"
#include "pool_common.h"

typedef struct OpData {
  tff_pool_geom g;
  int32_t qlo, qhi;   /* int8 activation bounds */
} OpData;

/* What the int8 kernel functions see: the bounds and the int32 sums. */
typedef struct AvgS8 {
  int32_t lo, hi;
  int32_t* acc;
} AvgS8;

static void begin_s8(const void* op, int n, void* out) {
  (void)out;
  memset(((const AvgS8*)op)->acc, 0, (size_t)n * sizeof(int32_t));
}

static void tap_s8(const void* op, const void* pixel, int n, void* out) {
  (void)out;
  const int8_t* p = (const int8_t*)pixel;
  int32_t* acc = ((const AvgS8*)op)->acc;
  for (int c = 0; c < n; ++c) acc[c] += p[c];
}

static void end_s8(const void* op, int count, int n, void* out) {
  const AvgS8* a = (const AvgS8*)op;
  int8_t* o = (int8_t*)out;
  for (int c = 0; c < n; ++c) {
    const int32_t s = a->acc[c];
    int32_t v = (s > 0 ? s + count / 2 : s - count / 2) / count;
    v = v < a->lo ? a->lo : (v > a->hi ? a->hi : v);
    o[c] = (int8_t)v;
  }
}

static void tap_s16(const void* op, const void* pixel, int n, void* out) {
  (void)out;
  const int16_t* p = (const int16_t*)pixel;
  int32_t* acc = ((const AvgS8*)op)->acc;
  for (int c = 0; c < n; ++c) acc[c] += p[c];
}

static void end_s16(const void* op, int count, int n, void* out) {
  const AvgS8* a = (const AvgS8*)op;
  int16_t* o = (int16_t*)out;
  for (int c = 0; c < n; ++c) {
    const int32_t s = a->acc[c];
    int32_t v = (s > 0 ? s + count / 2 : s - count / 2) / count;
    v = v < a->lo ? a->lo : (v > a->hi ? a->hi : v);
    o[c] = (int16_t)v;
  }
}

static const tff_pool_kernel kAvgS8 = {begin_s8, tap_s8, end_s8};
static const tff_pool_kernel kAvgS16 = {begin_s8, tap_s16, end_s16};

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_pool_prepare(ctx, node, d ? &d->g : NULL));
  const TfLitePoolParams* p = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "AVERAGE_POOL_2D", "output", out));
  TF_LITE_ENSURE_OK(ctx, tff_act_range_quant(ctx, p->activation, out, &d->qlo, &d->qhi));
  return tff_scratch_request(ctx, node, 0, (size_t)d->g.channels * sizeof(int32_t));
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->type == kTfLiteFloat32) {
    tff_pool_f32(&d->g, in->data.f, out->data.f, 0);
  } else {
    const AvgS8 op = {d->qlo, d->qhi, (int32_t*)tff_scratch(ctx, node, 0)};
    if (out->type == kTfLiteInt16)
      tff_pool_run(&d->g, sizeof(int16_t), in->data.data, out->data.data, &kAvgS16, &op);
    else
      tff_pool_run(&d->g, sizeof(int8_t), in->data.data, out->data.data, &kAvgS8, &op);
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_AVERAGE_POOL_2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinAveragePool2d,
                                       .version = 1};
  return &r;
}
