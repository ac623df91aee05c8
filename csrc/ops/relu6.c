/* RELU6: min(max(x, 0), 6) for float32; int8/uint8 requantized to the output
 * scale and clamped to the quantized [0, 6] (the RELU family, unary_common.h). */
#include "ops.h"
#include "unary_common.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_relu_prepare(ctx, node, "RELU6", 0.0f, 6.0f);
}

const TfLiteRegistration* tff_register_RELU6(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_relu_invoke,
                                       .builtin_code = kTfLiteBuiltinRelu6,
                                       .version = 1};
  return &r;
}
