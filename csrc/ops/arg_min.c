/* ARG_MIN: see arg_min_max.h. */
#include "arg_min_max.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_argmm_prepare(ctx, node, "ARG_MIN");
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  tff_argmm_invoke(ctx, node, 0);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_ARG_MIN(void) {
  static const TfLiteRegistration r = {.init = tff_argmm_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinArgMin,
                                       .version = 1};
  return &r;
}
