/* LESS_EQUAL: a <= b elementwise with broadcasting, BOOL output
 * (comparison_common.h). float32, float16, int16, int32, int64 compare
 * values; int8/uint8 compare TFLite's rescaled values, so differently
 * quantized inputs compare by real value. */
#include "comparison_common.h"
#include "ops.h"

TFF_CMP_ROWS(le, TFF_CMP_LE)
static const tff_cmp_rows rows = {NULL, le_f32, le_f16, le_i16, le_i32, le_i64, le_q8, NULL,
                                   "float32, float16, int8, uint8, int16, int32, int64"};

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_cmp_prepare(ctx, node, "LESS_EQUAL", &rows);
}

TFF_BOOL_OP_REGISTRATION(LESS_EQUAL, kTfLiteBuiltinLessEqual)
