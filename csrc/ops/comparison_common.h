/* Shared by the binary ops with a BOOL output (LESS and the other
 * comparisons, LOGICAL_AND and the other logical ops): broadcasting as in
 * binary_common.h, but the output element is one byte whatever the inputs.
 *
 * Comparisons of int8/uint8 compare rescaled values, as TFLite's
 * ComparisonWithScaling: v(x) = MBQM((x − z)·2^8, M, e) with (M, e) of the
 * input's scale, so inputs with different quantization compare by real value
 * (within that fixed point). Each input has only 256 codes: prepare tabulates
 * v per input and invoke compares table entries. XNNPACK takes no comparison,
 * so both numerics modes are TFLite's. */
#ifndef TFLITE_FAST_OPS_COMPARISON_COMMON_H_
#define TFLITE_FAST_OPS_COMPARISON_COMMON_H_

#include "binary_common.h"

/* out[i] = f(a[i or 0], b[i or 0]) for i < n; a_row/b_row say which. */
typedef void (*tff_bool_row_fn)(const void* a, const void* b, bool* out, size_t n, int a_row,
                                int b_row, const void* params);

/* A tff_bool_row_fn: T in, bool out (the row walk of binary_common.h). */
#define TFF_BOOL_ROW(NAME, T, P, ELEM) TFF_ROW_OF(NAME, T, bool, bool*, P, ELEM)

/* Per-node state: the collapsed walk, the row kernel, and the int8/uint8
 * tables (indexed by the code's bit pattern as uint8). */
typedef struct tff_bool_op {
  tff_bcast bc;
  size_t elsize; /* of the inputs */
  tff_bool_row_fn row;
  int32_t lut_a[256], lut_b[256];
} tff_bool_op;

static inline void* tff_bool_op_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  return calloc(1, sizeof(tff_bool_op));
}

/* One row call per innermost row of the output, odometer over the rest. */
static inline void tff_bool_op_run(const tff_bool_op* op, const void* a, const void* b,
                                   bool* out) {
  const tff_bcast* bc = &op->bc;
  const int last = bc->rank - 1;
  const size_t inner = (size_t)bc->shape[last];
  size_t rows = 1;
  for (int d = 0; d < last; ++d) rows *= (size_t)bc->shape[d];
  const char* pa = (const char*)a;
  const char* pb = (const char*)b;
  const int a_row = bc->stride_a[last] != 0, b_row = bc->stride_b[last] != 0;
  int idx[TFF_MAX_BCAST_DIMS] = {0};
  size_t ia = 0, ib = 0;
  for (size_t r = 0; r < rows; ++r) {
    op->row(pa + ia * op->elsize, pb + ib * op->elsize, out + r * inner, inner, a_row, b_row, op);
    for (int d = last - 1; d >= 0; --d) {
      ia += (size_t)bc->stride_a[d];
      ib += (size_t)bc->stride_b[d];
      if (++idx[d] < bc->shape[d]) break;
      ia -= (size_t)bc->stride_a[d] * (size_t)bc->shape[d];
      ib -= (size_t)bc->stride_b[d] * (size_t)bc->shape[d];
      idx[d] = 0;
    }
  }
}

/* Arity, presence, equal input types, a BOOL output; shapes the output
 * (broadcast up to 6 dims) and sets op->bc and op->elsize. */
static inline TfLiteStatus tff_bool_op_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                               const char* name, tff_bool_op* op) {
  TF_LITE_ENSURE_MSG(ctx, op != NULL, "%s: out of memory", name);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "%s: expected 2 inputs and 1 output, got %d and %d", name,
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* a = tff_input(ctx, node, 0);
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, a && b, "%s: an input is missing", name);
  TF_LITE_ENSURE_MSG(ctx, a->type == b->type, "%s: input types %s and %s differ", name,
                     TfLiteTypeGetName(a->type), TfLiteTypeGetName(b->type));
  TF_LITE_ENSURE_MSG(ctx, out->type == kTfLiteBool, "%s: output type %s must be BOOL", name,
                     TfLiteTypeGetName(out->type));
  if (TfLiteIntArrayEqual(a->dims, b->dims)) {
    const size_t n = tff_num_elements(a->dims);
    TF_LITE_ENSURE_MSG(ctx, n <= INT_MAX, "%s: %zu elements is too many", name, n);
    op->bc = (tff_bcast){.rank = 1, .shape = {(int)n}, .stride_a = {1}, .stride_b = {1}};
    TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, a->dims->size, a->dims->data));
  } else {
    TF_LITE_ENSURE_OK(ctx, tff_bcast_prepare(ctx, a->dims, b->dims, &op->bc));
    TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, op->bc.rank, op->bc.shape));
    tff_bcast_collapse(&op->bc);
  }
  op->elsize = tff_type_size(a->type);
  return kTfLiteOk;
}

/* Ends prepare: with both inputs constant the output is computed now
 * (kTfLitePersistentRo) and invoke does nothing. */
static inline TfLiteStatus tff_bool_op_fold(TfLiteContext* ctx, TfLiteNode* node,
                                            const tff_bool_op* op) {
  if (!tff_inputs_constant(ctx, node)) return kTfLiteOk;
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, out->dims->size, out->dims->data));
  tff_bool_op_run(op, tff_input(ctx, node, 0)->data.data, tff_input(ctx, node, 1)->data.data,
                  tff_output(ctx, node, 0)->data.b);
  return kTfLiteOk;
}

static inline TfLiteStatus tff_bool_op_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLitePersistentRo) return kTfLiteOk; /* folded */
  tff_bool_op_run((const tff_bool_op*)node->user_data, tff_input(ctx, node, 0)->data.data,
                  tff_input(ctx, node, 1)->data.data, out->data.b);
  return kTfLiteOk;
}

/* ---- comparisons ---- */

/* v(x) for every code of t (int8 or uint8), TFLite's rescaling with
 * left_shift 8. The multiplier must be < 1 (TFLite's
 * QuantizeMultiplierSmallerThanOneExp checks it). */
static inline TfLiteStatus tff_cmp_table(TfLiteContext* ctx, const char* name, const char* what,
                                         const TfLiteTensor* t, int32_t* lut) {
  int32_t m;
  int e;
  const float s = tff_scale(t);
  tff_quantize_multiplier((double)s, &m, &e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(s) && s >= 0.0f && e <= 0,
                     "%s: %s scale %g must be in [0, 1) for a quantized comparison", name, what,
                     (double)s);
  const int32_t z = tff_zero_point(t);
  const int is_signed = t->type == kTfLiteInt8;
  const int32_t zmin = is_signed ? INT8_MIN : 0, zmax = is_signed ? INT8_MAX : UINT8_MAX;
  TF_LITE_ENSURE_MSG(ctx, z >= zmin && z <= zmax, "%s: %s zero point %d is outside [%d, %d]",
                     name, what, (int)z, (int)zmin, (int)zmax);
  for (int c = 0; c < 256; ++c) {
    const int32_t x = is_signed ? (int32_t)(int8_t)c : c;
    lut[c] = tff_mbqm((x - z) * 256, m, e);
  }
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_COMPARISON_COMMON_H_ */
