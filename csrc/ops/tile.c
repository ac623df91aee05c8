/* TILE: output dim d = input dim d · multiples[d] (int32 or int64, one per
 * input dim): the input repeated along every dim. Every fixed-size type;
 * codes are copied as they are. Computed multiples give a dynamic output
 * (movement_common.h).
 *
 * The walk fills the block of each input index prefix once, from the input
 * (innermost dim) or from the blocks just written, then repeats that block
 * multiples[d] − 1 times right after it. */
#include "movement_common.h"
#include "ops.h"

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* m = tff_input(ctx, node, 1);
  *rank = tff_rank(in);
  for (int d = 0; d < *rank; ++d) {
    const int64_t k = tff_index_at(m, d), dim = in->dims->data[d];
    TF_LITE_ENSURE_MSG(ctx, k >= 0 && (dim == 0 || k <= INT32_MAX / dim),
                       "TILE: multiples[%d] = %lld with dimension %lld is negative or too large",
                       d, (long long)k, (long long)dim);
    dims[d] = (int)(dim * k);
  }
  return kTfLiteOk;
}

/* Tiles the input block of dims d.. at src into dst; returns the bytes written. */
static size_t tile(const TfLiteTensor* in, const TfLiteTensor* m, int d, size_t inner,
                   const char* src, char* dst) {
  const int dim = in->dims->data[d];
  size_t in_block = inner, written = 0;
  for (int k = d + 1; k < tff_rank(in); ++k) in_block *= (size_t)in->dims->data[k];
  if (d == tff_rank(in) - 1) {
    written = (size_t)dim * inner;
    memcpy(dst, src, written);
  } else {
    for (int i = 0; i < dim; ++i) written += tile(in, m, d + 1, inner, src + (size_t)i * in_block, dst + written);
  }
  const int64_t k = tff_index_at(m, d);
  for (int64_t r = 1; r < k; ++r) memcpy(dst + (size_t)r * written, dst, written);
  return written * (size_t)k;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (tff_move_trivial(in, out)) return kTfLiteOk;
  tile(in, tff_input(ctx, node, 1), 0, tff_type_size(in->type), in->data.raw_const, out->data.raw);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "TILE", 2));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* m = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, m->type == kTfLiteInt32 || m->type == kTfLiteInt64,
                     "TILE: multiples of type %s are not supported (int32, int64)",
                     TfLiteTypeGetName(m->type));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(m->dims) == (size_t)tff_rank(in),
                     "TILE: %zu multiples for an input of rank %d", tff_num_elements(m->dims),
                     tff_rank(in));
  return tff_move_prepare(ctx, node, tff_is_constant(m), shape, run);
}

TFF_MOVE_REGISTRATION(TILE, kTfLiteBuiltinTile, shape, run)
