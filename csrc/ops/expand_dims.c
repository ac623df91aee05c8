/* EXPAND_DIMS: the input under its shape with a 1 inserted at `axis` (second
 * input, one int32 or int64; negative counts from the end of the output).
 * A byte copy for every fixed-size type; TFLite requires the output
 * quantized as the input for every type. A computed axis gives a dynamic
 * output (movement_common.h). */
#include "movement_common.h"
#include "ops.h"

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* axis_t = tff_input(ctx, node, 1);
  const int r = tff_rank(in);
  const int64_t a = tff_index_at(axis_t, 0);
  const int64_t axis = a < 0 ? a + r + 1 : a;
  TF_LITE_ENSURE_MSG(ctx, axis >= 0 && axis <= r, "EXPAND_DIMS: axis %lld is out of range for rank %d",
                     (long long)a, r);
  TF_LITE_ENSURE_MSG(ctx, r + 1 <= TFF_MOVE_MAX_DIMS, "EXPAND_DIMS: output rank %d exceeds %d",
                     r + 1, TFF_MOVE_MAX_DIMS);
  for (int i = 0, k = 0; i <= r; ++i) dims[i] = i == axis ? 1 : in->dims->data[k++];
  *rank = r + 1;
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "EXPAND_DIMS", 2));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* axis = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_OK(ctx, tff_move_same_quant(ctx, "EXPAND_DIMS", in, tff_output(ctx, node, 0), 0));
  TF_LITE_ENSURE_MSG(ctx, (axis->type == kTfLiteInt32 || axis->type == kTfLiteInt64) &&
                              tff_num_elements(axis->dims) == 1,
                     "EXPAND_DIMS: the axis must be one INT32 or INT64, got %s of %zu elements",
                     TfLiteTypeGetName(axis->type), tff_num_elements(axis->dims));
  return tff_move_prepare(ctx, node, tff_is_constant(axis), shape, tff_move_copy);
}

TFF_MOVE_REGISTRATION(EXPAND_DIMS, kTfLiteBuiltinExpandDims, shape, tff_move_copy)
