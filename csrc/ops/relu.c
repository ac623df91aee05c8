/* RELU: max(x, 0) for float32; int8/uint8 requantized to the output scale
 * and clamped at the quantized 0 (the RELU family, unary_common.h). */
#include "ops.h"
#include "unary_common.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_relu_prepare(ctx, node, "RELU", 0.0f, INFINITY);
}

const TfLiteRegistration* tff_register_RELU(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_relu_invoke,
                                       .builtin_code = kTfLiteBuiltinRelu,
                                       .version = 1};
  return &r;
}
