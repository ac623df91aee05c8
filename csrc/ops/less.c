/* LESS: a < b elementwise with broadcasting, BOOL output
 * (comparison_common.h). float32, int16, int32, int64 compare values;
 * int8/uint8 compare TFLite's rescaled values, so differently quantized
 * inputs compare by real value. */
#include "comparison_common.h"
#include "ops.h"

#define LT(x, y, p) ((x) < (y))
#define LT_Q8(x, y, p) ((p)->lut_a[(uint8_t)(x)] < (p)->lut_b[(uint8_t)(y)])
TFF_BOOL_ROW(less_f32, float, tff_bool_op, LT)
TFF_BOOL_ROW(less_i16, int16_t, tff_bool_op, LT)
TFF_BOOL_ROW(less_i32, int32_t, tff_bool_op, LT)
TFF_BOOL_ROW(less_i64, int64_t, tff_bool_op, LT)
TFF_BOOL_ROW(less_q8, uint8_t, tff_bool_op, LT_Q8)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  tff_bool_op* op = (tff_bool_op*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_bool_op_prepare(ctx, node, "LESS", op));
  const TfLiteTensor* a = tff_input(ctx, node, 0);
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  switch (a->type) {
    case kTfLiteFloat32: op->row = less_f32; break;
    case kTfLiteInt16: op->row = less_i16; break;
    case kTfLiteInt32: op->row = less_i32; break;
    case kTfLiteInt64: op->row = less_i64; break;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      TF_LITE_ENSURE_OK(ctx, tff_cmp_table(ctx, "LESS", "input 0", a, op->lut_a));
      TF_LITE_ENSURE_OK(ctx, tff_cmp_table(ctx, "LESS", "input 1", b, op->lut_b));
      op->row = less_q8;
      break;
    default:
      TF_LITE_KERNEL_LOG(ctx, "LESS: type %s is not supported (float32, int8, uint8, int16, "
                         "int32, int64)", TfLiteTypeGetName(a->type));
      return kTfLiteError;
  }
  return tff_bool_op_fold(ctx, node, op);
}

const TfLiteRegistration* tff_register_LESS(void) {
  static const TfLiteRegistration r = {.init = tff_bool_op_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_bool_op_invoke,
                                       .builtin_code = kTfLiteBuiltinLess,
                                       .version = 1};
  return &r;
}
