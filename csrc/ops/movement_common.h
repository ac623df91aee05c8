/* Shared by the data-movement ops whose output shape comes from their
 * inputs (EXPAND_DIMS, BROADCAST_TO, TILE, MIRROR_PAD, GATHER_ND, ...).
 *
 * An op gives two functions: shape (the output dims from the inputs; reports
 * and fails on bad values) and run (moves the bytes into output 0). The
 * lifecycle is TFLite's: when the shape-determining inputs hold their values
 * at prepare, prepare sizes the output, and when every input does, it also
 * runs the op into a kTfLitePersistentRo output (TFLite's constant folding;
 * invoke then skips it). Otherwise the output is dynamic and invoke sizes it
 * before running. */
#ifndef TFLITE_FAST_OPS_MOVEMENT_COMMON_H_
#define TFLITE_FAST_OPS_MOVEMENT_COMMON_H_

#include "kernel_util.h"

#define TFF_MOVE_MAX_DIMS 8

typedef TfLiteStatus (*tff_move_shape_fn)(TfLiteContext* ctx, TfLiteNode* node, int* dims,
                                          int* rank);
typedef TfLiteStatus (*tff_move_run_fn)(TfLiteContext* ctx, TfLiteNode* node);

static inline TfLiteStatus tff_move_prepare(TfLiteContext* ctx, TfLiteNode* node, int shape_known,
                                            tff_move_shape_fn shape, tff_move_run_fn run) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (!shape_known) {
    out->allocation_type = kTfLiteDynamic;
    return kTfLiteOk;
  }
  int dims[TFF_MOVE_MAX_DIMS], rank;
  TF_LITE_ENSURE_OK(ctx, shape(ctx, node, dims, &rank));
  if (!tff_inputs_constant(ctx, node)) return tff_resize_output(ctx, out, rank, dims);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, rank, dims));
  return run(ctx, node);
}

static inline TfLiteStatus tff_move_invoke(TfLiteContext* ctx, TfLiteNode* node,
                                           tff_move_shape_fn shape, tff_move_run_fn run) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLitePersistentRo) return kTfLiteOk;
  if (out->allocation_type == kTfLiteDynamic) {
    int dims[TFF_MOVE_MAX_DIMS], rank;
    TF_LITE_ENSURE_OK(ctx, shape(ctx, node, dims, &rank));
    TF_LITE_ENSURE_OK(ctx, tff_resize_dynamic(ctx, out, rank, dims));
  }
  return run(ctx, node);
}

/* The invoke and registration of such an op, from its prepare, shape and run. */
#define TFF_MOVE_REGISTRATION(NAME, CODE, SHAPE, RUN)                                  \
  static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {                  \
    return tff_move_invoke(ctx, node, SHAPE, RUN);                                    \
  }                                                                                   \
  const TfLiteRegistration* tff_register_##NAME(void) {                               \
    static const TfLiteRegistration r = {                                             \
        .prepare = prepare, .invoke = invoke, .builtin_code = CODE, .version = 1};    \
    return &r;                                                                        \
  }

/* Input 0 and output 0 of a node that moves bytes: both present, same
 * type, a fixed-size type. */
static inline TfLiteStatus tff_move_check_io(TfLiteContext* ctx, const TfLiteNode* node,
                                             const char* op, int num_inputs) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == num_inputs && tff_num_outputs(node) == 1,
                     "%s: expected %d inputs and 1 output, got %d and %d", op, num_inputs,
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in != NULL && out != NULL, "%s: the input or the output is missing", op);
  for (int i = 1; i < num_inputs; ++i)
    TF_LITE_ENSURE_MSG(ctx, tff_input(ctx, node, i) != NULL, "%s: input %d is missing", op, i);
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "%s: input type %s and output type %s differ", op,
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(in->type) > 0, "%s: type %s is not supported", op,
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) <= TFF_MOVE_MAX_DIMS,
                     "%s: input has %d dims, at most %d are supported", op, tff_rank(in),
                     TFF_MOVE_MAX_DIMS);
  return kTfLiteOk;
}

/* TFLite's rule for ops that copy codes: output quantized as the input (for
 * int16, symmetric). `types_checked`: only int8, uint8 and int16 are checked
 * (0: every type, as EXPAND_DIMS does). */
