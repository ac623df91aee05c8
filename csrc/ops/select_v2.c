/* SELECT_V2: cond ? x : y elementwise, the three inputs broadcast together up
 * to 8 dims (select_common.h). */
#include "ops.h"
#include "select_common.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_select_prepare(ctx, node, "SELECT_V2", 1);
}

TFF_ZEROED_INIT(init, tff_select)

const TfLiteRegistration* tff_register_SELECT_V2(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_select_invoke,
                                       .builtin_code = kTfLiteBuiltinSelectV2,
                                       .version = 1};
  return &r;
}
