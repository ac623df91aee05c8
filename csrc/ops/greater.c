/* GREATER: a > b elementwise with broadcasting, BOOL output
 * (comparison_common.h). float32, float16, int16, int32, int64 compare
 * values; int8/uint8 compare TFLite's rescaled values, so differently
 * quantized inputs compare by real value. */
#include "comparison_common.h"
#include "ops.h"

TFF_CMP_ROWS(gt, TFF_CMP_GT)
static const tff_cmp_rows rows = {NULL, gt_f32, gt_f16, gt_i16, gt_i32, gt_i64, gt_q8, NULL,
                                   "float32, float16, int8, uint8, int16, int32, int64"};

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_cmp_prepare(ctx, node, "GREATER", &rows);
}

TFF_BOOL_OP_REGISTRATION(GREATER, kTfLiteBuiltinGreater)
