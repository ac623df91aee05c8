/* Shared by SELECT and SELECT_V2: out = cond ? x : y elementwise, for any
 * element type (moved as 1, 2, 4 or 8 bytes, as TFLite's kernel, which
 * switches on the type's bit size).
 *
 * Every shape rule is expressed as broadcast strides over the output (0 where
 * an input repeats), so one walk serves both: SELECT_V2 broadcasts all three
 * inputs (up to 8 dims, TFLite's limit); SELECT takes equal shapes, a scalar
 * condition, or a rank-1 condition over x's first dim. When cond, x and y
 * each have one element, both keep the output's own shape from the model, as
 * TFLite. Dims are merged where all three inputs step alike, and the
 * innermost one is a row loop. XNNPACK takes no SELECT, so both numerics
 * modes are this. */
#ifndef TFLITE_FAST_OPS_SELECT_COMMON_H_
#define TFLITE_FAST_OPS_SELECT_COMMON_H_

#include <limits.h>
#include <stdlib.h>

#include "kernel_util.h"

#define TFF_SELECT_MAX_DIMS 8

typedef struct tff_select {
  int rank; /* >= 1 after collapsing */
  int shape[TFF_SELECT_MAX_DIMS];
  int64_t stride[3][TFF_SELECT_MAX_DIMS]; /* cond, x, y; in elements */
  size_t elsize;
} tff_select;

/* Contiguous strides of `dims` right-aligned to rank r, 0 where a dim is 1. */
static inline void tff_select_strides(const TfLiteIntArray* dims, int r, int64_t* stride) {
  int64_t s = 1;
  for (int i = r - 1; i >= 0; --i) {
    const int k = i - (r - dims->size);
    const int d = k >= 0 ? dims->data[k] : 1;
    stride[i] = d == 1 ? 0 : s;
    s *= d;
  }
}

/* Drops size-1 dims and merges neighbours every input steps through alike. */
static inline void tff_select_collapse(tff_select* s) {
  tff_select c = {.elsize = s->elsize};
  for (int i = 0; i < s->rank; ++i) {
    if (s->shape[i] == 1) continue;
    const int r = c.rank - 1;
    int merge = r >= 0;
    for (int t = 0; t < 3 && merge; ++t)
      merge = s->stride[t][i] * s->shape[i] == c.stride[t][r];
    if (merge) {
      c.shape[r] *= s->shape[i];
      for (int t = 0; t < 3; ++t) c.stride[t][r] = s->stride[t][i];
      continue;
    }
    c.shape[c.rank] = s->shape[i];
    for (int t = 0; t < 3; ++t) c.stride[t][c.rank] = s->stride[t][i];
    ++c.rank;
  }
  if (c.rank == 0) {
    c.rank = 1;
    c.shape[0] = 1;
  }
  *s = c;
}

/* The broadcast shape of cond, x and y into out[] (rank *rank). */
static inline TfLiteStatus tff_select_bcast_shape(TfLiteContext* ctx, const char* name,
                                                  const TfLiteIntArray* const in[3], int* rank,
                                                  int* out) {
  int r = 0;
  for (int t = 0; t < 3; ++t) r = in[t]->size > r ? in[t]->size : r;
  TF_LITE_ENSURE_MSG(ctx, r <= TFF_SELECT_MAX_DIMS, "%s: rank %d is above %d", name, r,
                     TFF_SELECT_MAX_DIMS);
  for (int i = 0; i < r; ++i) {
    int d = 1;
    for (int t = 0; t < 3; ++t) {
      const int k = i - (r - in[t]->size);
      const int e = k >= 0 ? in[t]->data[k] : 1;
      TF_LITE_ENSURE_MSG(ctx, e == 1 || d == 1 || e == d,
                         "%s: shapes are not broadcastable: dim %d is %d vs %d", name, i, d, e);
      d = e == 1 ? d : e;
    }
    out[i] = d;
  }
  *rank = r;
  return kTfLiteOk;
}

