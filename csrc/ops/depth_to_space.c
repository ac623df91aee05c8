/* DEPTH_TO_SPACE: NHWC [n, h, w, c] -> [n, h·bs, w·bs, c/bs²]; output pixel
 * (h·bs + dy, w·bs + dx) takes channel block dy·bs + dx of input pixel
 * (h, w). TFLite's types: float32, uint8, int8, int32, int64. Only bytes
 * move (AUTO's XNNPACK gives the same bytes for the types it takes, and
 * refuses an int8/uint8 output quantized unlike the input: so does default
 * mode). */
#include "movement_common.h"
#include "ops.h"

static int block_size(const TfLiteNode* node) {
  return ((const TfLiteDepthToSpaceParams*)node->builtin_data)->block_size;
}

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const int bs = block_size(node), c = tff_dim(in, 3);
  TF_LITE_ENSURE_MSG(ctx, bs > 0 && c % bs == 0 && (c / bs) % bs == 0,
                     "DEPTH_TO_SPACE: %d channels do not split into blocks of %d x %d", c, bs, bs);
  TF_LITE_ENSURE_MSG(ctx, (int64_t)tff_dim(in, 1) * bs <= INT32_MAX &&
                              (int64_t)tff_dim(in, 2) * bs <= INT32_MAX,
                     "DEPTH_TO_SPACE: output too large");
  *rank = 4;
  dims[0] = tff_dim(in, 0);
  dims[1] = tff_dim(in, 1) * bs;
  dims[2] = tff_dim(in, 2) * bs;
  dims[3] = c / bs / bs;
  return kTfLiteOk;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  /* chunk: one output pixel */
  tff_move_space_depth((char*)in->data.raw_const, out->data.raw,
                       (size_t)tff_dim(in, 0) * (size_t)tff_dim(in, 1), (size_t)tff_dim(in, 2),
                       (size_t)block_size(node), (size_t)tff_dim(out, 3) * tff_type_size(in->type), 1);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, node->builtin_data != NULL, "DEPTH_TO_SPACE: missing options");
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "DEPTH_TO_SPACE", 1));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4, "DEPTH_TO_SPACE: input has %d dims, expected 4",
                     tff_rank(in));
  TF_LITE_ENSURE_OK(ctx, tff_move_space_check(ctx, node, "DEPTH_TO_SPACE", block_size(node)));
  return tff_move_prepare(ctx, node, 1, shape, run);
}

TFF_MOVE_REGISTRATION(DEPTH_TO_SPACE, kTfLiteBuiltinDepthToSpace, shape, run)
