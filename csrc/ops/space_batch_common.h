/* Shared by SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND: an input of rank 3
 * [n, h, c] or 4 [n, h, w, c], an int32 block_shape with one entry per
 * spatial dim and an int32 [spatial, 2] tensor of (before, after) counts
 * (SPACE_TO_BATCH_ND's paddings, BATCH_TO_SPACE_ND's crops). A rank-3 input
 * is the rank-4 case with w = 1 and a block width of 1 (TFLite). Either
 * tensor computed gives a dynamic output (movement_common.h). */
#ifndef TFLITE_FAST_OPS_SPACE_BATCH_COMMON_H_
#define TFLITE_FAST_OPS_SPACE_BATCH_COMMON_H_

#include "movement_common.h"

typedef struct {
  int bh, bw;      /* block height and width */
  int top, bottom; /* paddings or crops of h */
  int left, right; /* and of w */
} tff_space_batch;

/* The checks of TFLite's prepare; `what` names the third input. */
static inline TfLiteStatus tff_space_batch_check(TfLiteContext* ctx, const TfLiteNode* node,
                                                 const char* op, const char* what) {
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, op, 3));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* block = tff_input(ctx, node, 1);
  const TfLiteTensor* pads = tff_input(ctx, node, 2);
  const int spatial = tff_rank(in) - 2;
  TF_LITE_ENSURE_MSG(ctx, spatial == 1 || spatial == 2, "%s: input has %d dims, expected 3 or 4",
                     op, tff_rank(in));
  TF_LITE_ENSURE_OK(ctx, tff_move_same_quant(ctx, op, in, tff_output(ctx, node, 0), 1));
  TF_LITE_ENSURE_MSG(ctx, block->type == kTfLiteInt32 && tff_rank(block) == 1 &&
                              tff_dim(block, 0) == spatial,
                     "%s: block_shape must be an INT32 vector of %d elements", op, spatial);
  TF_LITE_ENSURE_MSG(ctx, pads->type == kTfLiteInt32 && tff_rank(pads) == 2 &&
                              tff_dim(pads, 0) == spatial && tff_dim(pads, 1) == 2,
                     "%s: %s must be an INT32 tensor of shape [%d, 2]", op, what, spatial);
  return kTfLiteOk;
}

/* prepare of both ops: checks, then sizes the output when block_shape and
 * the counts are constant. */
static inline TfLiteStatus tff_space_batch_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                                   const char* op, const char* what,
                                                   tff_move_shape_fn shape, tff_move_run_fn run) {
  TF_LITE_ENSURE_OK(ctx, tff_space_batch_check(ctx, node, op, what));
  const int known = tff_is_constant(tff_input(ctx, node, 1)) && tff_is_constant(tff_input(ctx, node, 2));
  return tff_move_prepare(ctx, node, known, shape, run);
}

/* Block and counts from the inputs; blocks must be positive, counts >= 0. */
static inline TfLiteStatus tff_space_batch_read(TfLiteContext* ctx, const TfLiteNode* node,
                                                const char* op, tff_space_batch* g) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const int32_t* b = tff_input(ctx, node, 1)->data.i32;
  const int32_t* p = tff_input(ctx, node, 2)->data.i32;
  const int four = tff_rank(in) == 4;
  g->bh = b[0];
  g->bw = four ? b[1] : 1;
  g->top = p[0];
  g->bottom = p[1];
  g->left = four ? p[2] : 0;
  g->right = four ? p[3] : 0;
  TF_LITE_ENSURE_MSG(ctx, g->bh > 0 && g->bw > 0 && g->bh <= 65536 && g->bw <= 65536,
                     "%s: block_shape %d x %d must be positive", op, g->bh, g->bw);
  TF_LITE_ENSURE_MSG(ctx, g->top >= 0 && g->bottom >= 0 && g->left >= 0 && g->right >= 0,
                     "%s: negative counts (%d, %d), (%d, %d)", op, g->top, g->bottom, g->left,
                     g->right);
  return kTfLiteOk;
}

/* Dims [n, h, w, c] of a rank-3 or rank-4 tensor (w = 1 for rank 3). */
static inline void tff_space_batch_dims4(const TfLiteTensor* t, int* d) {
  const int four = tff_rank(t) == 4;
  d[0] = tff_dim(t, 0);
  d[1] = tff_dim(t, 1);
  d[2] = four ? tff_dim(t, 2) : 1;
  d[3] = tff_dim(t, four ? 3 : 2);
}

/* Output dims: the input's with batch, height and (rank 4) width replaced. */
static inline void tff_space_batch_out(const TfLiteTensor* in, int64_t n, int64_t h, int64_t w,
                                       int* dims, int* rank) {
  *rank = tff_rank(in);
  memcpy(dims, in->dims->data, sizeof(int) * (size_t)*rank);
  dims[0] = (int)n;
  dims[1] = (int)h;
  if (*rank == 4) dims[2] = (int)w;
}

/* The move of both ops, walking the batch side [nb, hb, wb, c] (output of
 * SPACE_TO_BATCH_ND, input of BATCH_TO_SPACE_ND): batch (sy·bw + sx)·n + b,
 * pixel (y, x) is pixel (y·bh + sy − top, x·bw + sx − left) of image b of
 * the space side [n, h, w, c]. Batch pixels outside the space image are
 * padding (to_batch: the byte `pad`) or cropped away. */
static inline TfLiteStatus tff_space_batch_move(TfLiteContext* ctx, TfLiteNode* node,
                                                const char* op, int to_batch) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  tff_space_batch g;
  TF_LITE_ENSURE_OK(ctx, tff_space_batch_read(ctx, node, op, &g));
  char* batch = to_batch ? out->data.raw : (char*)in->data.raw_const;
  char* space = to_batch ? (char*)in->data.raw_const : out->data.raw;
  int db[4], ds[4];
  tff_space_batch_dims4(to_batch ? out : in, db);
  tff_space_batch_dims4(to_batch ? in : out, ds);
  const size_t es = tff_type_size(in->type), pixel = (size_t)ds[3] * es;
  /* TFLite memsets padding to the output zero point: a code for 1-byte
   * types; int16's is 0, and wider types pad with 0. */
  const int pad = es == 1 ? (uint8_t)tff_zero_point(out) : 0;
  for (int ib = 0; ib < db[0]; ++ib) {
    const int b = ib % ds[0], shift = ib / ds[0], sy = shift / g.bw, sx = shift % g.bw;
    char* image = space + (size_t)b * (size_t)ds[1] * (size_t)ds[2] * pixel;
    for (int y = 0; y < db[1]; ++y) {
      const int sy_ = y * g.bh + sy - g.top;
      for (int x = 0; x < db[2]; ++x, batch += pixel) {
        const int sx_ = x * g.bw + sx - g.left;
        if (sy_ < 0 || sy_ >= ds[1] || sx_ < 0 || sx_ >= ds[2]) {
          if (to_batch) memset(batch, pad, pixel);
          continue;
        }
        char* at = image + ((size_t)sy_ * (size_t)ds[2] + (size_t)sx_) * pixel;
        memcpy(to_batch ? batch : at, to_batch ? at : batch, pixel);
      }
    }
  }
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_SPACE_BATCH_COMMON_H_ */
