/* SQUEEZE: the input without the size-1 dims listed in squeeze_dims
 * (negative from the end), or without every size-1 dim when the list is
 * empty. A byte copy for every fixed-size type (TFLite checks no
 * quantization: codes are copied as they are). */
#include "movement_common.h"
#include "ops.h"

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteSqueezeParams* p = (const TfLiteSqueezeParams*)node->builtin_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const int r = tff_rank(in);
  int squeeze[TFF_MOVE_MAX_DIMS] = {0};
  const int n = p != NULL ? p->num_squeeze_dims : 0;
  TF_LITE_ENSURE_MSG(ctx, n >= 0 && n <= 8, "SQUEEZE: %d squeeze_dims, at most 8", n);
  for (int i = 0; i < r; ++i) squeeze[i] = n == 0 && in->dims->data[i] == 1;
  for (int i = 0; i < n; ++i) {
    const int a = p->squeeze_dims[i], d = a < 0 ? a + r : a;
    TF_LITE_ENSURE_MSG(ctx, d >= 0 && d < r && in->dims->data[d] == 1,
                       "SQUEEZE: squeeze_dims[%d] = %d is not a size-1 dim of a rank-%d input", i,
                       a, r);
    squeeze[d] = 1;
  }
  *rank = 0;
  for (int i = 0; i < r; ++i)
    if (!squeeze[i]) dims[(*rank)++] = in->dims->data[i];
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "SQUEEZE", 1));
  return tff_move_prepare(ctx, node, 1, shape, tff_move_copy);
}

TFF_MOVE_REGISTRATION(SQUEEZE, kTfLiteBuiltinSqueeze, shape, tff_move_copy)
