/* Shared helpers for op kernels: tensor access, validation macros, the two
 * requantization schemes of docs/numerics.md, activation bounds, scratch.
 *
 * Rule (TFLite Micro): prepare validates and computes everything; invoke
 * trusts it. Never cache TfLiteTensor* across calls: AddTensors may move the
 * tensor array.
 */
#ifndef TFLITE_FAST_OPS_KERNEL_UTIL_H_
#define TFLITE_FAST_OPS_KERNEL_UTIL_H_

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cpu/portable.h"
#include "ukernels/qs8-requantization/qs8-requantization.h"
#include "tflite_fast/builtin_op_data.h"
#include "tflite_fast/common.h"

/* ---- reporting and validation (messages name the bad value) ----
 * The macro names and the generic messages ("%s:%d %s was not true.") are
 * TFLite's on purpose: kernels written for TFLite compile against them, and
 * users see the error text they know. */
#define TF_LITE_KERNEL_LOG(ctx, ...) (ctx)->ReportError((ctx), __VA_ARGS__)

#define TF_LITE_ENSURE_MSG(ctx, cond, ...) \
  do {                                     \
    if (!(cond)) {                         \
      TF_LITE_KERNEL_LOG(ctx, __VA_ARGS__); \
      return kTfLiteError;                 \
    }                                      \
  } while (0)

