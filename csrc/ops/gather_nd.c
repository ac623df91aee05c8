/* GATHER_ND: indices [..., nd] (int16, int32 or int64) address slices of
 * params: output = indices.shape[:-1] + params.shape[nd:], slice i the
 * params sub-block at the nd coordinates of index row i. Only bytes move;
 * TFLite's types: float32, float16, bfloat16, uint8, int8, int16, int32,
 * int64, bool.
 *
 * Indices are data: a coordinate outside [0, dim) is an invoke error, as in
 * TFLite, never a read out of bounds. */
#include "movement_common.h"
#include "ops.h"

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* params = tff_input(ctx, node, 0);
  const TfLiteTensor* idx = tff_input(ctx, node, 1);
  const int ri = tff_rank(idx), rp = tff_rank(params), nd = tff_dim(idx, ri - 1);
  *rank = 0;
  for (int i = 0; i < ri - 1; ++i) dims[(*rank)++] = tff_dim(idx, i);
  for (int i = nd; i < rp; ++i) dims[(*rank)++] = tff_dim(params, i);
  return kTfLiteOk;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* params = tff_input(ctx, node, 0);
  const TfLiteTensor* idx = tff_input(ctx, node, 1);
  char* out = tff_output(ctx, node, 0)->data.raw;
  const int ri = tff_rank(idx), rp = tff_rank(params), nd = tff_dim(idx, ri - 1);
  size_t slices = 1, slice = tff_type_size(params->type);
  for (int i = 0; i < ri - 1; ++i) slices *= (size_t)tff_dim(idx, i);
  for (int i = nd; i < rp; ++i) slice *= (size_t)tff_dim(params, i);
  for (size_t s = 0; s < slices; ++s, out += slice) {
    size_t at = 0;
    for (int j = 0; j < nd; ++j) {
      const int64_t c = tff_gather_index(idx, s * (size_t)nd + (size_t)j);
      TF_LITE_ENSURE_MSG(ctx, c >= 0 && c < tff_dim(params, j),
                         "GATHER_ND: index %lld is out of bounds [0, %d) of params dim %d",
                         (long long)c, tff_dim(params, j), j);
      at = at * (size_t)tff_dim(params, j) + (size_t)c;
    }
    memcpy(out, params->data.raw_const + at * slice, slice);
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "GATHER_ND", 2));
  const TfLiteTensor* params = tff_input(ctx, node, 0);
  const TfLiteTensor* idx = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, tff_gather_type_ok(params->type), "GATHER_ND: params of type %s are not supported",
                     TfLiteTypeGetName(params->type));
  TF_LITE_ENSURE_MSG(ctx, idx->type == kTfLiteInt16 || idx->type == kTfLiteInt32 ||
                              idx->type == kTfLiteInt64,
                     "GATHER_ND: indices of type %s are not supported (int16, int32, int64)",
                     TfLiteTypeGetName(idx->type));
  const int rp = tff_rank(params), ri = tff_rank(idx);
  TF_LITE_ENSURE_MSG(ctx, rp >= 1 && ri >= 1, "GATHER_ND: params (rank %d) and indices (rank %d) "
                                              "must be at least vectors", rp, ri);
  const int nd = tff_dim(idx, ri - 1);
  TF_LITE_ENSURE_MSG(ctx, nd >= 0 && nd <= rp,
                     "GATHER_ND: index length %d must be in [0, params rank %d]", nd, rp);
  TF_LITE_ENSURE_MSG(ctx, ri - 1 + rp - nd <= TFF_MOVE_MAX_DIMS,
                     "GATHER_ND: output rank %d exceeds %d", ri - 1 + rp - nd, TFF_MOVE_MAX_DIMS);
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(params->dims) > 0 || tff_num_elements(idx->dims) == 0,
                     "GATHER_ND: params are empty");
  return tff_move_prepare(ctx, node, 1, shape, run);
}

TFF_MOVE_REGISTRATION(GATHER_ND, kTfLiteBuiltinGatherNd, shape, run)
