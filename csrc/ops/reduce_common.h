/* Shared by the reductions MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD
 * (TFLite reduce.cc): the axis tensor, the output shape and the walk that
 * folds every input element into the accumulator of its output element.
 *
 * Axes as TFLite resolves them: negative counts from the end, a repeated
 * axis counts once, and a scalar input ignores its axes. The axis tensor
 * must hold its values at prepare (a model constant or an output computed
 * at prepare). */
#ifndef TFLITE_FAST_OPS_REDUCE_COMMON_H_
#define TFLITE_FAST_OPS_REDUCE_COMMON_H_

#include "kernel_util.h"

#define TFF_REDUCE_MAX_DIMS 8

typedef struct tff_reduce {
  int rank; /* of the input, >= 1 (a scalar is [1]) */
  int dims[TFF_REDUCE_MAX_DIMS];
  int reduced[TFF_REDUCE_MAX_DIMS];
  size_t ostride[TFF_REDUCE_MAX_DIMS]; /* output element stride per input dim, 0 if reduced */
  int last_reduced;
  int num_reduced;  /* distinct reduced axes */
  int real_reduced; /* reduced dims longer than 1: TFLite's optimized kernels copy when none */
  size_t in_count, out_count;
  int32_t n; /* elements reduced into each output */
} tff_reduce;

/* Folds the n elements of one input row into acc: all into acc[0] when the
 * row's dim is reduced, else element i into acc[i]. */
typedef void (*tff_reduce_row_fn)(const void* in, void* acc, int n, int reduced, const void* arg);

/* A tff_reduce_row_fn over input type T and accumulator type A; FOLD(a, x)
 * is the new accumulator (it may read `arg`). Element-wise rows go 8 at a
 * time through restrict parameters: -O2's vectorizer packs such fixed
 * blocks (the plain loop, of unknown length and possibly aliased, stays
 * scalar: 6x slower than XNNPACK on MobileNet's 7x7x1280 MEAN); each element
 * keeps its own order. */
#define TFF_REDUCE_ROW(NAME, T, A, FOLD)                                                    \
  static void NAME##_elems(A* restrict a, const T* restrict x, int n, const void* arg) {  \
    (void)arg;                                                                            \
    for (; n >= 8; n -= 8, a += 8, x += 8) {                                              \
      _Pragma("GCC unroll 8") for (int j = 0; j < 8; ++j) a[j] = FOLD(a[j], x[j]);        \
    }                                                                                     \
    for (int i = 0; i < n; ++i) a[i] = FOLD(a[i], x[i]);                                  \
  }                                                                                       \
  static void NAME(const void* in_, void* acc_, int n, int reduced, const void* arg) {   \
    const T* x = (const T*)in_;                                                           \
    A* a = (A*)acc_;                                                                      \
    (void)arg;                                                                            \
    if (!reduced) {                                                                       \
      NAME##_elems(a, x, n, arg);                                                         \
      return;                                                                             \
    }                                                                                     \
    A v = a[0];                                                                           \
    for (int i = 0; i < n; ++i) v = FOLD(v, x[i]);                                        \
    a[0] = v;                                                                             \
  }

/* The tensors of a node (input, axis) -> output: the reductions, ARG_MAX,
 * ARG_MIN, CUMSUM. */
static inline TfLiteStatus tff_axis_op_tensors(TfLiteContext* ctx, const TfLiteNode* node,
                                               const TfLiteTensor** in,
                                               const TfLiteTensor** axis, TfLiteTensor** out) {
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  *in = tff_input(ctx, node, 0);
  *axis = tff_input(ctx, node, 1);
  *out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, *in != NULL && *axis != NULL && *out != NULL);
  return kTfLiteOk;
}

/* Validates the node (input, int32 axis, output), resolves the axes into r
 * and sizes the output. `op` names the op in messages. */
