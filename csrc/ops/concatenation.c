/* CONCATENATION along an axis (negative counts from the end), for every
 * fixed-size type, as byte moves (TFLite concatenation.cc). Quantized inputs
 * must share the output's scale and zero point: TFLite's int8 kernel and
 * XNNPACK both refuse to rescale (uint8 rescaling is not implemented here).
 * Constant inputs are concatenated at prepare into a kTfLitePersistentRo
 * output; constant scalars give a 1-D output, as in TFLite. */
#include "../runtime/alias.h"
#include "kernel_util.h"
#include "ops.h"

#define CONCAT_MAX_DIMS 16

/* Checks input i against input 0 and the output; adds its axis dim to *sum. */
static TfLiteStatus check_input(TfLiteContext* ctx, const TfLiteTensor* t, int i,
                                const TfLiteTensor* t0, const TfLiteTensor* out, int axis,
                                int* sum) {
  TF_LITE_ENSURE_TYPES_EQ(ctx, t->type, t0->type);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(t) == tff_rank(t0), "input %d has rank %d, input 0 rank %d", i,
                     tff_rank(t), tff_rank(t0));
  for (int d = 0; d < tff_rank(t0) && i > 0; ++d) {
    if (d == axis) {
      TF_LITE_ENSURE_MSG(ctx, tff_dim(t, d) <= INT32_MAX - *sum, "output dim %d overflows", d);
      *sum += tff_dim(t, d);
    } else {
      TF_LITE_ENSURE_MSG(ctx, tff_dim(t, d) == tff_dim(t0, d),
                         "input %d has dim %d = %d where input 0 has %d", i, d, tff_dim(t, d),
                         tff_dim(t0, d));
    }
  }
  if (t->type == kTfLiteInt8 || t->type == kTfLiteUInt8) {
    TF_LITE_ENSURE_MSG(ctx, tff_scale(t) == tff_scale(out) && tff_zero_point(t) == tff_zero_point(out),
                       "input %d quantization (%g, %d) differs from the output's (%g, %d)", i,
                       (double)tff_scale(t), (int)tff_zero_point(t), (double)tff_scale(out),
                       (int)tff_zero_point(out));
  }
  if (t->type == kTfLiteInt16) {
    TF_LITE_ENSURE_MSG(ctx, tff_zero_point(t) == 0 && tff_zero_point(out) == 0,
                       "int16 input %d and the output need zero point 0", i);
  }
  return kTfLiteOk;
}

/* With only 1s before the axis each input is one contiguous piece of the
 * output, which its producer may write in place (alias.h). */
static void offer_views(TfLiteContext* ctx, const TfLiteNode* node, int axis,
                        const TfLiteTensor* out) {
  if (out->allocation_type != kTfLiteArenaRw) return;
  for (int d = 0; d < axis; ++d)
    if (tff_dim(out, d) != 1) return;
  size_t at = 0;
  for (int i = 0; i < tff_num_inputs(node); ++i) {
    tff_view_offer(ctx, node->inputs->data[i], node->outputs->data[0], at);
    at += tff_input(ctx, node, i)->bytes;
  }
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteConcatenationParams* p = (const TfLiteConcatenationParams*)node->builtin_data;
  TF_LITE_ENSURE(ctx, p != NULL && tff_num_inputs(node) >= 1);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* t0 = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, t0 != NULL && out != NULL);
  const int rank = tff_rank(t0);
  const int axis = p->axis < 0 ? p->axis + rank : p->axis;
  TF_LITE_ENSURE_MSG(ctx, axis >= 0 && (axis < rank || (rank == 0 && axis == 0)),
                     "axis %d out of range for rank %d", p->axis, rank);
  TF_LITE_ENSURE_MSG(ctx, p->activation == kTfLiteActNone, "fused activation %d not supported",
                     (int)p->activation);
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(t0->type) > 0, "type %s not supported",
                     TfLiteTypeGetName(t0->type));
  TF_LITE_ENSURE_TYPES_EQ(ctx, out->type, t0->type);
  TF_LITE_ENSURE_MSG(ctx, rank <= CONCAT_MAX_DIMS, "rank %d exceeds %d", rank, CONCAT_MAX_DIMS);
  int dims[CONCAT_MAX_DIMS], sum = rank > 0 ? tff_dim(t0, axis) : 1;
  for (int i = 0; i < tff_num_inputs(node); ++i) {
    const TfLiteTensor* t = tff_input(ctx, node, i);
    TF_LITE_ENSURE(ctx, t != NULL);
    TF_LITE_ENSURE_OK(ctx, check_input(ctx, t, i, t0, out, axis, &sum));
    if (rank == 0 && i > 0) ++sum;
  }
  if (rank == 0) {
    TF_LITE_ENSURE_MSG(ctx, tff_inputs_constant(ctx, node), "scalar inputs must be constant");
    return tff_concat_prepare_output(ctx, node, 0, out, 1, &sum);
  }
  for (int d = 0; d < rank; ++d) dims[d] = d == axis ? sum : tff_dim(t0, d);
  TF_LITE_ENSURE_OK(ctx, tff_concat_prepare_output(ctx, node, axis, out, rank, dims));
  offer_views(ctx, node, axis, out);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_concat_invoke(ctx, node, ((const TfLiteConcatenationParams*)node->builtin_data)->axis);
}

const TfLiteRegistration* tff_register_CONCATENATION(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinConcatenation,
                                       .version = 1};
  return &r;
}
