/* ADD_N: the elementwise sum of N >= 2 inputs of one shape, float32 or
 * int32 (int32 wraps), as TFLite's AddN: input 0 plus each further input in
 * order. XNNPACK takes no ADD_N, so both numerics modes are this. */
#include "kernel_util.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const int n = tff_num_inputs(node);
  TF_LITE_ENSURE_MSG(ctx, n >= 2 && tff_num_outputs(node) == 1,
                     "ADD_N: expected at least 2 inputs and 1 output, got %d and %d", n,
                     tff_num_outputs(node));
  const TfLiteTensor* a = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, a && out, "ADD_N: input 0 or the output is missing");
  TF_LITE_ENSURE_MSG(ctx, a->type == kTfLiteFloat32 || a->type == kTfLiteInt32,
                     "ADD_N: type %s is not supported (float32, int32)",
                     TfLiteTypeGetName(a->type));
  TF_LITE_ENSURE_MSG(ctx, out->type == a->type, "ADD_N: output type %s must be %s",
                     TfLiteTypeGetName(out->type), TfLiteTypeGetName(a->type));
  for (int i = 1; i < n; ++i) {
    const TfLiteTensor* t = tff_input(ctx, node, i);
    TF_LITE_ENSURE_MSG(ctx, t != NULL, "ADD_N: input %d is missing", i);
    TF_LITE_ENSURE_MSG(ctx, t->type == a->type, "ADD_N: input %d type %s must be %s", i,
                       TfLiteTypeGetName(t->type), TfLiteTypeGetName(a->type));
    TF_LITE_ENSURE_MSG(ctx, TfLiteIntArrayEqual(t->dims, a->dims),
                       "ADD_N: input %d shape differs from input 0's", i);
  }
  return tff_resize_output(ctx, out, a->dims->size, a->dims->data);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const int n = tff_num_inputs(node);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t count = tff_num_elements(out->dims);
  const TfLiteTensor* a = tff_input(ctx, node, 0);
  if (out->type == kTfLiteFloat32) {
    float* o = out->data.f;
    memmove(o, a->data.f, count * sizeof(float));
    for (int k = 1; k < n; ++k) {
      const float* x = tff_input(ctx, node, k)->data.f;
      for (size_t i = 0; i < count; ++i) o[i] += x[i];
    }
  } else {
    uint32_t* o = (uint32_t*)out->data.i32;
    memmove(o, a->data.i32, count * sizeof(int32_t));
    for (int k = 1; k < n; ++k) {
      const int32_t* x = tff_input(ctx, node, k)->data.i32;
      for (size_t i = 0; i < count; ++i) o[i] += (uint32_t)x[i];
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_ADD_N(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinAddN,
                                       .version = 1};
  return &r;
}
