/* GATHER: output = input with its `axis` dim replaced by the positions' dims
 * (after the first batch_dims, which input and positions share): for batch b,
 * outer row o and position k, the input slice at index positions[b, k] along
 * the axis. Only bytes move (every numerics mode alike).
 *
 * Indices are data, so invoke checks them: out of [0, dim) is an error, as
 * in TFLite. With constant input and positions the output is computed at
 * prepare (kTfLitePersistentRo, TFLite's folding). */
#include "ops.h"
#include "movement_common.h"

typedef struct {
  int axis, batch_dims;
  size_t batches, outer, inner, coords; /* inner in bytes */
  int axis_size;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus run(TfLiteContext* ctx, const OpData* d, const TfLiteTensor* in,
                        const TfLiteTensor* pos, TfLiteTensor* out) {
  const char* src = in->data.raw_const;
  char* dst = out->data.raw;
  for (size_t b = 0; b < d->batches; ++b) {
    for (size_t o = 0; o < d->outer; ++o) {
      const char* row = src + (b * d->outer + o) * (size_t)d->axis_size * d->inner;
      for (size_t k = 0; k < d->coords; ++k) {
        const int64_t i = tff_gather_index(pos, b * d->coords + k);
        TF_LITE_ENSURE_MSG(ctx, i >= 0 && i < d->axis_size,
                           "GATHER: index %lld is out of bounds [0, %d)", (long long)i,
                           d->axis_size);
        memcpy(dst, row + (size_t)i * d->inner, d->inner);
        dst += d->inner;
      }
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteGatherParams* p = (const TfLiteGatherParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL && p != NULL, "GATHER: out of memory or missing options");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "GATHER: expected 2 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* pos = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && pos, "GATHER: an input is missing");
  TF_LITE_ENSURE_MSG(ctx, pos->type == kTfLiteInt16 || pos->type == kTfLiteInt32 ||
                              pos->type == kTfLiteInt64,
                     "GATHER: positions of type %s are not supported (int16, int32, int64)",
                     TfLiteTypeGetName(pos->type));
  TF_LITE_ENSURE_MSG(ctx, tff_gather_type_ok(in->type), "GATHER: type %s is not supported",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "GATHER: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  const int rin = in->dims->size, rpos = pos->dims->size;
  const int axis = p->axis < 0 ? p->axis + rin : p->axis;
  const int bd = p->batch_dims < 0 ? p->batch_dims + rpos : p->batch_dims;
  TF_LITE_ENSURE_MSG(ctx, axis >= 0 && axis < rin, "GATHER: axis %d is out of range for rank %d",
                     p->axis, rin);
  TF_LITE_ENSURE_MSG(ctx, bd >= 0 && bd <= axis && bd <= rpos,
                     "GATHER: batch_dims %d must be in [0, min(axis %d, positions rank %d)]",
                     p->batch_dims, axis, rpos);
  for (int i = 0; i < bd; ++i)
    TF_LITE_ENSURE_MSG(ctx, in->dims->data[i] == pos->dims->data[i],
                       "GATHER: batch dim %d is %d in the input and %d in the positions", i,
                       in->dims->data[i], pos->dims->data[i]);
  const int rank = rin + rpos - 1 - bd;
  int* dims = (int*)malloc(sizeof(int) * (size_t)(rank > 0 ? rank : 1));
  TF_LITE_ENSURE_MSG(ctx, dims != NULL, "GATHER: out of memory");
  int n = 0;
  for (int i = 0; i < axis; ++i) dims[n++] = in->dims->data[i];
  for (int i = bd; i < rpos; ++i) dims[n++] = pos->dims->data[i];
  for (int i = axis + 1; i < rin; ++i) dims[n++] = in->dims->data[i];
  d->axis = axis;
  d->batch_dims = bd;
  d->batches = d->outer = d->coords = 1;
  d->inner = tff_type_size(in->type);
  for (int i = 0; i < bd; ++i) d->batches *= (size_t)in->dims->data[i];
  for (int i = bd; i < axis; ++i) d->outer *= (size_t)in->dims->data[i];
  for (int i = axis + 1; i < rin; ++i) d->inner *= (size_t)in->dims->data[i];
  for (int i = bd; i < rpos; ++i) d->coords *= (size_t)pos->dims->data[i];
  d->axis_size = in->dims->data[axis];
  const int fold = tff_inputs_constant(ctx, node);
  TfLiteStatus s = fold ? tff_resize_output_persistent(ctx, out, rank, dims)
                        : tff_resize_output(ctx, out, rank, dims);
  free(dims);
  if (s != kTfLiteOk || !fold) return s;
  return run(ctx, d, tff_input(ctx, node, 0), tff_input(ctx, node, 1), tff_output(ctx, node, 0));
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLitePersistentRo) return kTfLiteOk; /* folded */
  return run(ctx, (const OpData*)node->user_data, tff_input(ctx, node, 0),
             tff_input(ctx, node, 1), out);
}

const TfLiteRegistration* tff_register_GATHER(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinGather,
                                       .version = 1};
  return &r;
}
