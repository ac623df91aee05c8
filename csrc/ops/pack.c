/* PACK: stacks values_count inputs of one shape along a new axis (negative
 * counts from the end of the output), for every fixed-size type; inputs and
 * output share the quantization, as TFLite requires. With constant inputs
 * (e.g. dims a SHAPE / STRIDED_SLICE chain computed) the output is computed
 * at prepare into a kTfLitePersistentRo tensor. */
#include "kernel_util.h"
#include "ops.h"

#define PACK_MAX_DIMS 16

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLitePackParams* p = (const TfLitePackParams*)node->builtin_data;
  TF_LITE_ENSURE(ctx, p != NULL);
  TF_LITE_ENSURE_MSG(ctx, p->values_count >= 1 && tff_num_inputs(node) == p->values_count,
                     "values_count is %d but the node has %d inputs", p->values_count,
                     tff_num_inputs(node));
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in0 = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in0 != NULL && out != NULL);
  const int rank = tff_rank(in0) + 1;
  TF_LITE_ENSURE_MSG(ctx, rank <= PACK_MAX_DIMS, "output rank %d exceeds %d", rank, PACK_MAX_DIMS);
  const int axis = p->axis < 0 ? p->axis + rank : p->axis;
  TF_LITE_ENSURE_MSG(ctx, axis >= 0 && axis < rank, "axis %d out of range for a %d-D output",
                     p->axis, rank);
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(in0->type) > 0, "type %s not supported",
                     TfLiteTypeGetName(in0->type));
  TF_LITE_ENSURE_TYPES_EQ(ctx, out->type, in0->type);
  for (int i = 0; i < p->values_count; ++i) {
    const TfLiteTensor* t = tff_input(ctx, node, i);
    TF_LITE_ENSURE(ctx, t != NULL);
    TF_LITE_ENSURE_TYPES_EQ(ctx, t->type, in0->type);
    TF_LITE_ENSURE_MSG(ctx, TfLiteIntArrayEqual(t->dims, in0->dims),
                       "input %d has a shape different from input 0", i);
    TF_LITE_ENSURE_MSG(ctx, tff_scale(t) == tff_scale(out) && tff_zero_point(t) == tff_zero_point(out),
                       "input %d quantization (%g, %d) differs from the output's (%g, %d)", i,
                       (double)tff_scale(t), (int)tff_zero_point(t), (double)tff_scale(out),
                       (int)tff_zero_point(out));
  }
  int dims[PACK_MAX_DIMS];
  for (int d = 0, k = 0; d < rank; ++d) dims[d] = d == axis ? p->values_count : tff_dim(in0, k++);
  return tff_concat_prepare_output(ctx, node, axis, out, rank, dims);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_concat_invoke(ctx, node, ((const TfLitePackParams*)node->builtin_data)->axis);
}

const TfLiteRegistration* tff_register_PACK(void) {
  static const TfLiteRegistration r = {
      .prepare = prepare, .invoke = invoke, .builtin_code = kTfLiteBuiltinPack, .version = 1};
  return &r;
}
