/* BATCH_TO_SPACE_ND: the inverse of SPACE_TO_BATCH_ND with crops for
 * paddings: [n, h, w, c] -> [n/(bh·bw), h·bh − ct − cb, w·bw − cl − cr, c],
 * input batch (sy·bw + sx)·N + b filling the pixels (y·bh + sy, x·bw + sx)
 * of output image b before cropping (space_batch_common.h). Every
 * fixed-size type. */
#include "ops.h"
#include "space_batch_common.h"

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  tff_space_batch g;
  TF_LITE_ENSURE_OK(ctx, tff_space_batch_read(ctx, node, "BATCH_TO_SPACE_ND", &g));
  int d[4];
  tff_space_batch_dims4(in, d);
  const int64_t h = (int64_t)d[1] * g.bh - g.top - g.bottom;
  const int64_t w = (int64_t)d[2] * g.bw - g.left - g.right;
  TF_LITE_ENSURE_MSG(ctx, d[0] % ((int64_t)g.bh * g.bw) == 0,
                     "BATCH_TO_SPACE_ND: batch %d is not a multiple of block %d x %d", d[0], g.bh,
                     g.bw);
  TF_LITE_ENSURE_MSG(ctx, h >= 0 && w >= 0 && h <= INT32_MAX && w <= INT32_MAX,
                     "BATCH_TO_SPACE_ND: crops (%d, %d), (%d, %d) exceed the %lld x %lld image",
                     g.top, g.bottom, g.left, g.right, (long long)d[1] * g.bh,
                     (long long)d[2] * g.bw);
  tff_space_batch_out(in, d[0] / ((int64_t)g.bh * g.bw), h, w, dims, rank);
  return kTfLiteOk;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_space_batch_move(ctx, node, "BATCH_TO_SPACE_ND", 0);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_space_batch_prepare(ctx, node, "BATCH_TO_SPACE_ND", "crops", shape, run);
}

TFF_MOVE_REGISTRATION(BATCH_TO_SPACE_ND, kTfLiteBuiltinBatchToSpaceNd, shape, run)
