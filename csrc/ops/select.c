/* SELECT: cond ? x : y elementwise; x and y of one shape, the condition
 * of that shape, a scalar, or of rank 1 over x's first dim (select_common.h). */
#include "ops.h"
#include "select_common.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_select_prepare(ctx, node, "SELECT", 0);
}

TFF_ZEROED_INIT(init, tff_select)

const TfLiteRegistration* tff_register_SELECT(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_select_invoke,
                                       .builtin_code = kTfLiteBuiltinSelect,
                                       .version = 1};
  return &r;
}
