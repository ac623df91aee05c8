/* UNPACK: num outputs, output k = the input's slice k along `axis` (the axis
 * dropped from the shape). Only bytes move; TFLite takes float32, int32,
 * uint8, int8, int16, bool (and the 16-bit floats), with every output
 * quantized as the input. */
#include "kernel_util.h"
#include "ops.h"

static int type_ok(TfLiteType t) {
  switch (t) {
    case kTfLiteFloat32: case kTfLiteFloat16: case kTfLiteBFloat16: case kTfLiteInt32:
    case kTfLiteUInt8: case kTfLiteInt8: case kTfLiteInt16: case kTfLiteBool:
      return 1;
    default:
      return 0;
  }
}

static int axis_of(const TfLiteNode* node, const TfLiteTensor* in) {
  const int a = ((const TfLiteUnpackParams*)node->builtin_data)->axis;
  return a < 0 ? a + tff_rank(in) : a;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteUnpackParams* p = (const TfLiteUnpackParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL, "UNPACK: missing options");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == p->num,
                     "UNPACK: expected 1 input and num = %d outputs, got %d and %d", p->num,
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in != NULL, "UNPACK: the input is missing");
  TF_LITE_ENSURE_MSG(ctx, type_ok(in->type), "UNPACK: type %s is not supported",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(in->dims) > 0, "UNPACK: the input is empty");
  const int rank = tff_rank(in), axis = axis_of(node, in);
  TF_LITE_ENSURE_MSG(ctx, axis >= 0 && axis < rank, "UNPACK: axis %d is out of range for rank %d",
                     p->axis, rank);
  TF_LITE_ENSURE_MSG(ctx, in->dims->data[axis] == p->num,
                     "UNPACK: num %d differs from dimension %d (%d)", p->num, axis,
                     in->dims->data[axis]);
  int* dims = (int*)malloc(sizeof(int) * (size_t)rank);
  TF_LITE_ENSURE_MSG(ctx, dims != NULL, "UNPACK: out of memory");
  for (int i = 0, k = 0; i < rank; ++i)
    if (i != axis) dims[k++] = in->dims->data[i];
  TfLiteStatus s = kTfLiteOk;
  for (int i = 0; i < p->num && s == kTfLiteOk; ++i) {
    TfLiteTensor* o = tff_output(ctx, node, i);
    if (o == NULL || o->type != in->type || tff_scale(o) != tff_scale(in) ||
        tff_zero_point(o) != tff_zero_point(in)) {
      TF_LITE_KERNEL_LOG(ctx, "UNPACK: output %d is missing or differs from the input in type or "
                              "quantization", i);
      s = kTfLiteError;
    } else {
      s = tff_resize_output(ctx, o, rank - 1, dims);
    }
  }
  free(dims);
  return s;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const int axis = axis_of(node, in), n = tff_num_outputs(node);
  size_t outer = 1, inner = tff_type_size(in->type);
  for (int d = 0; d < axis; ++d) outer *= (size_t)in->dims->data[d];
  for (int d = axis + 1; d < tff_rank(in); ++d) inner *= (size_t)in->dims->data[d];
  const char* src = in->data.raw_const;
  for (size_t o = 0; o < outer; ++o)
    for (int k = 0; k < n; ++k, src += inner)
      memcpy(tff_output(ctx, node, k)->data.raw + o * inner, src, inner);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_UNPACK(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinUnpack,
                                       .version = 1};
  return &r;
}
