/* SQUARED_DIFFERENCE: (a − b)², with broadcasting (binary_common.h's walk).
 * float32 and int32 compute it directly (int32 wraps). XNNPACK takes only
 * float32, where its result is the same, so both modes share one formula;
 * for int8 it is TFLite's (squared_difference.cc), with left_shift = 7:
 *   t = 2·max(s_a, s_b)
 *   (Ma, ea) = QM(s_a/t), (Mb, eb) = QM(s_b/t), (Mo, eo) = QM(t²/(2^14·s_out))
 *   u = MBQM((a − z_a)·2^7, Ma, ea) − MBQM((b − z_b)·2^7, Mb, eb)
 *   y = clamp(MBQM(u², Mo, eo) + z_out)
 * all MBQM with exponents <= 0; TFLite aborts when t²/(2^14·s_out) >= 1,
 * prepare refuses it. */
#include "binary_common.h"
#include "ops.h"

typedef struct SqDiffQ8 {
  int32_t za, zb, zo;
  int32_t ma, mb, mo;
  int ea, eb, eo;
} SqDiffQ8;

typedef struct OpData {
  tff_binary op;
  SqDiffQ8 q8;
} OpData;

static inline int8_t sqdiff_q8(int8_t a, int8_t b, const SqDiffQ8* p) {
  const int32_t ua = tff_mbqm((a - p->za) * (1 << 7), p->ma, p->ea);
  const int32_t ub = tff_mbqm((b - p->zb) * (1 << 7), p->mb, p->eb);
  const int32_t o = tff_mbqm((ua - ub) * (ua - ub), p->mo, p->eo) + p->zo;
  return (int8_t)(o < INT8_MIN ? INT8_MIN : (o > INT8_MAX ? INT8_MAX : o));
}

static inline float sqdiff_f32(float a, float b, const void* p) {
  (void)p;
  const float d = a - b;
  return d * d;
}

static inline int32_t sqdiff_i32(int32_t a, int32_t b, const void* p) {
  (void)p;
  const uint32_t d = (uint32_t)a - (uint32_t)b;
  return (int32_t)(d * d);
}

TFF_BINARY_ROW(sqdiff_q8_row, int8_t, SqDiffQ8, sqdiff_q8)
TFF_BINARY_ROW(sqdiff_f32_row, float, void, sqdiff_f32)
TFF_BINARY_ROW(sqdiff_i32_row, int32_t, void, sqdiff_i32)

static TfLiteStatus prepare_q8(TfLiteContext* ctx, const TfLiteTensor* a, const TfLiteTensor* b,
                               const TfLiteTensor* out, SqDiffQ8* p) {
  TF_LITE_ENSURE_OK(ctx, tff_check_q8(ctx, "SQUARED_DIFFERENCE", "input 1", a));
  TF_LITE_ENSURE_OK(ctx, tff_check_q8(ctx, "SQUARED_DIFFERENCE", "input 2", b));
  TF_LITE_ENSURE_OK(ctx, tff_check_q8(ctx, "SQUARED_DIFFERENCE", "output", out));
  const float sa = tff_scale(a), sb = tff_scale(b), so = tff_scale(out);
  const double t = (double)(2.0f * (sa > sb ? sa : sb));
  const double real_out = t * t / (double)(16384.0f * so);
  TF_LITE_ENSURE_MSG(ctx, isfinite(t) && real_out > 0.0 && real_out < 1.0,
                     "SQUARED_DIFFERENCE: output scale %g is too small for input scales %g and %g",
                     (double)so, (double)sa, (double)sb);
  tff_quantize_multiplier((double)sa / t, &p->ma, &p->ea);
  tff_quantize_multiplier((double)sb / t, &p->mb, &p->eb);
  tff_quantize_multiplier(real_out, &p->mo, &p->eo);
  p->za = tff_zero_point(a);
  p->zb = tff_zero_point(b);
  p->zo = tff_zero_point(out);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "SQUARED_DIFFERENCE: out of memory");
  TF_LITE_ENSURE_OK(ctx, tff_binary_prepare(ctx, node, "SQUARED_DIFFERENCE", &d->op));
  d->op.params = &d->q8;
  switch (tff_output(ctx, node, 0)->type) {
    case kTfLiteFloat32: d->op.row = sqdiff_f32_row; break;
    case kTfLiteInt32: d->op.row = sqdiff_i32_row; break;
    default:
      d->op.row = sqdiff_q8_row;
      TF_LITE_ENSURE_OK(ctx, prepare_q8(ctx, tff_input(ctx, node, 0), tff_input(ctx, node, 1),
                                        tff_output(ctx, node, 0), &d->q8));
      break;
  }
  return tff_binary_fold(ctx, node, &d->op);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_binary_invoke(ctx, node, &((const OpData*)node->user_data)->op);
}

TFF_ZEROED_INIT(init, OpData)

const TfLiteRegistration* tff_register_SQUARED_DIFFERENCE(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinSquaredDifference,
                                       .version = 1};
  return &r;
}
