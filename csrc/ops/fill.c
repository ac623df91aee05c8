/* FILL: an output of shape `dims` (1-D int32 or int64, entries >= 0) with
 * every element equal to the scalar `value` (TFLite fill.cc). Any value
 * type of 1, 2, 4 or 8 bytes (bool, int8/16/32/64, uint8/16/32, float16/32/64,
 * complex64), copied as raw bytes; quantized values need the output's scale
 * and zero point (int16: zero point 0). Constant dims size the output at
 * prepare; otherwise it is dynamic and invoke sizes it, as in TFLite. */
#include <string.h>

#include "ops.h"
#include "unary_common.h"

/* The output shape from dims; fails on a negative entry or one above INT_MAX. */
static TfLiteStatus output_shape(TfLiteContext* ctx, const TfLiteTensor* dims,
                                 TfLiteIntArray** shape) {
  const int rank = dims->dims->data[0];
  TfLiteIntArray* a = TfLiteIntArrayCreate(rank);
  TF_LITE_ENSURE_MSG(ctx, a != NULL, "FILL: out of memory");
  for (int i = 0; i < rank; ++i) {
    const int64_t d = tff_index_at(dims, i);
    if (d < 0 || d > INT32_MAX) {
      TfLiteIntArrayFree(a);
      TF_LITE_KERNEL_LOG(ctx, "FILL: dimension %d is %lld; it must be in [0, %d]", i,
                         (long long)d, INT32_MAX);
      return kTfLiteError;
    }
    a->data[i] = (int)d;
  }
  *shape = a;
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "FILL: expected 2 inputs and 1 output, got %d and %d", tff_num_inputs(node),
                     tff_num_outputs(node));
  const TfLiteTensor* dims = tff_input(ctx, node, 0);
  const TfLiteTensor* value = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, dims && value && out, "FILL: an input or the output is missing");
  TF_LITE_ENSURE_MSG(ctx, (dims->type == kTfLiteInt32 || dims->type == kTfLiteInt64) &&
                              dims->dims->size == 1,
                     "FILL: dims must be a 1-D int32 or int64 tensor, got %s of rank %d",
                     TfLiteTypeGetName(dims->type), dims->dims->size);
  TF_LITE_ENSURE_MSG(ctx, value->dims->size == 0, "FILL: value must be a scalar, got rank %d",
                     value->dims->size);
  TF_LITE_ENSURE_MSG(ctx, out->type == value->type, "FILL: value type %s and output type %s differ",
                     TfLiteTypeGetName(value->type), TfLiteTypeGetName(out->type));
  const size_t size = tff_type_size(value->type);
  TF_LITE_ENSURE_MSG(ctx, value->type != kTfLiteString && (size == 1 || size == 2 || size == 4 ||
                                                            size == 8),
                     "FILL: value type %s is not supported", TfLiteTypeGetName(value->type));
  TF_LITE_ENSURE_MSG(ctx, tff_scale(out) == tff_scale(value) &&
                              tff_zero_point(out) == tff_zero_point(value),
                     "FILL: output quantization (%g, %d) differs from the value's (%g, %d)",
                     (double)tff_scale(out), (int)tff_zero_point(out), (double)tff_scale(value),
                     (int)tff_zero_point(value));
  TF_LITE_ENSURE_MSG(ctx, value->type != kTfLiteInt16 || tff_zero_point(value) == 0,
                     "FILL: int16 zero point must be 0, got %d", (int)tff_zero_point(value));
  if (!tff_is_constant(dims)) {
    out->allocation_type = kTfLiteDynamic;
    return kTfLiteOk;
  }
  TfLiteIntArray* shape;
  TF_LITE_ENSURE_OK(ctx, output_shape(ctx, dims, &shape));
  return ctx->ResizeTensor(ctx, out, shape);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* value = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLiteDynamic) {
    TfLiteIntArray* shape;
    TF_LITE_ENSURE_OK(ctx, output_shape(ctx, tff_input(ctx, node, 0), &shape));
    TfLiteStatus s = tff_resize_dynamic(ctx, out, shape->size, shape->data);
    TfLiteIntArrayFree(shape);
    TF_LITE_ENSURE_OK(ctx, s);
  }
  const size_t n = tff_num_elements(out->dims), size = tff_type_size(value->type);
  char* y = out->data.raw;
  for (size_t i = 0; i < n; ++i) memcpy(y + i * size, value->data.raw_const, size);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_FILL(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinFill,
                                       .version = 1};
  return &r;
}
