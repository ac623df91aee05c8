/* LOGICAL_AND: a && b elementwise over BOOL tensors, with broadcasting
 * (comparison_common.h). */
#include "comparison_common.h"
#include "ops.h"

#define AND(x, y, p) ((x) && (y))
TFF_BOOL_ROW(and_row, bool, tff_bool_op, AND)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  tff_bool_op* op = (tff_bool_op*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_bool_op_prepare(ctx, node, "LOGICAL_AND", op));
  const TfLiteType t = tff_input(ctx, node, 0)->type;
  TF_LITE_ENSURE_MSG(ctx, t == kTfLiteBool, "LOGICAL_AND: input type %s must be BOOL",
                     TfLiteTypeGetName(t));
  op->row = and_row;
  return tff_bool_op_fold(ctx, node, op);
}

const TfLiteRegistration* tff_register_LOGICAL_AND(void) {
  static const TfLiteRegistration r = {.init = tff_bool_op_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_bool_op_invoke,
                                       .builtin_code = kTfLiteBuiltinLogicalAnd,
                                       .version = 1};
  return &r;
}
