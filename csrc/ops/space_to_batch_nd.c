/* SPACE_TO_BATCH_ND: the spatial dims padded by `paddings`, then cut into
 * blocks of block_shape: [n, h, w, c] -> [n·bh·bw, (h+pt+pb)/bh,
 * (w+pl+pr)/bw, c], output batch (sy·bw + sx)·n + b holding the pixels
 * (y·bh + sy, x·bw + sx) of padded image b (space_batch_common.h). Padding
 * bytes are the output zero point for 1-byte types, else 0 (TFLite's
 * memset). Every fixed-size type. */
#include "ops.h"
#include "space_batch_common.h"

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  tff_space_batch g;
  TF_LITE_ENSURE_OK(ctx, tff_space_batch_read(ctx, node, "SPACE_TO_BATCH_ND", &g));
  int d[4];
  tff_space_batch_dims4(in, d);
  const int64_t h = (int64_t)d[1] + g.top + g.bottom, w = (int64_t)d[2] + g.left + g.right;
  const int64_t n = (int64_t)d[0] * g.bh * g.bw;
  TF_LITE_ENSURE_MSG(ctx, h % g.bh == 0 && w % g.bw == 0 && n <= INT32_MAX && h <= INT32_MAX &&
                              w <= INT32_MAX,
                     "SPACE_TO_BATCH_ND: padded %lld x %lld is not a multiple of block %d x %d",
                     (long long)h, (long long)w, g.bh, g.bw);
  tff_space_batch_out(in, n, h / g.bh, w / g.bw, dims, rank);
  return kTfLiteOk;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_space_batch_move(ctx, node, "SPACE_TO_BATCH_ND", 1);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_space_batch_prepare(ctx, node, "SPACE_TO_BATCH_ND", "paddings", shape, run);
}

TFF_MOVE_REGISTRATION(SPACE_TO_BATCH_ND, kTfLiteBuiltinSpaceToBatchNd, shape, run)
