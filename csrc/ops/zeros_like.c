/* ZEROS_LIKE: zeros of the input's shape and type; int64, int32 and float32
 * (TFLite zeros_like.cc; it refuses other types at invoke, this kernel at
 * prepare). */
#include <string.h>

#include "ops.h"
#include "unary_common.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  return tff_unary_prepare_types(
      ctx, node, "ZEROS_LIKE",
      TFF_TYPE_BIT(kTfLiteInt64) | TFF_TYPE_BIT(kTfLiteInt32) | TFF_TYPE_BIT(kTfLiteFloat32),
      "int64, int32, float32", &in, &out);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  memset(out->data.raw, 0, tff_num_elements(out->dims) * tff_type_size(out->type));
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_ZEROS_LIKE(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinZerosLike,
                                       .version = 1};
  return &r;
}
