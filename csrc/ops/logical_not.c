/* LOGICAL_NOT: y = !x over bool (TFLite elementwise.cc; bool only). */
#include "ops.h"
#include "unary_common.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  return tff_unary_prepare_types(ctx, node, "LOGICAL_NOT", TFF_TYPE_BIT(kTfLiteBool), "bool",
                                 &in, &out);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t n = tff_num_elements(in->dims);
  for (size_t i = 0; i < n; ++i) out->data.b[i] = !in->data.b[i];
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_LOGICAL_NOT(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinLogicalNot,
                                       .version = 1};
  return &r;
}
