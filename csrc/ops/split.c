/* SPLIT: inputs (axis, input); num_splits outputs of equal size along the
 * axis, which must divide evenly (split_common.h). */
#include "ops.h"
#include "split_common.h"

/* Axis and equal sizes; -1 axis after reporting. */
static int split_sizes(TfLiteContext* ctx, const TfLiteNode* node, const TfLiteTensor* axis_t,
                       const TfLiteTensor* in, int* sizes) {
  const int axis = tff_split_axis(ctx, "SPLIT", axis_t, in->dims->size);
  if (axis < 0) return -1;
  const int n = tff_num_outputs(node), dim = in->dims->data[axis];
  if (dim % n != 0) {
    TF_LITE_KERNEL_LOG(ctx, "SPLIT: dimension %d (%d) is not an even split into %d", axis, dim, n);
    return -1;
  }
  for (int i = 0; i < n; ++i) sizes[i] = dim / n;
  return axis;
}

/* Sizes the outputs now or, with at_invoke, only when they changed. */
static TfLiteStatus resize(TfLiteContext* ctx, TfLiteNode* node, int at_invoke, int* axis) {
  const TfLiteTensor* in = tff_input(ctx, node, 1);
  int* sizes = (int*)malloc(sizeof(int) * (size_t)tff_num_outputs(node));
  TF_LITE_ENSURE_MSG(ctx, sizes != NULL, "SPLIT: out of memory");
  *axis = split_sizes(ctx, node, tff_input(ctx, node, 0), in, sizes);
  const TfLiteStatus s =
      *axis < 0 ? kTfLiteError : tff_split_resize(ctx, node, in, *axis, sizes, at_invoke);
  free(sizes);
  return s;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteSplitParams* p = (const TfLiteSplitParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL, "SPLIT: missing options");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2, "SPLIT: expected 2 inputs, got %d",
                     tff_num_inputs(node));
  const TfLiteTensor* axis = tff_input(ctx, node, 0);
  TF_LITE_ENSURE_OK(ctx, tff_split_check(ctx, node, "SPLIT", tff_input(ctx, node, 1),
                                         p->num_splits));
  TF_LITE_ENSURE_MSG(ctx, axis != NULL && axis->type == kTfLiteInt32 &&
                              tff_num_elements(axis->dims) == 1,
                     "SPLIT: the axis must be one INT32");
  if (!tff_is_constant(axis)) {
    tff_split_dynamic(ctx, node);
    return kTfLiteOk;
  }
  int a;
  return resize(ctx, node, 0, &a);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 1);
  int axis;
  if (tff_is_constant(tff_input(ctx, node, 0))) {
    axis = tff_split_axis(ctx, "SPLIT", tff_input(ctx, node, 0), in->dims->size);
  } else {
    TF_LITE_ENSURE_OK(ctx, resize(ctx, node, 1, &axis));
    in = tff_input(ctx, node, 1);
  }
  tff_split_run(ctx, node, in, axis);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SPLIT(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinSplit,
                                       .version = 1};
  return &r;
}
