/* BROADCAST_TO: the input broadcast to `shape` (int32 or int64 vector of at
 * least the input's rank, at most 8): input dims align to the end and each
 * is 1 or the output dim. Every fixed-size type; codes are copied as they
 * are. A computed shape gives a dynamic output (movement_common.h). */
#include "movement_common.h"
#include "ops.h"

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* s = tff_input(ctx, node, 1);
  *rank = tff_dim(s, 0);
  const int lead = *rank - tff_rank(in);
  for (int d = 0; d < *rank; ++d) {
    const int64_t v = tff_index_at(s, d);
    const int in_dim = d < lead ? 1 : in->dims->data[d - lead];
    TF_LITE_ENSURE_MSG(ctx, v >= 0 && v <= INT32_MAX && (in_dim == 1 || in_dim == v),
                       "BROADCAST_TO: shape[%d] = %lld; the input dim there is %d", d,
                       (long long)v, in_dim);
    dims[d] = (int)v;
  }
  return kTfLiteOk;
}

/* Writes the output block of dims d.. at dst from the input block at src. */
static void fill(const int* in_dims, const int* out_dims, int rank, int d, size_t es,
                 const char* src, char* dst) {
  size_t in_block = es, out_block = es;
  for (int k = d + 1; k < rank; ++k) {
    in_block *= (size_t)in_dims[k];
    out_block *= (size_t)out_dims[k];
  }
  const int n = out_dims[d];
  if (in_dims[d] == n && in_block == out_block) { /* nothing broadcast from here on */
    memcpy(dst, src, (size_t)n * out_block);
    return;
  }
  if (in_dims[d] == n) {
    for (int i = 0; i < n; ++i) fill(in_dims, out_dims, rank, d + 1, es, src + (size_t)i * in_block, dst + (size_t)i * out_block);
    return;
  }
  if (d + 1 < rank) fill(in_dims, out_dims, rank, d + 1, es, src, dst);
  else memcpy(dst, src, es);
  for (int i = 1; i < n; ++i) memcpy(dst + (size_t)i * out_block, dst, out_block);
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int rank = tff_rank(out), lead = rank - tff_rank(in);
  if (out->bytes == 0) return kTfLiteOk;
  if (rank == 0) { /* a scalar to a scalar */
    memcpy(out->data.raw, in->data.raw_const, out->bytes);
    return kTfLiteOk;
  }
  int in_dims[TFF_MOVE_MAX_DIMS];
  for (int d = 0; d < rank; ++d) in_dims[d] = d < lead ? 1 : in->dims->data[d - lead];
  fill(in_dims, out->dims->data, rank, 0, tff_type_size(in->type), in->data.raw_const, out->data.raw);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "BROADCAST_TO", 2));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* s = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, (s->type == kTfLiteInt32 || s->type == kTfLiteInt64) && tff_rank(s) == 1,
                     "BROADCAST_TO: shape must be an INT32 or INT64 vector");
  TF_LITE_ENSURE_MSG(ctx, tff_dim(s, 0) >= tff_rank(in) && tff_dim(s, 0) <= TFF_MOVE_MAX_DIMS,
                     "BROADCAST_TO: output rank %d must be in [input rank %d, %d]", tff_dim(s, 0),
                     tff_rank(in), TFF_MOVE_MAX_DIMS);
  return tff_move_prepare(ctx, node, tff_is_constant(s), shape, run);
}

TFF_MOVE_REGISTRATION(BROADCAST_TO, kTfLiteBuiltinBroadcastTo, shape, run)
