/* EMBEDDING_LOOKUP: output row i = row lookup[i] of value (rank >= 2);
 * lookup is an int32 vector. With value and output of one type, the rows'
 * bytes are copied. With int8 or uint8 value and float32 output (hybrid),
 * each row is dequantized as TFLite does: the code read as int8 (for uint8
 * too) times the value's scale, per row when it has one scale per row;
 * the zero point must be 0.
 *
 * Lookup indices are data: one outside [0, rows) is an invoke error, as in
 * TFLite. */
#include "movement_common.h"
#include "ops.h"

static int hybrid(const TfLiteTensor* value, const TfLiteTensor* out) {
  return value->type != out->type;
}

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* lookup = tff_input(ctx, node, 0);
  const TfLiteTensor* value = tff_input(ctx, node, 1);
  *rank = tff_rank(value);
  memcpy(dims, value->dims->data, sizeof(int) * (size_t)*rank);
  dims[0] = tff_dim(lookup, 0);
  return kTfLiteOk;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* lookup = tff_input(ctx, node, 0);
  const TfLiteTensor* value = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int rows = tff_dim(value, 0), n = tff_dim(lookup, 0);
  const size_t cols = rows ? tff_num_elements(value->dims) / (size_t)rows : 0;
  const TfLiteAffineQuantization* q = tff_affine(value);
  const int per_row = q != NULL && q->scale != NULL && q->scale->size > 1;
  for (int i = 0; i < n; ++i) {
    const int32_t r = lookup->data.i32[i];
    TF_LITE_ENSURE_MSG(ctx, r >= 0 && r < rows,
                       "EMBEDDING_LOOKUP: index %d is out of bounds [0, %d)", (int)r, rows);
    if (!hybrid(value, out)) {
      const size_t row = cols * tff_type_size(value->type);
      memcpy(out->data.raw + (size_t)i * row, value->data.raw_const + (size_t)r * row, row);
      continue;
    }
    const float scale = per_row ? q->scale->data[r] : tff_scale(value);
    const int8_t* src = value->data.int8 + (size_t)r * cols;
    float* dst = out->data.f + (size_t)i * cols;
    for (size_t j = 0; j < cols; ++j) dst[j] = (float)src[j] * scale;
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "EMBEDDING_LOOKUP: expected 2 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* lookup = tff_input(ctx, node, 0);
  const TfLiteTensor* value = tff_input(ctx, node, 1);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, lookup && value && out, "EMBEDDING_LOOKUP: an input or the output is missing");
  TF_LITE_ENSURE_MSG(ctx, lookup->type == kTfLiteInt32 && tff_rank(lookup) == 1,
                     "EMBEDDING_LOOKUP: lookup must be an INT32 vector");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(value) >= 2 && tff_rank(value) <= TFF_MOVE_MAX_DIMS,
                     "EMBEDDING_LOOKUP: value has %d dims, expected 2 to %d", tff_rank(value),
                     TFF_MOVE_MAX_DIMS);
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(value->type) > 0,
                     "EMBEDDING_LOOKUP: value type %s is not supported",
                     TfLiteTypeGetName(value->type));
  if (hybrid(value, out)) {
    TF_LITE_ENSURE_MSG(ctx, (value->type == kTfLiteInt8 || value->type == kTfLiteUInt8) &&
                                out->type == kTfLiteFloat32,
                       "EMBEDDING_LOOKUP: value type %s with output type %s is not supported "
                       "(same types, or int8/uint8 value with float32 output)",
                       TfLiteTypeGetName(value->type), TfLiteTypeGetName(out->type));
    const TfLiteAffineQuantization* q = tff_affine(value);
    TF_LITE_ENSURE_MSG(ctx, tff_zero_point(value) == 0 &&
                                (q == NULL || q->zero_point == NULL || q->zero_point->size == 0 ||
                                 q->zero_point->data[0] == 0),
                       "EMBEDDING_LOOKUP: hybrid value zero point must be 0");
    if (q != NULL && q->scale != NULL && q->scale->size > 1)
      TF_LITE_ENSURE_MSG(ctx, q->quantized_dimension == 0 && q->scale->size == tff_dim(value, 0),
                         "EMBEDDING_LOOKUP: %d scales for %d rows (quantized dimension %d)",
                         q->scale->size, tff_dim(value, 0), q->quantized_dimension);
  }
  return tff_move_prepare(ctx, node, 1, shape, run);
}

TFF_MOVE_REGISTRATION(EMBEDDING_LOOKUP, kTfLiteBuiltinEmbeddingLookup, shape, run)
