/* WHERE with one input (TFLite where.cc): the coordinates, row-major, of the
 * non-zero elements of the condition (bool, float32, int64, int32, int8,
 * uint8, uint32; codes whatever the quantization), as an int64 [count, rank]
 * tensor. The count depends on the data: a constant condition sizes the
 * output at prepare, else the output is dynamic and sized at invoke. */
#include "kernel_util.h"
#include "ops.h"

/* 1 when element i of the condition is non-zero (floats: -0.0 is zero). */
static int nonzero(const TfLiteTensor* c, size_t i) {
  switch (c->type) {
    case kTfLiteFloat32: return c->data.f[i] != 0.0f;
    case kTfLiteInt64: return c->data.i64[i] != 0;
    case kTfLiteInt32: return c->data.i32[i] != 0;
    case kTfLiteUInt32: return ((const uint32_t*)c->data.raw_const)[i] != 0;
    default: return c->data.uint8[i] != 0; /* bool, int8, uint8 */
  }
}

static TfLiteStatus size_output(TfLiteContext* ctx, const TfLiteTensor* c, TfLiteTensor* out,
                                TfLiteStatus (*resize)(TfLiteContext*, TfLiteTensor*, int,
                                                       const int*)) {
  const size_t n = tff_num_elements(c->dims);
  int dims[2] = {0, tff_rank(c)};
  for (size_t i = 0; i < n; ++i) dims[0] += nonzero(c, i);
  return resize(ctx, out, 2, dims);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == 1,
                     "WHERE: expected 1 input and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* c = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, c != NULL && out != NULL);
  switch (c->type) {
    case kTfLiteBool: case kTfLiteFloat32: case kTfLiteInt64: case kTfLiteInt32:
    case kTfLiteInt8: case kTfLiteUInt8: case kTfLiteUInt32: break;
    default:
      TF_LITE_KERNEL_LOG(ctx, "WHERE: condition type %s not supported",
                         TfLiteTypeGetName(c->type));
      return kTfLiteError;
  }
  TF_LITE_ENSURE_MSG(ctx, out->type == kTfLiteInt64, "WHERE: output type %s must be int64",
                     TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(c) > 0, "WHERE: the condition must have rank > 0");
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(c->dims) < (size_t)INT32_MAX,
                     "WHERE: condition of %zu elements is too large", tff_num_elements(c->dims));
  if (tff_is_constant(c)) return size_output(ctx, c, out, tff_resize_output);
  out->allocation_type = kTfLiteDynamic;
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* c = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLiteDynamic) {
    TF_LITE_ENSURE_OK(ctx, size_output(ctx, c, out, tff_resize_dynamic));
  }
  const int rank = tff_rank(c);
  const size_t n = tff_num_elements(c->dims);
  int64_t* o = out->data.i64;
  for (size_t i = 0; i < n; ++i) {
    if (!nonzero(c, i)) continue;
    size_t rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      o[d] = (int64_t)(rest % (size_t)tff_dim(c, d));
      rest /= (size_t)tff_dim(c, d);
    }
    o += rank;
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_WHERE(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinWhere,
                                       .version = 1};
  return &r;
}
