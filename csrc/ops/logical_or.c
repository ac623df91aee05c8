/* LOGICAL_OR: a || b elementwise over BOOL tensors, with broadcasting
 * (comparison_common.h). */
#include "comparison_common.h"
#include "ops.h"

#define OR(x, y, p) ((x) || (y))
TFF_BOOL_ROW(or_row, bool, tff_bool_op, OR)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_logical_prepare(ctx, node, "LOGICAL_OR", or_row);
}

TFF_BOOL_OP_REGISTRATION(LOGICAL_OR, kTfLiteBuiltinLogicalOr)
