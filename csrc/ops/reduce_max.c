/* REDUCE_MAX: see reduce_minmax.h. */
#include "ops.h"
#include "reduce_minmax.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_minmax_prepare(ctx, node, 1);
}

const TfLiteRegistration* tff_register_REDUCE_MAX(void) {
  static const TfLiteRegistration r = {.init = tff_minmax_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_minmax_invoke,
                                       .builtin_code = kTfLiteBuiltinReduceMax,
                                       .version = 1};
  return &r;
}
