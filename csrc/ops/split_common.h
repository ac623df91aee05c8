/* Shared by SPLIT and SPLIT_V: the input cut along one axis into the
 * outputs, in order. Only bytes move, so every numerics mode and every
 * quantization gives the same result (outputs keep their own params, like
 * TFLite, which copies codes without requantizing).
 *
 * When the axis (and SPLIT_V's sizes) are constant, prepare shapes the
 * outputs; otherwise they are dynamic and invoke shapes them (TFLite). */
#ifndef TFLITE_FAST_OPS_SPLIT_COMMON_H_
#define TFLITE_FAST_OPS_SPLIT_COMMON_H_

#include "kernel_util.h"

/* The types TFLite's SPLIT and SPLIT_V take. */
static inline int tff_split_type_ok(TfLiteType t) {
  return t == kTfLiteFloat32 || t == kTfLiteUInt8 || t == kTfLiteInt8 || t == kTfLiteInt16 ||
         t == kTfLiteInt32 || t == kTfLiteInt64;
}

/* Checks the input against the outputs: num_splits outputs, a supported
 * type shared by all. */
static inline TfLiteStatus tff_split_check(TfLiteContext* ctx, const TfLiteNode* node,
                                           const char* name, const TfLiteTensor* in,
                                           int num_splits) {
  TF_LITE_ENSURE_MSG(ctx, in != NULL, "%s: the input is missing", name);
  TF_LITE_ENSURE_MSG(ctx, num_splits >= 1 && tff_num_outputs(node) == num_splits,
                     "%s: num_splits is %d but the node has %d outputs", name, num_splits,
                     tff_num_outputs(node));
  TF_LITE_ENSURE_MSG(ctx, tff_split_type_ok(in->type),
                     "%s: type %s is not supported (float32, uint8, int8, int16, int32, int64)",
                     name, TfLiteTypeGetName(in->type));
  for (int i = 0; i < num_splits; ++i) {
    const TfLiteTensor* o = tff_output(ctx, node, i);
    TF_LITE_ENSURE_MSG(ctx, o->type == in->type, "%s: output %d type %s differs from input %s",
                       name, i, TfLiteTypeGetName(o->type), TfLiteTypeGetName(in->type));
  }
  return kTfLiteOk;
}

/* The axis in a one-element int32 tensor, from the end when negative; -1
 * after reporting when it is not an axis of a rank-`rank` input. */
static inline int tff_split_axis(TfLiteContext* ctx, const char* name, const TfLiteTensor* axis,
                                 int rank) {
  const int a = axis->data.i32[0];
  const int r = a < 0 ? a + rank : a;
  if (r < 0 || r >= rank) {
    TF_LITE_KERNEL_LOG(ctx, "%s: axis %d is out of range for rank %d", name, a, rank);
    return -1;
  }
  return r;
}

/* Output i = the input's shape with dims[axis] = sizes[i]. At invoke (dynamic
 * outputs) a tensor keeps its memory when its shape is unchanged. */
static inline TfLiteStatus tff_split_resize(TfLiteContext* ctx, const TfLiteNode* node,
                                            const TfLiteTensor* in, int axis, const int* sizes,
                                            int at_invoke) {
  const int rank = in->dims->size;
  int* dims = (int*)malloc(sizeof(int) * (size_t)(rank ? rank : 1));
  TF_LITE_ENSURE_MSG(ctx, dims != NULL, "out of memory");
  memcpy(dims, in->dims->data, sizeof(int) * (size_t)rank);
  TfLiteStatus s = kTfLiteOk;
  for (int i = 0; i < tff_num_outputs(node) && s == kTfLiteOk; ++i) {
    TfLiteTensor* o = tff_output(ctx, node, i);
    dims[axis] = sizes[i];
    s = at_invoke ? tff_resize_dynamic(ctx, o, rank, dims) : tff_resize_output(ctx, o, rank, dims);
  }
  free(dims);
  return s;
}

/* Marks every output dynamic (shaped at invoke). */
static inline void tff_split_dynamic(TfLiteContext* ctx, const TfLiteNode* node) {
  for (int i = 0; i < tff_num_outputs(node); ++i)
    tff_output(ctx, node, i)->allocation_type = kTfLiteDynamic;
}

/* The copy: each of the `outer` rows of the input (the dims before axis) is
 * the concatenation of that row of every output. Output by output, so the
 * inner loop is only the moves of one chunk size. */
static inline void tff_split_run(TfLiteContext* ctx, const TfLiteNode* node,
                                 const TfLiteTensor* in, int axis) {
  size_t outer = 1, inner = tff_type_size(in->type);
  for (int d = 0; d < axis; ++d) outer *= (size_t)in->dims->data[d];
  for (int d = axis + 1; d < in->dims->size; ++d) inner *= (size_t)in->dims->data[d];
  const size_t row = (size_t)in->dims->data[axis] * inner;
  const char* src = in->data.raw_const;
  for (int i = 0; i < tff_num_outputs(node); ++i) {
    TfLiteTensor* o = tff_output(ctx, node, i);
    const size_t chunk = (size_t)o->dims->data[axis] * inner;
    char* dst = o->data.raw;
    for (size_t r = 0; r < outer; ++r) tff_copy(dst + r * chunk, src + r * row, chunk);
    src += chunk;
  }
}

#endif /* TFLITE_FAST_OPS_SPLIT_COMMON_H_ */
