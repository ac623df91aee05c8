/* Shared by the binary ops with a BOOL output (the comparisons EQUAL,
 * NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL; LOGICAL_AND and
 * LOGICAL_OR): broadcasting as in binary_common.h, but the output element is
 * one byte whatever the inputs.
 *
 * Comparisons of int8/uint8 compare rescaled values, as TFLite's
 * ComparisonWithScaling: v(x) = MBQM((x − z)·2^8, M, e) with (M, e) of the
 * input's scale, so inputs with different quantization compare by real value
 * (within that fixed point). Each input has only 256 codes: prepare tabulates
 * v per input and invoke compares table entries. TFLite rescales int16 too,
 * but only in EQUAL and NOT_EQUAL and only when input 1 is quantized (LESS
 * and the other orderings compare int16 codes); that v is computed per
 * element. XNNPACK takes no comparison, so both numerics modes are TFLite's. */
#ifndef TFLITE_FAST_OPS_COMPARISON_COMMON_H_
#define TFLITE_FAST_OPS_COMPARISON_COMMON_H_

#include "binary_common.h"
#include "fp16.h"

/* out[i] = f(a[i or 0], b[i or 0]) for i < n; a_row/b_row say which. */
typedef void (*tff_bool_row_fn)(const void* a, const void* b, bool* out, size_t n, int a_row,
                                int b_row, const void* params);

/* A tff_bool_row_fn: T in, bool out (the row walk of binary_common.h). */
#define TFF_BOOL_ROW(NAME, T, P, ELEM) TFF_ROW_OF(NAME, T, bool, bool*, P, ELEM)

/* An input's rescaling: v(x) = MBQM((x − z)·2^8, m, e). */
typedef struct tff_cmp_scale {
  int32_t z, m;
  int e;
} tff_cmp_scale;

/* Per-node state: the collapsed walk, the row kernel, the int8/uint8
 * tables (indexed by the code's bit pattern as uint8) and the int16
 * rescalings. */
typedef struct tff_bool_op {
  tff_bcast bc;
  size_t elsize; /* of the inputs */
  tff_bool_row_fn row;
  int32_t lut_a[256], lut_b[256];
  tff_cmp_scale sa, sb;
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
  TF_LITE_ENSURE_MSG(ctx, a && b && out, "%s: an input or the output is missing", name);
  TF_LITE_ENSURE_MSG(ctx, a->type == b->type, "%s: input types %s and %s differ", name,
                     TfLiteTypeGetName(a->type), TfLiteTypeGetName(b->type));
  TF_LITE_ENSURE_MSG(ctx, out->type == kTfLiteBool, "%s: output type %s must be BOOL", name,
                     TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_binary_shape(ctx, name, a, b, out, &op->bc));
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

/* LOGICAL_AND and LOGICAL_OR: BOOL inputs, `row` the operation. */
static inline TfLiteStatus tff_logical_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                               const char* name, tff_bool_row_fn row) {
  tff_bool_op* op = (tff_bool_op*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_bool_op_prepare(ctx, node, name, op));
  const TfLiteType t = tff_input(ctx, node, 0)->type;
  TF_LITE_ENSURE_MSG(ctx, t == kTfLiteBool, "%s: input type %s must be BOOL", name,
                     TfLiteTypeGetName(t));
  op->row = row;
  return tff_bool_op_fold(ctx, node, op);
}

/* ---- comparisons ---- */

/* The rescaling of t (int8, uint8 or int16), TFLite's with left_shift 8.
 * The multiplier must be < 1 (TFLite's QuantizeMultiplierSmallerThanOneExp
 * checks it). */
static inline TfLiteStatus tff_cmp_scale_of(TfLiteContext* ctx, const char* name,
                                            const char* what, const TfLiteTensor* t,
                                            tff_cmp_scale* sc) {
  const float s = tff_scale(t);
  tff_quantize_multiplier((double)s, &sc->m, &sc->e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(s) && s >= 0.0f && sc->e <= 0,
                     "%s: %s scale %g must be in [0, 1) for a quantized comparison", name, what,
                     (double)s);
  sc->z = tff_zero_point(t);
  int32_t zmin = INT16_MIN, zmax = INT16_MAX;
  if (t->type != kTfLiteInt16) {
    zmin = t->type == kTfLiteInt8 ? INT8_MIN : 0;
    zmax = t->type == kTfLiteInt8 ? INT8_MAX : UINT8_MAX;
  }
  TF_LITE_ENSURE_MSG(ctx, sc->z >= zmin && sc->z <= zmax,
                     "%s: %s zero point %d is outside [%d, %d]", name, what, (int)sc->z,
                     (int)zmin, (int)zmax);
  return kTfLiteOk;
}

static inline int32_t tff_cmp_rescale(int32_t x, const tff_cmp_scale* sc) {
  return tff_mbqm((x - sc->z) * 256, sc->m, sc->e);
}

/* v(x) for every code of t (int8 or uint8). */
static inline TfLiteStatus tff_cmp_table(TfLiteContext* ctx, const char* name, const char* what,
                                         const TfLiteTensor* t, int32_t* lut) {
  tff_cmp_scale sc;
  TF_LITE_ENSURE_OK(ctx, tff_cmp_scale_of(ctx, name, what, t, &sc));
  for (int c = 0; c < 256; ++c)
    lut[c] = tff_cmp_rescale(t->type == kTfLiteInt8 ? (int32_t)(int8_t)c : c, &sc);
  return kTfLiteOk;
}