#define TF_LITE_ENSURE(ctx, cond) \
  TF_LITE_ENSURE_MSG(ctx, cond, "%s:%d %s was not true.", __FILE__, __LINE__, #cond)

#define TF_LITE_ENSURE_EQ(ctx, a, b)                                          \
  TF_LITE_ENSURE_MSG(ctx, (a) == (b), "%s:%d %s != %s (%d != %d)", __FILE__, \
                     __LINE__, #a, #b, (int)(a), (int)(b))

#define TF_LITE_ENSURE_TYPES_EQ(ctx, a, b)                                     \
  TF_LITE_ENSURE_MSG(ctx, (a) == (b), "%s:%d %s != %s (%s != %s)", __FILE__,  \
                     __LINE__, #a, #b, TfLiteTypeGetName(a), TfLiteTypeGetName(b))

#define TF_LITE_ENSURE_OK(ctx, status)        \
  do {                                        \
    const TfLiteStatus s_ = (status);         \
    if (s_ != kTfLiteOk) return s_;           \
  } while (0)

/* ---- tensor access ---- */
static inline int tff_num_inputs(const TfLiteNode* node) { return node->inputs->size; }
static inline int tff_num_outputs(const TfLiteNode* node) { return node->outputs->size; }

/* NULL when the input is omitted (kTfLiteOptionalTensor) or out of range. */
static inline TfLiteTensor* tff_input(TfLiteContext* ctx, const TfLiteNode* node, int i) {
  if (i < 0 || i >= node->inputs->size) return NULL;
  const int t = node->inputs->data[i];
  return t < 0 ? NULL : &ctx->tensors[t];
}
static inline TfLiteTensor* tff_output(TfLiteContext* ctx, const TfLiteNode* node, int i) {
  if (i < 0 || i >= node->outputs->size) return NULL;
  const int t = node->outputs->data[i];
  return t < 0 ? NULL : &ctx->tensors[t];
}

static inline int tff_is_constant(const TfLiteTensor* t) {
  return t->allocation_type == kTfLiteMmapRo || t->allocation_type == kTfLitePersistentRo;
}
static inline int tff_dim(const TfLiteTensor* t, int i) { return t->dims->data[i]; }
static inline int tff_rank(const TfLiteTensor* t) { return t->dims->size; }

/* Product of dims; 0 for any zero dim. Saturates at SIZE_MAX/2 on overflow. */
size_t tff_num_elements(const TfLiteIntArray* dims);

/* memcpy for the small moves of the data-movement ops (a row of a split,
 * an input of a concatenation: tens to hundreds of bytes): fixed-size
 * chunks compile to register moves where a libc call costs more than the
 * copy. The last chunk overlaps the one before it. Buffers are disjoint. */
static inline void tff_copy(void* dst, const void* src, size_t n) {
  char* d = (char*)dst;
  const char* s = (const char*)src;
  if (n > 256) {
    memcpy(d, s, n);
  } else if (n >= 16) {
    for (size_t i = 0; i + 16 < n; i += 16) memcpy(d + i, s + i, 16);
    memcpy(d + n - 16, s + n - 16, 16);
  } else if (n >= 8) {
    memcpy(d, s, 8);
    memcpy(d + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    memcpy(d, s, 4);
    memcpy(d + n - 4, s + n - 4, 4);
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  }
}

/* Resize an output to the given shape (copies dims; the context takes it). */
TfLiteStatus tff_resize_output(TfLiteContext* ctx, TfLiteTensor* t, int rank, const int* dims);

/* Memory for what a node keeps from prepare to free (packed weights):
 * 64-byte aligned (the kernels read them in 32-byte vectors; at malloc's
 * 16 half of those would span two cache lines), uninitialised, NULL when
 * out of memory. Large blocks asked for while allocate_tensors() prepares
 * come from one region of the subgraph, backed by huge pages where the OS
 * has them (no 4 KiB fault per page on first touch); the others from the
 * heap. Give every block back with tff_persistent_free (NULL is fine)
 * before the node prepares again or from its free(). */
void* tff_persistent_alloc(TfLiteContext* ctx, size_t bytes);
void tff_persistent_free(TfLiteContext* ctx, void* p);

/* 1 when the interpreter runs OpResolverType.BUILTIN_REF numerics. */
int tff_numerics_ref(const TfLiteContext* ctx);

/* Per-tensor quantization (scale, zero point) of t, from t->params. */
static inline float tff_scale(const TfLiteTensor* t) { return t->params.scale; }
static inline int32_t tff_zero_point(const TfLiteTensor* t) { return t->params.zero_point; }
/* Affine quantization of t or NULL. */
static inline const TfLiteAffineQuantization* tff_affine(const TfLiteTensor* t) {
  return t->quantization.type == kTfLiteAffineQuantization
             ? (const TfLiteAffineQuantization*)t->quantization.params
             : NULL;
}

/* ---- fixed point (docs/numerics.md §1.2, §1.3) ---- */

/* d ≈ M·2^(shift−31), M in [2^30, 2^31); (0,0) for d == 0 or tiny d. */
void tff_quantize_multiplier(double d, int32_t* multiplier, int* shift);

/* tff_srdhm, tff_rdbpot, tff_mbqm (MultiplyByQuantizedMultiplier) and
 * tff_requant_fp32 (XNNPACK's fp32 scheme) are the qs8-requantization
 * family's scalar twin, included above. */

/* ---- activation bounds ---- */
void tff_act_range_float(TfLiteFusedActivation act, float* lo, float* hi);

/* TFLite's CalculateActivationRangeQuantized: float32 division, round half
 * away from zero, then add the zero point; clamped to the type's range. */
TfLiteStatus tff_act_range_quant(TfLiteContext* ctx, TfLiteFusedActivation act,
                                 const TfLiteTensor* output, int32_t* lo, int32_t* hi);

/* XNNPACK's bounds: lrintf(clamp(f/s + z, qmin, qmax)) (ties to even). */
void tff_act_range_quant_xnn(TfLiteFusedActivation act, float scale, int32_t zp,
                             int32_t qmin, int32_t qmax, int32_t* lo, int32_t* hi);

/* ---- scratch memory: planned in the arena, live only during the node ---- */

/* Ensure temporary `slot` of the node holds at least `bytes` (call in prepare). */
TfLiteStatus tff_scratch_request(TfLiteContext* ctx, TfLiteNode* node, int slot, size_t bytes);
/* The data of temporary `slot` (call in invoke). */
static inline void* tff_scratch(TfLiteContext* ctx, const TfLiteNode* node, int slot) {
  return ctx->tensors[node->temporaries->data[slot]].data.data;
}

/* ---- padding (TFLite ComputePaddingHeightWidth) ---- */
int tff_conv_out_size(TfLitePadding padding, int in, int filter, int stride, int dilation);
/* Total padding before the first element (floor half), and the odd extra. */
int tff_conv_pad(int stride, int dilation, int in, int filter, int out, int* offset);

/* ---- broadcasting: up to TFF_MAX_BCAST_DIMS dims ---- */
#define TFF_MAX_BCAST_DIMS 6
typedef struct tff_bcast {
  int rank;                       /* of the output */
  int shape[TFF_MAX_BCAST_DIMS];  /* output shape, left-padded with 1 */
  int stride_a[TFF_MAX_BCAST_DIMS]; /* element strides, 0 where broadcast */
  int stride_b[TFF_MAX_BCAST_DIMS];
} tff_bcast;
/* Output shape of broadcasting a and b; error names both shapes. */
TfLiteStatus tff_bcast_prepare(TfLiteContext* ctx, const TfLiteIntArray* a,
                               const TfLiteIntArray* b, tff_bcast* out);

/* ---- values computed at prepare (shape chains: SHAPE -> STRIDED_SLICE ->
 * PACK -> RESHAPE) ---- */

/* 1 when every present input holds its data during prepare: a model constant
 * (kTfLiteMmapRo) or an upstream output computed at prepare (PersistentRo). */
int tff_inputs_constant(TfLiteContext* ctx, const TfLiteNode* node);

/* Sizes an output as kTfLitePersistentRo: the interpreter allocates it at once,
 * outside the arena, so prepare may write its values; invoke then skips it. */
TfLiteStatus tff_resize_output_persistent(TfLiteContext* ctx, TfLiteTensor* t, int rank,
                                          const int* dims);

/* Element i of an int32 or int64 index tensor (begin/end/strides, paddings). */
static inline int64_t tff_index_at(const TfLiteTensor* t, int i) {
  return t->type == kTfLiteInt64 ? t->data.i64[i] : (int64_t)t->data.i32[i];
}

/* Concatenation as byte moves (CONCATENATION, PACK) along `axis` of the output
 * (negative: from the end): each output row (the dims before axis) is that row
 * of every input, in order. prepare_output sizes the output to rank/dims and,
 * when every input is constant, concatenates at once into a PersistentRo
 * output; invoke concatenates unless that happened. */
TfLiteStatus tff_concat_prepare_output(TfLiteContext* ctx, const TfLiteNode* node, int axis,
                                       TfLiteTensor* out, int rank, const int* dims);
TfLiteStatus tff_concat_invoke(TfLiteContext* ctx, const TfLiteNode* node, int axis);

/* init / free of a kernel whose per-node state is one zeroed struct T:
 * TFF_ZEROED_INIT(init, OpData) and .free = tff_free_user_data. */
#define TFF_ZEROED_INIT(name, T)                                     \
  static void* name(TfLiteContext* ctx, const char* buf, size_t len) { \
    (void)ctx, (void)buf, (void)len;                                   \
    return calloc(1, sizeof(T));                                       \
  }
void tff_free_user_data(TfLiteContext* ctx, void* data);

/* ---- quantization checks ---- */

/* Per-tensor quantization as the fixed-point formulas assume it: scale
 * finite and > 0, zero point a code of t's type. The message names the op
 * and `what` ("input", "output"). */
TfLiteStatus tff_check_quant(TfLiteContext* ctx, const char* op, const char* what,
                             const TfLiteTensor* t);

/* Invoke-time sizing of a kTfLiteDynamic output (SLICE with computed bounds,
 * READ_VARIABLE, control flow): resizes, and so reallocates, only when the
 * shape differs or the tensor has no memory yet. */
TfLiteStatus tff_resize_dynamic(TfLiteContext* ctx, TfLiteTensor* t, int rank, const int* dims);

#endif /* TFLITE_FAST_OPS_KERNEL_UTIL_H_ */