/* Whole prepare; v2 selects SELECT_V2's broadcasting. */
static inline TfLiteStatus tff_select_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                              const char* name, int v2) {
  tff_select* s = (tff_select*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, s != NULL, "%s: out of memory", name);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 3 && tff_num_outputs(node) == 1,
                     "%s: expected 3 inputs and 1 output, got %d and %d", name,
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* cond = tff_input(ctx, node, 0);
  const TfLiteTensor* x = tff_input(ctx, node, 1);
  const TfLiteTensor* y = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, cond && x && y && out, "%s: an input or the output is missing", name);
  TF_LITE_ENSURE_MSG(ctx, cond->type == kTfLiteBool, "%s: condition type %s must be BOOL", name,
                     TfLiteTypeGetName(cond->type));
  TF_LITE_ENSURE_MSG(ctx, x->type == y->type && x->type == out->type,
                     "%s: input types %s and %s and output type %s must be equal", name,
                     TfLiteTypeGetName(x->type), TfLiteTypeGetName(y->type),
                     TfLiteTypeGetName(out->type));
  s->elsize = tff_type_size(x->type);
  TF_LITE_ENSURE_MSG(ctx, s->elsize == 1 || s->elsize == 2 || s->elsize == 4 || s->elsize == 8,
                     "%s: type %s is not supported (bool, integer and float types)", name,
                     TfLiteTypeGetName(x->type));
  const TfLiteIntArray* const in[3] = {cond->dims, x->dims, y->dims};
  int dims[TFF_SELECT_MAX_DIMS];
  if (tff_num_elements(cond->dims) == 1 && tff_num_elements(x->dims) == 1 &&
      tff_num_elements(y->dims) == 1 && tff_num_elements(out->dims) == 1) {
    s->rank = 1;
    s->shape[0] = 1;
    for (int t = 0; t < 3; ++t) s->stride[t][0] = 0;
    return kTfLiteOk; /* the output keeps its shape */
  }
  const int same = TfLiteIntArrayEqual(cond->dims, x->dims) && TfLiteIntArrayEqual(x->dims, y->dims);
  int rank = x->dims->size;
  if (v2 && !same) {
    TF_LITE_ENSURE_OK(ctx, tff_select_bcast_shape(ctx, name, in, &rank, dims));
  } else {
    TF_LITE_ENSURE_MSG(ctx, rank <= TFF_SELECT_MAX_DIMS, "%s: rank %d is above %d", name, rank,
                       TFF_SELECT_MAX_DIMS);
    memcpy(dims, x->dims->data, sizeof(int) * (size_t)rank);
  }
  if (!v2 && !same) {
    TF_LITE_ENSURE_MSG(ctx, TfLiteIntArrayEqual(x->dims, y->dims),
                       "%s: x and y shapes must be equal", name);
    const int scalar = cond->dims->size == 0;
    const int rank_one = cond->dims->size == 1 && rank >= 1 && cond->dims->data[0] == dims[0];
    TF_LITE_ENSURE_MSG(ctx, scalar || rank_one,
                       "%s: the condition must be a scalar, of x's shape, or of rank 1 over x's "
                       "first dim", name);
    /* A rank-1 condition steps along dim 0 only, a scalar not at all. */
    for (int i = 0; i < rank; ++i) s->stride[0][i] = 0;
    s->stride[0][0] = rank_one && dims[0] != 1;
    tff_select_strides(x->dims, rank, s->stride[1]);
    tff_select_strides(y->dims, rank, s->stride[2]);
  } else {
    for (int t = 0; t < 3; ++t) tff_select_strides(in[t], rank, s->stride[t]);
  }
  const size_t n = tff_num_elements(x->dims) > tff_num_elements(cond->dims)
                       ? tff_num_elements(x->dims) : tff_num_elements(cond->dims);
  TF_LITE_ENSURE_MSG(ctx, n <= INT_MAX && tff_num_elements(y->dims) <= INT_MAX,
                     "%s: more than %d elements", name, INT_MAX);
  s->rank = rank;
  memcpy(s->shape, dims, sizeof(int) * (size_t)rank);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, rank, dims));
  tff_select_collapse(s);
  return kTfLiteOk;
}

/* One row: o[i] = c[i·sc] ? x[i·sx] : y[i·sy], elements of type T. */
#define TFF_SELECT_ROW(NAME, T)                                                      \
  static inline void NAME(const bool* c, const void* x_, const void* y_, void* o_,   \
                          size_t n, int64_t sc, int64_t sx, int64_t sy) {            \
    const T* x = (const T*)x_;                                                       \
    const T* y = (const T*)y_;                                                       \
    T* o = (T*)o_;                                                                   \
    for (size_t i = 0; i < n; ++i)                                                   \
      o[i] = c[(int64_t)i * sc] ? x[(int64_t)i * sx] : y[(int64_t)i * sy];           \
  }
TFF_SELECT_ROW(tff_select_row8, uint8_t)
TFF_SELECT_ROW(tff_select_row16, uint16_t)
TFF_SELECT_ROW(tff_select_row32, uint32_t)
TFF_SELECT_ROW(tff_select_row64, uint64_t)

static inline TfLiteStatus tff_select_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const tff_select* s = (const tff_select*)node->user_data;
  const bool* c = tff_input(ctx, node, 0)->data.b;
  const char* x = tff_input(ctx, node, 1)->data.raw_const;
  const char* y = tff_input(ctx, node, 2)->data.raw_const;
  TfLiteTensor* out = tff_output(ctx, node, 0);
  char* o = out->data.raw;
  const int last = s->rank - 1;
  const size_t inner = (size_t)s->shape[last];
  size_t rows = 1;
  for (int d = 0; d < last; ++d) rows *= (size_t)s->shape[d];
  void (*row)(const bool*, const void*, const void*, void*, size_t, int64_t, int64_t, int64_t) =
      s->elsize == 1 ? tff_select_row8
                     : s->elsize == 2 ? tff_select_row16
                                      : s->elsize == 4 ? tff_select_row32 : tff_select_row64;
  int idx[TFF_SELECT_MAX_DIMS] = {0};
  int64_t off[3] = {0, 0, 0};
  for (size_t r = 0; r < rows; ++r) {
    row(c + off[0], x + off[1] * (int64_t)s->elsize, y + off[2] * (int64_t)s->elsize,
        o + r * inner * s->elsize, inner, s->stride[0][last], s->stride[1][last],
        s->stride[2][last]);
    for (int d = last - 1; d >= 0; --d) {
      for (int t = 0; t < 3; ++t) off[t] += s->stride[t][d];
      if (++idx[d] < s->shape[d]) break;
      for (int t = 0; t < 3; ++t) off[t] -= s->stride[t][d] * s->shape[d];
      idx[d] = 0;
    }
  }
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_SELECT_COMMON_H_ */
