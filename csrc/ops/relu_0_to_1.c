/* RELU_0_TO_1: clamp to [0, 1] for float32; int8/uint8 requantized to the
 * output scale and clamped at the quantized bounds (the RELU family,
 * unary_common.h). */
#include "ops.h"
#include "unary_common.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_relu_prepare(ctx, node, "RELU_0_TO_1", 0.0f, 1.0f);
}

const TfLiteRegistration* tff_register_RELU_0_TO_1(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_relu_invoke,
                                       .builtin_code = kTfLiteBuiltinRelu0To1,
                                       .version = 1};
  return &r;
}
