/* LESS: a < b elementwise with broadcasting, BOOL output
 * (comparison_common.h). float32, float16, int16, int32, int64 compare
 * values; int8/uint8 compare TFLite's rescaled values, so differently
 * quantized inputs compare by real value. */
#include "comparison_common.h"
#include "ops.h"

TFF_CMP_ROWS(lt, TFF_CMP_LT)
static const tff_cmp_rows rows = {NULL, lt_f32, lt_f16, lt_i16, lt_i32, lt_i64, lt_q8, NULL,
                                   "float32, float16, int8, uint8, int16, int32, int64"};

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_cmp_prepare(ctx, node, "LESS", &rows);
}

TFF_BOOL_OP_REGISTRATION(LESS, kTfLiteBuiltinLess)
