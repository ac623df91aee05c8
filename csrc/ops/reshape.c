/* RESHAPE: a byte copy under a new shape, for every fixed-size type. The
 * shape comes from the second input when it is a 1-D int32 tensor, else from
 * TfLiteReshapeParams (TFLite reshape.cc); one dim may be -1. The shape
 * tensor must hold its values at prepare: a model constant, or an output that
 * SHAPE / STRIDED_SLICE / PACK / CONCATENATION computed at prepare. A constant
 * input is reshaped at prepare into a kTfLitePersistentRo output. */
#include "kernel_util.h"
#include "ops.h"

#define RESHAPE_MAX_DIMS 16

/* Reads the requested shape into dims (rank at most RESHAPE_MAX_DIMS). */
static TfLiteStatus requested_shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* shape = tff_input(ctx, node, 1);
  if (shape != NULL && tff_rank(shape) == 1 && shape->type == kTfLiteInt32) {
    TF_LITE_ENSURE_MSG(ctx, tff_is_constant(shape),
                       "shape tensor %d is not constant; dynamic shapes are not supported yet",
                       node->inputs->data[1]);
    *rank = tff_dim(shape, 0);
    TF_LITE_ENSURE_MSG(ctx, *rank <= RESHAPE_MAX_DIMS, "shape has %d dims, at most %d supported",
                       *rank, RESHAPE_MAX_DIMS);
    for (int i = 0; i < *rank; ++i) dims[i] = shape->data.i32[i];
    return kTfLiteOk;
  }
  const TfLiteReshapeParams* p = (const TfLiteReshapeParams*)node->builtin_data;
  *rank = p != NULL ? p->num_dimensions : 0;
  TF_LITE_ENSURE_MSG(ctx, *rank >= 0 && *rank <= TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT,
                     "new_shape has %d dims", *rank);
  /* [0] in the options means a scalar. */
  if (*rank == 1 && p->shape[0] == 0) *rank = 0;
  for (int i = 0; i < *rank; ++i) dims[i] = p->shape[i];
  return kTfLiteOk;
}

/* Replaces a -1 dim by what makes the element counts match, and checks they do. */
static TfLiteStatus resolve_shape(TfLiteContext* ctx, size_t in_count, const TfLiteIntArray* in_dims,
                                  int* dims, int rank) {
  size_t in_nonzero = 1, out_nonzero = 1, out_count = 1;
  for (int i = 0; i < in_dims->size; ++i) in_nonzero *= in_dims->data[i] ? (size_t)in_dims->data[i] : 1;
  int stretch = -1;
  for (int i = 0; i < rank; ++i) {
    if (dims[i] == -1) {
      TF_LITE_ENSURE_MSG(ctx, stretch < 0, "shape has more than one -1 (dims %d and %d)", stretch, i);
      stretch = i;
      continue;
    }
    TF_LITE_ENSURE_MSG(ctx, dims[i] >= 0, "shape dim %d is %d", i, dims[i]);
    out_nonzero *= dims[i] ? (size_t)dims[i] : 1;
    out_count *= (size_t)dims[i];
  }
  if (stretch >= 0) {
    const size_t inferred = in_count == 0 && out_count != 0 ? 0 : in_nonzero / out_nonzero;
    TF_LITE_ENSURE_MSG(ctx, inferred <= INT32_MAX, "inferred dim %zu is too large", inferred);
    dims[stretch] = (int)inferred;
    out_count *= inferred;
  }
  TF_LITE_ENSURE_MSG(ctx, in_count == out_count,
                     "cannot reshape a tensor of %zu elements into one of %zu elements", in_count,
                     out_count);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE(ctx, tff_num_inputs(node) == 1 || tff_num_inputs(node) == 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && out != NULL);
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(in->type) > 0, "type %s not supported",
                     TfLiteTypeGetName(in->type));
  int dims[RESHAPE_MAX_DIMS], rank;
  TF_LITE_ENSURE_OK(ctx, requested_shape(ctx, node, dims, &rank));
  TF_LITE_ENSURE_OK(ctx, resolve_shape(ctx, tff_num_elements(in->dims), in->dims, dims, rank));
  if (!tff_is_constant(in)) return tff_resize_output(ctx, out, rank, dims);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, rank, dims));
  memcpy(out->data.raw, in->data.raw_const, out->bytes);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type != kTfLitePersistentRo && out->data.raw != in->data.raw_const) {
    tff_copy(out->data.raw, in->data.raw_const, out->bytes);
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_RESHAPE(void) {
  static const TfLiteRegistration r = {
      .prepare = prepare, .invoke = invoke, .builtin_code = kTfLiteBuiltinReshape, .version = 1};
  return &r;
}
