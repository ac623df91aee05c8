/* EQUAL: a == b elementwise with broadcasting, BOOL output
 * (comparison_common.h). bool, float32, float16, int32, int64 and
 * unquantized int16 compare values; int8/uint8 and quantized int16 compare
 * TFLite's rescaled values, so differently quantized inputs compare by real
 * value. */
#include "comparison_common.h"
#include "ops.h"

TFF_CMP_ROWS(eq, TFF_CMP_EQ)
static const tff_cmp_rows rows = {eq_b, eq_f32, eq_f16, eq_i16, eq_i32, eq_i64, eq_q8, eq_q16,
                                   "bool, float32, float16, int8, uint8, int16, int32, int64"};

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_cmp_prepare(ctx, node, "EQUAL", &rows);
}

TFF_BOOL_OP_REGISTRATION(EQUAL, kTfLiteBuiltinEqual)
