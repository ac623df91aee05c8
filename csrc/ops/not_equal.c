/* NOT_EQUAL: a != b elementwise with broadcasting, BOOL output
 * (comparison_common.h). bool, float32, float16, int32, int64 and
 * unquantized int16 compare values; int8/uint8 and quantized int16 compare
 * TFLite's rescaled values, so differently quantized inputs compare by real
 * value. */
#include "comparison_common.h"
#include "ops.h"

TFF_CMP_ROWS(ne, TFF_CMP_NE)
static const tff_cmp_rows rows = {ne_b, ne_f32, ne_f16, ne_i16, ne_i32, ne_i64, ne_q8, ne_q16,
                                   "bool, float32, float16, int8, uint8, int16, int32, int64"};

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_cmp_prepare(ctx, node, "NOT_EQUAL", &rows);
}

TFF_BOOL_OP_REGISTRATION(NOT_EQUAL, kTfLiteBuiltinNotEqual)
