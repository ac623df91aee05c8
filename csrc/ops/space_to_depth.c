/* SPACE_TO_DEPTH: NHWC [n, h, w, c] -> [n, h/bs, w/bs, c·bs²]; channel block
 * dy·bs + dx of output pixel (h, w) is input pixel (h·bs + dy, w·bs + dx).
 * TFLite's types: float32, uint8, int8, int32, int64. Only bytes move
 * (AUTO's XNNPACK gives the same bytes for the types it takes, and refuses
 * an int8/uint8 output quantized unlike the input: so does default mode). */
#include "movement_common.h"
#include "ops.h"

static int block_size(const TfLiteNode* node) {
  return ((const TfLiteSpaceToDepthParams*)node->builtin_data)->block_size;
}

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const int bs = block_size(node), h = tff_dim(in, 1), w = tff_dim(in, 2);
  TF_LITE_ENSURE_MSG(ctx, bs > 0 && h % bs == 0 && w % bs == 0,
                     "SPACE_TO_DEPTH: %d x %d pixels do not split into blocks of %d x %d", h, w,
                     bs, bs);
  TF_LITE_ENSURE_MSG(ctx, (int64_t)tff_dim(in, 3) * bs <= INT32_MAX / bs,
                     "SPACE_TO_DEPTH: output too large");
  *rank = 4;
  dims[0] = tff_dim(in, 0);
  dims[1] = h / bs;
  dims[2] = w / bs;
  dims[3] = tff_dim(in, 3) * bs * bs;
  return kTfLiteOk;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  /* chunk: one input pixel */
  tff_move_space_depth(out->data.raw, (char*)in->data.raw_const,
                       (size_t)tff_dim(out, 0) * (size_t)tff_dim(out, 1), (size_t)tff_dim(out, 2),
                       (size_t)block_size(node), (size_t)tff_dim(in, 3) * tff_type_size(in->type), 0);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, node->builtin_data != NULL, "SPACE_TO_DEPTH: missing options");
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "SPACE_TO_DEPTH", 1));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4, "SPACE_TO_DEPTH: input has %d dims, expected 4",
                     tff_rank(in));
  TF_LITE_ENSURE_OK(ctx, tff_move_space_check(ctx, node, "SPACE_TO_DEPTH", block_size(node)));
  return tff_move_prepare(ctx, node, 1, shape, run);
}

TFF_MOVE_REGISTRATION(SPACE_TO_DEPTH, kTfLiteBuiltinSpaceToDepth, shape, run)