static inline TfLiteStatus tff_move_same_quant(TfLiteContext* ctx, const char* op,
                                               const TfLiteTensor* in, const TfLiteTensor* out,
                                               int types_checked) {
  const int q = in->type == kTfLiteInt8 || in->type == kTfLiteUInt8 || in->type == kTfLiteInt16;
  if (types_checked && !q) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx, tff_scale(in) == tff_scale(out) &&
                              tff_zero_point(in) == tff_zero_point(out),
                     "%s: input (scale %g, zero point %d) and output (scale %g, zero point %d) "
                     "quantization differ", op, (double)tff_scale(in), (int)tff_zero_point(in),
                     (double)tff_scale(out), (int)tff_zero_point(out));
  TF_LITE_ENSURE_MSG(ctx, in->type != kTfLiteInt16 || tff_zero_point(in) == 0,
                     "%s: int16 zero point %d must be 0", op, (int)tff_zero_point(in));
  return kTfLiteOk;
}

/* The types TFLite's GATHER and GATHER_ND move. */
static inline int tff_gather_type_ok(TfLiteType t) {
  switch (t) {
    case kTfLiteFloat32: case kTfLiteFloat16: case kTfLiteBFloat16: case kTfLiteUInt8:
    case kTfLiteInt8: case kTfLiteInt16: case kTfLiteInt32: case kTfLiteInt64: case kTfLiteBool:
      return 1;
    default:
      return 0;
  }
}

/* Element i of an int16, int32 or int64 index tensor. */
static inline int64_t tff_gather_index(const TfLiteTensor* t, size_t i) {
  switch (t->type) {
    case kTfLiteInt16: return t->data.i16[i];
    case kTfLiteInt32: return t->data.i32[i];
    default: return t->data.i64[i];
  }
}

/* The checks of DEPTH_TO_SPACE and SPACE_TO_DEPTH beyond the shape: TFLite's
 * types, and in default mode XNNPACK's refusal of an int8/uint8 node whose
 * output is quantized unlike its input (AUTO gives it the node when the
 * block size is above 1, and its failure fails the model). */
static inline TfLiteStatus tff_move_space_check(TfLiteContext* ctx, const TfLiteNode* node,
                                                const char* op, int block_size) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  const TfLiteType t = in->type;
  TF_LITE_ENSURE_MSG(ctx, t == kTfLiteFloat32 || t == kTfLiteUInt8 || t == kTfLiteInt8 ||
                              t == kTfLiteInt32 || t == kTfLiteInt64,
                     "%s: type %s is not supported (float32, uint8, int8, int32, int64)", op,
                     TfLiteTypeGetName(t));
  if ((t == kTfLiteInt8 || t == kTfLiteUInt8) && block_size > 1 && !tff_numerics_ref(ctx))
    TF_LITE_ENSURE_OK(ctx, tff_move_same_quant(ctx, op, in, out, 1));
  return kTfLiteOk;
}

/* DEPTH_TO_SPACE (to_space) and its inverse SPACE_TO_DEPTH: `depth` is
 * [rows, w, bs·bs·chunk] bytes, `space` [rows, bs, w, bs·chunk] (rows = n·h,
 * h and w of the depth side); block dy of a depth pixel is its space pixels
 * in row dy. */
static inline void tff_move_space_depth(char* depth, char* space, size_t rows, size_t w, size_t bs,
                                        size_t chunk, int to_space) {
  const size_t run = bs * chunk;
  for (size_t r = 0; r < rows; ++r)
    for (size_t dy = 0; dy < bs; ++dy)
      for (size_t x = 0; x < w; ++x) {
        char* d = depth + ((r * w + x) * bs + dy) * run;
        char* s = space + ((r * bs + dy) * w + x) * run;
        memcpy(to_space ? s : d, to_space ? d : s, run);
      }
}

/* The cases a walk over dims need not see: an empty output (nothing to
 * write) and a scalar input (its one element). 1 when handled. */
static inline int tff_move_trivial(const TfLiteTensor* in, TfLiteTensor* out) {
  if (out->bytes != 0 && tff_rank(in) == 0) memcpy(out->data.raw, in->data.raw_const, out->bytes);
  return out->bytes == 0 || tff_rank(in) == 0;
}

/* run for ops that only reshape: output 0 = input 0, byte for byte. */
static inline TfLiteStatus tff_move_copy(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->data.raw != in->data.raw_const && out->bytes)
    memcpy(out->data.raw, in->data.raw_const, out->bytes);
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_MOVEMENT_COMMON_H_ */
