/* SHAPE: the input's dims as a 1-D int32 or int64 tensor (out_type). Input
 * shapes are known at prepare, so the values are computed there into a
 * kTfLitePersistentRo output, as TFLite does: ops downstream (STRIDED_SLICE,
 * PACK, RESHAPE) can then read them in their own prepare. */
#include "kernel_util.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 1);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && out != NULL);
  const TfLiteShapeParams* p = (const TfLiteShapeParams*)node->builtin_data;
  const TfLiteType type = p != NULL ? p->out_type : kTfLiteNoType;
  TF_LITE_ENSURE_MSG(ctx, type == kTfLiteInt32 || type == kTfLiteInt64,
                     "out_type %s not supported (int32, int64)", TfLiteTypeGetName(type));
  out->type = type; /* TFLite sets the output type from out_type too */
  const int rank = tff_rank(in);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, 1, &rank));
  for (int i = 0; i < rank; ++i) {
    if (type == kTfLiteInt64) {
      out->data.i64[i] = tff_dim(in, i);
    } else {
      out->data.i32[i] = tff_dim(in, i);
    }
  }
  return kTfLiteOk;
}

/* The values were written in prepare. */
static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  (void)ctx, (void)node;
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SHAPE(void) {
  static const TfLiteRegistration r = {
      .prepare = prepare, .invoke = invoke, .builtin_code = kTfLiteBuiltinShape, .version = 1};
  return &r;
}