static inline TfLiteStatus tff_reduce_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                              const char* op, tff_reduce* r) {
  const TfLiteTensor *in, *axis;
  TfLiteTensor* out;
  TF_LITE_ENSURE_OK(ctx, tff_axis_op_tensors(ctx, node, &in, &axis, &out));
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  TF_LITE_ENSURE_TYPES_EQ(ctx, axis->type, kTfLiteInt32);
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(axis),
                     "%s: axis tensor %d is not constant; dynamic shapes are not supported yet",
                     op, node->inputs->data[1]);
  const int in_rank = tff_rank(in);
  TF_LITE_ENSURE_MSG(ctx, in_rank <= TFF_REDUCE_MAX_DIMS, "%s: input rank %d exceeds %d", op,
                     in_rank, TFF_REDUCE_MAX_DIMS);
  memset(r, 0, sizeof(*r));
  r->rank = in_rank > 0 ? in_rank : 1;
  for (int i = 0; i < r->rank; ++i) r->dims[i] = in_rank > 0 ? tff_dim(in, i) : 1;
  r->in_count = tff_num_elements(in->dims);
  TF_LITE_ENSURE_MSG(ctx, r->in_count < (size_t)INT32_MAX, "%s: input of %zu elements is too large",
                     op, r->in_count);
  const size_t count = tff_num_elements(axis->dims);
  for (size_t i = 0; i < count; ++i) {
    const int a = axis->data.i32[i];
    TF_LITE_ENSURE_MSG(ctx, (in_rank == 0 && a == 0) || (a >= -in_rank && a < in_rank),
                       "%s: axis %d out of range for an input of rank %d", op, a, in_rank);
    const int k = a < 0 ? a + in_rank : a;
    if (in_rank > 0 && !r->reduced[k]) {
      r->reduced[k] = 1;
      ++r->num_reduced;
      r->real_reduced += r->dims[k] > 1;
    }
  }
  const TfLiteReducerParams* p = (const TfLiteReducerParams*)node->builtin_data;
  const int keep_dims = p != NULL && p->keep_dims;
  int out_dims[TFF_REDUCE_MAX_DIMS], out_rank = 0;
  for (int i = 0; i < in_rank; ++i) {
    if (!r->reduced[i]) {
      out_dims[out_rank++] = r->dims[i];
    } else if (keep_dims) {
      out_dims[out_rank++] = 1;
    }
  }
  size_t stride = 1, n = 1;
  for (int i = r->rank - 1; i >= 0; --i) {
    r->ostride[i] = r->reduced[i] ? 0 : stride;
    stride *= r->reduced[i] ? 1 : (size_t)r->dims[i];
    n *= r->reduced[i] ? (size_t)r->dims[i] : 1;
  }
  r->n = (int32_t)n;
  r->out_count = stride;
  r->last_reduced = r->reduced[r->rank - 1];
  return tff_resize_output(ctx, out, out_rank, out_dims);
}

/* 1 when ai-edge-litert's AUTO resolver gives the node to XNNPACK (type
 * aside, which the caller checks): a model-constant (kTfLiteMmapRo) vector
 * of 1 to 6 axes over an input of rank 1 to 6. */
static inline int tff_reduce_xnn(TfLiteContext* ctx, const TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* axis = tff_input(ctx, node, 1);
  const size_t count = tff_num_elements(axis->dims);
  return !tff_numerics_ref(ctx) && axis->allocation_type == kTfLiteMmapRo &&
         tff_rank(axis) <= 1 && count > 0 && count <= 6 && tff_rank(in) >= 1 &&
         tff_rank(in) <= 6;
}

/* bool reductions run in reference numerics only: TFLite's optimized
 * reduce kernel (AUTO) fails on bool except for REDUCE_ANY/ALL. */
static inline TfLiteStatus tff_reduce_bool_ref_only(TfLiteContext* ctx, const char* op) {
  TF_LITE_ENSURE_MSG(ctx, tff_numerics_ref(ctx),
                     "%s: bool is supported in reference numerics only (TFLite's optimized "
                     "kernel fails on it)", op);
  return kTfLiteOk;
}

/* Folds the input (elements of `elem` bytes) into the accumulators at acc
 * (`acc_elem` bytes each, set up by the caller) in input order, as TFLite's
 * reference Reduce does. */
static inline void tff_reduce_walk(const tff_reduce* r, const void* in, size_t elem, void* acc,
                                   size_t acc_elem, tff_reduce_row_fn row, const void* arg) {
  const int inner = r->dims[r->rank - 1];
  const size_t rows = inner ? r->in_count / (size_t)inner : 0;
  int idx[TFF_REDUCE_MAX_DIMS] = {0};
  size_t off = 0;
  for (size_t i = 0; i < rows; ++i) {
    row((const char*)in + i * (size_t)inner * elem, (char*)acc + off * acc_elem, inner,
        r->last_reduced, arg);
    for (int k = r->rank - 2; k >= 0; --k) {
      off += r->ostride[k];
      if (++idx[k] < r->dims[k]) break;
      off -= r->ostride[k] * (size_t)r->dims[k];
      idx[k] = 0;
    }
  }
}

#endif /* TFLITE_FAST_OPS_REDUCE_COMMON_H_ */
