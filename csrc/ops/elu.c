/* ELU: y = x for x >= 0, e^x − 1 below (TFLite activations.cc).
 *  - float32: expm1f in both modes (AUTO's XNNPACK approximation is within
 *    1e-5 of it).
 *  - int8 (quantized), as a table: default mode runs XNNPACK's (AUTO
 *    delegates int8 ELU), reference mode TFLite's LUTPopulate with expm1f
 *    (unary_common.h tff_lut8_fill). BUILTIN_REF has no ELU; the reference
 *    mode is TFLite's builtin kernel. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

static float elu(float x) { return x < 0.0f ? expm1f(x) : x; }

static float elu_fn(float x, const void* params) {
  (void)params;
  return elu(x);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare_types(
                             ctx, node, "ELU",
                             TFF_TYPE_BIT(kTfLiteFloat32) | TFF_TYPE_BIT(kTfLiteInt8),
                             "float32, int8", &in, &out));
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(ctx, tff_unary_check_quant(ctx, "ELU", in, out, 0));
  tff_lut8_fill(in, out, !tff_numerics_ref(ctx), elu_fn, NULL,
                ((tff_table_data*)node->user_data)->lut);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_table_invoke(ctx, node, elu);
}

const TfLiteRegistration* tff_register_ELU(void) {
  static const TfLiteRegistration r = {.init = tff_table_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinElu,
                                       .version = 1};
  return &r;
}
