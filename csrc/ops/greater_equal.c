/* GREATER_EQUAL: a >= b elementwise with broadcasting, BOOL output
 * (comparison_common.h). float32, float16, int16, int32, int64 compare
 * values; int8/uint8 compare TFLite's rescaled values, so differently
 * quantized inputs compare by real value. */
#include "comparison_common.h"
#include "ops.h"

TFF_CMP_ROWS(ge, TFF_CMP_GE)
static const tff_cmp_rows rows = {NULL, ge_f32, ge_f16, ge_i16, ge_i32, ge_i64, ge_q8, NULL,
                                   "float32, float16, int8, uint8, int16, int32, int64"};

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_cmp_prepare(ctx, node, "GREATER_EQUAL", &rows);
}

TFF_BOOL_OP_REGISTRATION(GREATER_EQUAL, kTfLiteBuiltinGreaterEqual)