/* The element predicates: CMP(x, y, p) on values, and its int8/uint8 (table)
 * and quantized int16 (per element) forms. */
#define TFF_CMP_LT(x, y, p) ((x) < (y))
#define TFF_CMP_LE(x, y, p) ((x) <= (y))
#define TFF_CMP_GT(x, y, p) ((x) > (y))
#define TFF_CMP_GE(x, y, p) ((x) >= (y))
#define TFF_CMP_EQ(x, y, p) ((x) == (y))
#define TFF_CMP_NE(x, y, p) ((x) != (y))
#define TFF_CMP_Q8(CMP, x, y, p) CMP((p)->lut_a[(uint8_t)(x)], (p)->lut_b[(uint8_t)(y)], p)
#define TFF_CMP_Q16(CMP, x, y, p) \
  CMP(tff_cmp_rescale((x), &(p)->sa), tff_cmp_rescale((y), &(p)->sb), p)

/* The row kernels of one comparison, per input type. */
typedef struct tff_cmp_rows {
  tff_bool_row_fn b, f32, f16, i16, i32, i64, q8, q16; /* b, q16: NULL if unsupported */
  const char* types;                               /* for the error message */
} tff_cmp_rows;

/* Defines the row kernels P_b ... P_q16 of predicate CMP (TFF_CMP_LT ...). */
#define TFF_CMP_ROWS(P, CMP)                                           \
  static inline bool P##_q8_elem(uint8_t x, uint8_t y, const tff_bool_op* p) { \
    return TFF_CMP_Q8(CMP, x, y, p);                                   \
  }                                                                    \
  static inline bool P##_q16_elem(int16_t x, int16_t y, const tff_bool_op* p) { \
    return TFF_CMP_Q16(CMP, x, y, p);                                  \
  }                                                                    \
  static inline bool P##_f16_elem(uint16_t x, uint16_t y, const tff_bool_op* p) { \
    return CMP(tff_half_to_float(x), tff_half_to_float(y), p);         \
  }                                                                    \
  TFF_BOOL_ROW(P##_f16, uint16_t, tff_bool_op, P##_f16_elem)           \
  TFF_BOOL_ROW(P##_b, bool, tff_bool_op, CMP)                          \
  TFF_BOOL_ROW(P##_f32, float, tff_bool_op, CMP)                       \
  TFF_BOOL_ROW(P##_i16, int16_t, tff_bool_op, CMP)                     \
  TFF_BOOL_ROW(P##_i32, int32_t, tff_bool_op, CMP)                     \
  TFF_BOOL_ROW(P##_i64, int64_t, tff_bool_op, CMP)                     \
  TFF_BOOL_ROW(P##_q8, uint8_t, tff_bool_op, P##_q8_elem)              \
  TFF_BOOL_ROW(P##_q16, int16_t, tff_bool_op, P##_q16_elem)

/* Whole prepare of a comparison: types per `rows`, quantized rescaling. */
static inline TfLiteStatus tff_cmp_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                           const char* name, const tff_cmp_rows* rows) {
  tff_bool_op* op = (tff_bool_op*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_bool_op_prepare(ctx, node, name, op));
  const TfLiteTensor* a = tff_input(ctx, node, 0);
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  switch (a->type) {
    case kTfLiteBool: op->row = rows->b; break;
    case kTfLiteFloat32: op->row = rows->f32; break;
    case kTfLiteFloat16: op->row = rows->f16; break;
    case kTfLiteInt32: op->row = rows->i32; break;
    case kTfLiteInt64: op->row = rows->i64; break;
    case kTfLiteInt16:
      op->row = rows->i16;
      if (rows->q16 && a->quantization.type != kTfLiteNoQuantization) {
        TF_LITE_ENSURE_OK(ctx, tff_cmp_scale_of(ctx, name, "input 0", a, &op->sa));
        TF_LITE_ENSURE_OK(ctx, tff_cmp_scale_of(ctx, name, "input 1", b, &op->sb));
        op->row = rows->q16;
      }
      break;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      TF_LITE_ENSURE_OK(ctx, tff_cmp_table(ctx, name, "input 0", a, op->lut_a));
      TF_LITE_ENSURE_OK(ctx, tff_cmp_table(ctx, name, "input 1", b, op->lut_b));
      op->row = rows->q8;
      break;
    default:
      op->row = NULL;
      break;
  }
  TF_LITE_ENSURE_MSG(ctx, op->row != NULL, "%s: type %s is not supported (%s)", name,
                     TfLiteTypeGetName(a->type), rows->types);
  return tff_bool_op_fold(ctx, node, op);
}

/* The registration of a BOOL-output op NAME (builtin code CODE). */
#define TFF_BOOL_OP_REGISTRATION(NAME, CODE)                                    \
  const TfLiteRegistration* tff_register_##NAME(void) {                         \
    static const TfLiteRegistration r = {.init = tff_bool_op_init,              \
                                         .free = tff_free_user_data,            \
                                         .prepare = prepare,                    \
                                         .invoke = tff_bool_op_invoke,          \
                                         .builtin_code = CODE,                  \
                                         .version = 1};                         \
    return &r;                                                                  \
  }

#endif /* TFLITE_FAST_OPS_COMPARISON_COMMON_H_ */
