/* LOGICAL_AND: a && b elementwise over BOOL tensors, with broadcasting
 * (comparison_common.h). */
#include "comparison_common.h"
#include "ops.h"

#define AND(x, y, p) ((x) && (y))
TFF_BOOL_ROW(and_row, bool, tff_bool_op, AND)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_logical_prepare(ctx, node, "LOGICAL_AND", and_row);
}

TFF_BOOL_OP_REGISTRATION(LOGICAL_AND, kTfLiteBuiltinLogicalAnd)
