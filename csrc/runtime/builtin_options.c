/* Builtin operator options -> the TfLite*Params struct of node->builtin_data,
 * filled as TFLite's flatbuffer_conversions.cc fills it:
 *  - the params are zeroed first; when the options table is absent, or the
 *    union holds another options type, the op keeps those zeros (TFLite's
 *    legacy behaviour, so e.g. CONV_2D without options has stride 0 and the
 *    kernel's prepare must reject it);
 *  - a present table gives schema defaults for absent fields (dilation 1,
 *    pot_scale_int16 true, ...);
 *  - ops without a params struct get NULL.
 * Differences, all on files TFLite would misread: enum values the schema
 * does not define are errors (TFLite maps unknown activations to NONE and
 * unknown paddings to UNKNOWN), and StableHLO arrays longer than their fixed
 * capacity are errors (TFLite copies past the end).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb.h"
#include "model.h"
#include "tflite_fast/builtin_op_data.h"
#include "tflite_fast/builtin_ops.h"

/* BuiltinOptions union members used here (schema order, NONE = 0). */
enum {
  kOptConv2D = 1,
  kOptDepthwiseConv2D = 2,
  kOptLSHProjection = 4,
  kOptPool2D = 5,
  kOptSVDF = 6,
  kOptRNN = 7,
  kOptFullyConnected = 8,
  kOptSoftmax = 9,
  kOptConcatenation = 10,
  kOptAdd = 11,
  kOptL2Norm = 12,
  kOptLocalResponseNormalization = 13,
  kOptLSTM = 14,
  kOptResizeBilinear = 15,
  kOptReshape = 17,
  kOptSkipGram = 18,
  kOptSpaceToDepth = 19,
  kOptEmbeddingLookupSparse = 20,
  kOptMul = 21,
  kOptGather = 23,
  kOptReducer = 27,
  kOptSub = 28,
  kOptDiv = 29,
  kOptSqueeze = 30,
  kOptSequenceRNN = 31,
  kOptStridedSlice = 32,
  kOptSplit = 35,
  kOptCast = 37,
  kOptArgMax = 40,
  kOptTransposeConv = 49,
  kOptSparseToDense = 50,
  kOptShape = 55,
  kOptArgMin = 57,
  kOptFakeQuant = 58,
  kOptPack = 59,
  kOptOneHot = 61,
  kOptUnpack = 64,
  kOptBidirectionalSequenceLSTM = 69,
  kOptBidirectionalSequenceRNN = 70,
  kOptUnidirectionalSequenceLSTM = 71,
  kOptResizeNearestNeighbor = 74,
  kOptLeakyRelu = 75,
  kOptMirrorPad = 77,
  kOptSplitV = 79,
  kOptUnique = 80,
  kOptReverseSequence = 87,
  kOptIf = 92,
  kOptWhile = 93,
  kOptDepthToSpace = 94,
  kOptBatchMatMul = 101,
  kOptCumsum = 102,
  kOptCallOnce = 103,
  kOptConv3D = 106,
  kOptHashtable = 107,
  kOptVarHandle = 111,
  kOptRandom = 114,
  kOptBucketize = 115,
  kOptGelu = 116,
};

/* BuiltinOptions2 union members (ops with code >= STABLEHLO_LOGISTIC). */
enum {
  kOpt2StablehloScatter = 7,
  kOpt2StablehloPad = 10,
  kOpt2StablehloReduceWindow = 13,
  kOpt2StablehloGather = 16,
  kOpt2StablehloRngBitGenerator = 19,
  kOpt2ReduceWindow = 20,
  kOpt2StablehloComposite = 21,
  kOpt2StablehloCase = 23,
};

/* Schema TensorType values needed by name. */
enum { kSchemaInt32 = 2, kSchemaInt64 = 4 };

typedef struct popt {
  tff_fb fb;
  const char* op;   /* op name for messages */
  int type;         /* union type the caller found */
  size_t table;     /* its table offset, 0 = absent */
  tff_fb_table t;   /* the options table once loaded, pos 0 = absent */
  tff_status st;    /* first error wins */
  char* err;
  size_t err_size;
} popt;

static void fail(popt* o, tff_status st, const char* fmt, ...) {
  if (o->st != TFF_OK) return;
  o->st = st;
  if (o->err == NULL || o->err_size == 0) return;
  int n = snprintf(o->err, o->err_size, "%s: ", o->op);
  if (n < 0 || (size_t)n >= o->err_size) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->err + n, o->err_size - (size_t)n, fmt, ap);
  va_end(ap);
}

static void* alloc(popt* o, size_t bytes) {
  void* p = calloc(1, bytes);
  if (p == NULL) fail(o, TFF_STATUS_OUT_OF_MEMORY, "out of memory for its parameters");
  return p;
}

/* Loads the options table when the union holds `type`. */
static bool has(popt* o, int type) {
  o->t.pos = 0;
  if (o->type != type || o->table == 0) return false;
  if (!tff_fb_table_at(&o->fb, o->table, &o->t)) {
    fail(o, TFF_STATUS_INVALID_MODEL, "options table: %s", o->fb.why);
    o->t.pos = 0;
    return false;
  }
  return true;
}

static void field_fail(popt* o, int id) {
  fail(o, TFF_STATUS_INVALID_MODEL, "options field %d: %s", id, o->fb.why);
}

static int32_t i32(popt* o, int id, int32_t def) {
  int32_t v = def;
  if (!tff_fb_i32(&o->fb, &o->t, id, def, &v)) field_fail(o, id);
  return v;
}

static int64_t i64(popt* o, int id) {
  int64_t v = 0;
  if (!tff_fb_i64(&o->fb, &o->t, id, 0, &v)) field_fail(o, id);
  return v;
}

static int8_t i8(popt* o, int id, int8_t def) {
  int8_t v = def;
  if (!tff_fb_i8(&o->fb, &o->t, id, def, &v)) field_fail(o, id);
  return v;
}

static bool flag(popt* o, int id, bool def) {
  bool v = def;
  if (!tff_fb_bool(&o->fb, &o->t, id, def, &v)) field_fail(o, id);
  return v;
}

static float f32(popt* o, int id) {
  float v = 0.0f;
  if (!tff_fb_f32(&o->fb, &o->t, id, 0.0f, &v)) field_fail(o, id);
  return v;
}

/* Low 32 bits as a signed int, as C++'s implicit int64 -> int conversion. */
static int trunc32(int64_t v) {
  const uint32_t u = (uint32_t)v;
  int32_t s;
  memcpy(&s, &u, sizeof(s));
  return s;
}

/* Schema ActivationFunctionType NONE..SIGN_BIT has TfLite's numbering. */
static TfLiteFusedActivation act(popt* o, int id) {
  const int8_t v = i8(o, id, 0);
  if (v < 0 || v > 5) {
    fail(o, TFF_STATUS_INVALID_MODEL, "unknown fused activation function %d", v);
    return kTfLiteActNone;
  }
  return (TfLiteFusedActivation)v;
}

/* Schema Padding SAME = 0, VALID = 1; TfLite's enum has UNKNOWN = 0 first. */
static TfLitePadding pad(popt* o, int id) {
  const int8_t v = i8(o, id, 0);
  if (v == 0) return kTfLitePaddingSame;
  if (v == 1) return kTfLitePaddingValid;
  fail(o, TFF_STATUS_INVALID_MODEL, "unknown padding %d", v);
  return kTfLitePaddingUnknown;
}

static TfLiteType dtype(popt* o, int id, int8_t def, const char* what) {
  const int8_t v = i8(o, id, def);
  TfLiteType t = kTfLiteNoType;
  if (!tff_schema_tensor_type(v, &t))
    fail(o, TFF_STATUS_INVALID_MODEL, "unsupported data type %d in %s", v, what);
  return t;
}

/* An int vector option copied into a fixed array of `cap` entries. Returns
 * its length, or -1 when absent (and `required` is false). */
static int ivec(popt* o, int id, size_t elem, void* dst, int cap, bool required,
                const char* what) {
  tff_fb_vec v;
  if (!tff_fb_vector(&o->fb, &o->t, id, elem, &v)) {
    field_fail(o, id);
    return -1;
  }
  if (v.pos == 0) {
    if (required) fail(o, TFF_STATUS_INVALID_MODEL, "'%s' is required", what);
    return -1;
  }
  if (v.len > (uint32_t)cap) {
    fail(o, TFF_STATUS_INVALID_MODEL, "'%s' has %u entries, at most %d are supported", what,
         v.len, cap);
    return -1;
  }
  for (uint32_t i = 0; i < v.len; ++i) {
    if (elem == 4)
      ((int32_t*)dst)[i] = tff_fb_vec_i32(&o->fb, &v, i);
    else
      ((int64_t*)dst)[i] = tff_fb_vec_i64(&o->fb, &v, i);
  }
  return (int)v.len;
}

/* ---- one function per params struct ---- */

static void* conv_2d(popt* o) {
  TfLiteConvParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptConv2D)) {
    p->padding = pad(o, 0);
    p->stride_width = i32(o, 1, 0);
    p->stride_height = i32(o, 2, 0);
    p->activation = act(o, 3);
    p->dilation_width_factor = i32(o, 4, 1);
    p->dilation_height_factor = i32(o, 5, 1);
    p->quantized_bias_type = dtype(o, 6, 0, "quantized_bias_type");
  }
  return p;
}

static void* conv_3d(popt* o) {
  TfLiteConv3DParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptConv3D)) {
    p->padding = pad(o, 0);
    p->stride_depth = i32(o, 1, 0);
    p->stride_width = i32(o, 2, 0);
    p->stride_height = i32(o, 3, 0);
    p->activation = act(o, 4);
    p->dilation_depth_factor = i32(o, 5, 1);
    p->dilation_width_factor = i32(o, 6, 1);
    p->dilation_height_factor = i32(o, 7, 1);
  }
  return p;
}

static void* depthwise_conv_2d(popt* o) {
  TfLiteDepthwiseConvParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptDepthwiseConv2D)) {
    p->padding = pad(o, 0);
    p->stride_width = i32(o, 1, 0);
    p->stride_height = i32(o, 2, 0);
    p->depth_multiplier = i32(o, 3, 0);
    p->activation = act(o, 4);
    p->dilation_width_factor = i32(o, 5, 1);
    p->dilation_height_factor = i32(o, 6, 1);
  }
  return p;
}

static void* transpose_conv(popt* o) {
  TfLiteTransposeConvParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptTransposeConv)) {
    p->padding = pad(o, 0);
    p->stride_width = i32(o, 1, 0);
    p->stride_height = i32(o, 2, 0);
    p->activation = act(o, 3);
    p->quantized_bias_type = dtype(o, 4, 0, "quantized_bias_type");
  }
  return p;
}

static void* pool_2d(popt* o) {
  TfLitePoolParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptPool2D)) {
    p->padding = pad(o, 0);
    p->stride_width = i32(o, 1, 0);
    p->stride_height = i32(o, 2, 0);
    p->filter_width = i32(o, 3, 0);
    p->filter_height = i32(o, 4, 0);
    p->activation = act(o, 5);
  }
  return p;
}

static void* fully_connected(popt* o) {
  TfLiteFullyConnectedParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptFullyConnected)) {
    p->activation = act(o, 0);
    const int8_t format = i8(o, 1, 0);
    if (format == 0)
      p->weights_format = kTfLiteFullyConnectedWeightsFormatDefault;
    else if (format == 1)
      p->weights_format = kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8;
    else
      fail(o, TFF_STATUS_INVALID_MODEL, "unhandled weights format %d", format);
    p->keep_num_dims = flag(o, 2, false);
    p->asymmetric_quantize_inputs = flag(o, 3, false);
    p->quantized_bias_type = dtype(o, 4, 0, "quantized_bias_type");
  }
  return p;
}

static void* add(popt* o) {
  TfLiteAddParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptAdd)) {
    p->activation = act(o, 0);
    p->pot_scale_int16 = flag(o, 1, true);
  }
  return p;
}

static void* sub(popt* o) {
  TfLiteSubParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSub)) {
    p->activation = act(o, 0);
    p->pot_scale_int16 = flag(o, 1, true);
  }
  return p;
}

static void* mul(popt* o) {
  TfLiteMulParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptMul)) p->activation = act(o, 0);
  return p;
}

static void* div_(popt* o) {
  TfLiteDivParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptDiv)) p->activation = act(o, 0);
  return p;
}

static void* l2_norm(popt* o) {
  TfLiteL2NormParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptL2Norm)) p->activation = act(o, 0);
  return p;
}

static void* concatenation(popt* o) {
  TfLiteConcatenationParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptConcatenation)) {
    p->axis = i32(o, 0, 0);
    p->activation = act(o, 1);
  }
  return p;
}

static void* softmax(popt* o) {
  TfLiteSoftmaxParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSoftmax)) p->beta = f32(o, 0);
  return p;
}

static void* reshape(popt* o) {
  TfLiteReshapeParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptReshape)) {
    const int n = ivec(o, 0, 4, p->shape, TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT, false,
                       "new_shape");
    if (n >= 0) p->num_dimensions = n;
  }
  return p;
}

static void* squeeze(popt* o) {
  TfLiteSqueezeParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSqueeze)) {
    const int n = ivec(o, 0, 4, p->squeeze_dims, 8, false, "squeeze_dims");
    p->num_squeeze_dims = n > 0 ? n : 0;
  }
  return p;
}

static void* reducer(popt* o) {
  TfLiteReducerParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptReducer)) p->keep_dims = flag(o, 0, false);
  return p;
}

static void* strided_slice(popt* o) {
  TfLiteStridedSliceParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptStridedSlice)) {
    p->begin_mask = i32(o, 0, 0);
    p->end_mask = i32(o, 1, 0);
    p->ellipsis_mask = i32(o, 2, 0);
    p->new_axis_mask = i32(o, 3, 0);
    p->shrink_axis_mask = i32(o, 4, 0);
    p->offset = flag(o, 5, false);
  }
  return p;
}

static void* pack(popt* o) {
  TfLitePackParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptPack)) {
    p->values_count = i32(o, 0, 0);
    p->axis = i32(o, 1, 0);
  }
  return p;
}

static void* unpack(popt* o) {
  TfLiteUnpackParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptUnpack)) {
    p->num = i32(o, 0, 0);
    p->axis = i32(o, 1, 0);
  }
  return p;
}

static void* split(popt* o) {
  TfLiteSplitParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSplit)) p->num_splits = i32(o, 0, 0);
  return p;
}

static void* split_v(popt* o) {
  TfLiteSplitVParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSplitV)) p->num_splits = i32(o, 0, 0);
  return p;
}

static void* gather(popt* o) {
  TfLiteGatherParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptGather)) {
    p->axis = i32(o, 0, 0);
    p->batch_dims = i32(o, 1, 0);
  }
  return p;
}

static void* shape(popt* o) {
  TfLiteShapeParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptShape)) p->out_type = dtype(o, 0, 0, "out_type");
  return p;
}

static void* cast(popt* o) {
  TfLiteCastParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptCast)) {
    p->in_data_type = dtype(o, 0, 0, "in_data_type");
    p->out_data_type = dtype(o, 1, 0, "out_data_type");
  }
  return p;
}

static void* arg_max(popt* o) {
  TfLiteArgMaxParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptArgMax)) p->output_type = dtype(o, 0, 0, "output_type");
  return p;
}

static void* arg_min(popt* o) {
  TfLiteArgMinParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptArgMin)) p->output_type = dtype(o, 0, 0, "output_type");
  return p;
}

static void* resize_bilinear(popt* o) {
  TfLiteResizeBilinearParams* p = alloc(o, sizeof(*p));
  /* Fields 0 and 1 (new_height, new_width) are deprecated. */
  if (p && has(o, kOptResizeBilinear)) {
    p->align_corners = flag(o, 2, false);
    p->half_pixel_centers = flag(o, 3, false);
  }
  return p;
}

static void* resize_nearest_neighbor(popt* o) {
  TfLiteResizeNearestNeighborParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptResizeNearestNeighbor)) {
    p->align_corners = flag(o, 0, false);
    p->half_pixel_centers = flag(o, 1, false);
  }
  return p;
}

static void* leaky_relu(popt* o) {
  TfLiteLeakyReluParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptLeakyRelu)) p->alpha = f32(o, 0);
  return p;
}

static void* mirror_pad(popt* o) {
  TfLiteMirrorPaddingParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptMirrorPad)) {
    const int8_t mode = i8(o, 0, 0);
    if (mode == 0)
      p->mode = kTfLiteMirrorPaddingReflect;
    else if (mode == 1)
      p->mode = kTfLiteMirrorPaddingSymmetric;
    else
      fail(o, TFF_STATUS_INVALID_MODEL, "unknown mirror pad mode %d", mode);
  }
  return p;
}

static void* depth_to_space(popt* o) {
  TfLiteDepthToSpaceParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptDepthToSpace)) p->block_size = i32(o, 0, 0);
  return p;
}

static void* space_to_depth(popt* o) {
  TfLiteSpaceToDepthParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSpaceToDepth)) p->block_size = i32(o, 0, 0);
  return p;
}

static void* local_response_norm(popt* o) {
  TfLiteLocalResponseNormParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptLocalResponseNormalization)) {
    p->radius = i32(o, 0, 0);
    p->bias = f32(o, 1);
    p->alpha = f32(o, 2);
    p->beta = f32(o, 3);
  }
  return p;
}

/* LSTM is the one classic op whose options TFLite requires. */
static void* lstm(popt* o) {
  TfLiteLSTMParams* p = alloc(o, sizeof(*p));
  if (p == NULL) return NULL;
  if (!has(o, kOptLSTM)) {
    fail(o, TFF_STATUS_INVALID_MODEL, "no valid LSTM builtin options exist");
    return p;
  }
  p->activation = act(o, 0);
  p->cell_clip = f32(o, 1);
  p->proj_clip = f32(o, 2);
  const int8_t kernel = i8(o, 3, 0);
  if (kernel == 0)
    p->kernel_type = kTfLiteLSTMFullKernel;
  else if (kernel == 1)
    p->kernel_type = kTfLiteLSTMBasicKernel;
  else
    fail(o, TFF_STATUS_INVALID_MODEL, "unhandled LSTM kernel type %d", kernel);
  p->asymmetric_quantize_inputs = flag(o, 4, false);
  return p;
}

static void* unidirectional_sequence_lstm(popt* o) {
  TfLiteUnidirectionalSequenceLSTMParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptUnidirectionalSequenceLSTM)) {
    p->activation = act(o, 0);
    p->cell_clip = f32(o, 1);
    p->proj_clip = f32(o, 2);
    p->time_major = flag(o, 3, false);
    p->asymmetric_quantize_inputs = flag(o, 4, false);
    p->diagonal_recurrent_tensors = flag(o, 5, false);
  }
  return p;
}

static void* bidirectional_sequence_lstm(popt* o) {
  TfLiteBidirectionalSequenceLSTMParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptBidirectionalSequenceLSTM)) {
    p->activation = act(o, 0);
    p->cell_clip = f32(o, 1);
    p->proj_clip = f32(o, 2);
    p->merge_outputs = flag(o, 3, false);
    p->time_major = flag(o, 4, true);
    p->asymmetric_quantize_inputs = flag(o, 5, false);
  }
  return p;
}

static void* rnn(popt* o) {
  TfLiteRNNParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptRNN)) {
    p->activation = act(o, 0);
    p->asymmetric_quantize_inputs = flag(o, 1, false);
  }
  return p;
}

static void* sequence_rnn(popt* o) {
  TfLiteSequenceRNNParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSequenceRNN)) {
    p->time_major = flag(o, 0, false);
    p->activation = act(o, 1);
    p->asymmetric_quantize_inputs = flag(o, 2, false);
  }
  return p;
}

static void* bidirectional_sequence_rnn(popt* o) {
  TfLiteBidirectionalSequenceRNNParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptBidirectionalSequenceRNN)) {
    p->time_major = flag(o, 0, false);
    p->activation = act(o, 1);
    p->merge_outputs = flag(o, 2, false);
    p->asymmetric_quantize_inputs = flag(o, 3, false);
  }
  return p;
}

static void* svdf(popt* o) {
  TfLiteSVDFParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSVDF)) {
    p->rank = i32(o, 0, 0);
    p->activation = act(o, 1);
    p->asymmetric_quantize_inputs = flag(o, 2, false);
  }
  return p;
}

static void* lsh_projection(popt* o) {
  TfLiteLSHProjectionParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptLSHProjection)) {
    /* Schema UNKNOWN/SPARSE/DENSE = 0/1/2, as TfLite's enum. */
    const int8_t type = i8(o, 0, 0);
    if (type < 0 || type > 2)
      fail(o, TFF_STATUS_INVALID_MODEL, "unknown LSH projection type %d", type);
    else
      p->type = (TfLiteLSHProjectionType)type;
  }
  return p;
}

static void* embedding_lookup_sparse(popt* o) {
  TfLiteEmbeddingLookupSparseParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptEmbeddingLookupSparse)) {
    /* Schema SUM/MEAN/SQRTN = 0/1/2, as TfLite's enum. */
    const int8_t combiner = i8(o, 0, 0);
    if (combiner < 0 || combiner > 2)
      fail(o, TFF_STATUS_INVALID_MODEL, "unknown combiner %d", combiner);
    else
      p->combiner = (TfLiteCombinerType)combiner;
  }
  return p;
}

static void* skip_gram(popt* o) {
  TfLiteSkipGramParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSkipGram)) {
    p->ngram_size = i32(o, 0, 0);
    p->max_skip_size = i32(o, 1, 0);
    p->include_all_ngrams = flag(o, 2, false);
  }
  return p;
}

static void* sparse_to_dense(popt* o) {
  TfLiteSparseToDenseParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptSparseToDense)) p->validate_indices = flag(o, 0, false);
  return p;
}

static void* fake_quant(popt* o) {
  TfLiteFakeQuantParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptFakeQuant)) {
    p->min = f32(o, 0);
    p->max = f32(o, 1);
    p->num_bits = i32(o, 2, 0);
    p->narrow_range = flag(o, 3, false);
  }
  return p;
}

static void* one_hot(popt* o) {
  TfLiteOneHotParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptOneHot)) p->axis = i32(o, 0, 0);
  return p;
}

static void* unique(popt* o) {
  TfLiteUniqueParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptUnique)) {
    /* TFLite: INT64 selects int64 indices, any other type int32. */
    const TfLiteType t = dtype(o, 0, kSchemaInt32, "idx_out_type");
    p->index_out_type = t == kTfLiteInt64 ? kTfLiteInt64 : kTfLiteInt32;
  }
  return p;
}

static void* reverse_sequence(popt* o) {
  TfLiteReverseSequenceParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptReverseSequence)) {
    p->seq_dim = i32(o, 0, 0);
    p->batch_dim = i32(o, 1, 0);
  }
  return p;
}

static void* if_(popt* o) {
  TfLiteIfParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptIf)) {
    p->then_subgraph_index = i32(o, 0, 0);
    p->else_subgraph_index = i32(o, 1, 0);
  }
  return p;
}

static void* while_(popt* o) {
  TfLiteWhileParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptWhile)) {
    p->cond_subgraph_index = i32(o, 0, 0);
    p->body_subgraph_index = i32(o, 1, 0);
  }
  return p;
}

static void* call_once(popt* o) {
  TfLiteCallOnceParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptCallOnce)) p->init_subgraph_index = i32(o, 0, 0);
  return p;
}

static void* batch_matmul(popt* o) {
  TfLiteBatchMatMulParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptBatchMatMul)) {
    p->adj_x = flag(o, 0, false);
    p->adj_y = flag(o, 1, false);
    p->asymmetric_quantize_inputs = flag(o, 2, false);
  }
  return p;
}

static void* cumsum(popt* o) {
  TfLiteCumsumParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptCumsum)) {
    p->exclusive = flag(o, 0, false);
    p->reverse = flag(o, 1, false);
  }
  return p;
}

static void* hashtable(popt* o) {
  TfLiteHashtableParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptHashtable)) {
    p->table_id = i32(o, 0, 0);
    p->key_dtype = dtype(o, 1, 0, "key_dtype");
    p->value_dtype = dtype(o, 2, 0, "value_dtype");
  }
  return p;
}

/* Strings are verified NUL-terminated, so the params may point at them. */
static const char* string_opt(popt* o, int id) {
  const char* s = NULL;
  uint32_t len;
  if (!tff_fb_string(&o->fb, &o->t, id, &s, &len)) field_fail(o, id);
  return s;
}

static void* var_handle(popt* o) {
  TfLiteVarHandleParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptVarHandle)) {
    p->container = string_opt(o, 0);
    p->shared_name = string_opt(o, 1);
  }
  return p;
}

static void* random_(popt* o) {
  TfLiteRandomParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptRandom)) {
    p->seed = trunc32(i64(o, 0));
    p->seed2 = trunc32(i64(o, 1));
  }
  return p;
}

/* boundaries points into the model; misaligned floats get a copy placed
 * after the params struct, so one free() releases both. */
static void* bucketize(popt* o) {
  tff_fb_vec v = {0, 0};
  if (has(o, kOptBucketize)) {
    if (!tff_fb_vector(&o->fb, &o->t, 0, 4, &v)) {
      field_fail(o, 0);
      return NULL;
    }
    if (v.pos == 0) {
      fail(o, TFF_STATUS_INVALID_MODEL, "boundaries array not provided");
      return NULL;
    }
  }
  const uint8_t* data = tff_fb_vec_data(&o->fb, &v);
  const bool aligned = ((uintptr_t)data % _Alignof(float)) == 0;
  const size_t extra = aligned ? 0 : (size_t)v.len * sizeof(float);
  TfLiteBucketizeParams* p = alloc(o, sizeof(*p) + extra);
  if (p == NULL || v.pos == 0) return p;
  p->num_boundaries = (int)v.len;
  if (aligned) {
    p->boundaries = (const float*)(const void*)data;
  } else {
    float* copy = (float*)(void*)(p + 1);
    memcpy(copy, data, extra);
    p->boundaries = copy;
  }
  return p;
}

static void* gelu(popt* o) {
  TfLiteGeluParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOptGelu)) p->approximate = flag(o, 0, false);
  return p;
}

/* ---- StableHLO (BuiltinOptions2) ---- */

static void* stablehlo_scatter(popt* o) {
  TfLiteStablehloScatterParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOpt2StablehloScatter)) {
    const int cap = TFLITE_STABLEHLO_SCATTER_PARAMS_MAX_DIMENSION_COUNT;
    p->indices_are_sorted = flag(o, 0, false);
    int n = ivec(o, 1, 8, p->update_window_dims, cap, false, "update_window_dims");
    if (n >= 0) p->num_update_window_dims = n;
    n = ivec(o, 2, 8, p->inserted_window_dims, cap, false, "inserted_window_dims");
    if (n >= 0) p->num_inserted_window_dims = n;
    n = ivec(o, 3, 8, p->scatter_dims_to_operand_dims, cap, false,
             "scatter_dims_to_operand_dims");
    if (n >= 0) p->num_scatter_dims_to_operand_dims = n;
    p->index_vector_dim = i64(o, 4);
    p->unique_indices = flag(o, 5, false);
    p->update_computation_subgraph_index = i32(o, 6, 0);
  }
  return p;
}

static void* stablehlo_gather(popt* o) {
  TfLiteStablehloGatherParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOpt2StablehloGather)) {
    const int cap = TFLITE_STABLEHLO_GATHER_PARAMS_MAX_DIMENSION_COUNT;
    int n = ivec(o, 0, 8, p->offset_dims, cap, false, "offset_dims");
    if (n >= 0) p->num_offset_dims = n;
    n = ivec(o, 1, 8, p->collapsed_slice_dims, cap, false, "collapsed_slice_dims");
    if (n >= 0) p->num_collapsed_slice_dims = n;
    n = ivec(o, 2, 8, p->start_index_map, cap, false, "start_index_map");
    if (n >= 0) p->num_start_index_map = n;
    p->index_vector_dim = i64(o, 3);
    n = ivec(o, 4, 8, p->slice_sizes, cap, false, "slice_sizes");
    if (n >= 0) p->num_slice_sizes = n;
    p->indices_are_sorted = flag(o, 5, false);
  }
  return p;
}

static void* stablehlo_rng_bit_generator(popt* o) {
  TfLiteStablehloRngBitGeneratorParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOpt2StablehloRngBitGenerator)) {
    /* Schema DEFAULT/PHILOX/THREEFRY = 0/1/2; TfLite's enum has UNKNOWN first. */
    const int8_t algorithm = i8(o, 0, 0);
    if (algorithm < 0 || algorithm > 2)
      fail(o, TFF_STATUS_INVALID_MODEL, "unknown RNG algorithm %d", algorithm);
    else
      p->algorithm = (TfLiteRngAlgorithm)(algorithm + 1);
  }
  return p;
}

/* One reduce_window attribute: `rank` entries, or `fill` everywhere when
 * absent or empty. */
static void window_attr(popt* o, int id, int64_t* dst, int cap, int rank, int64_t fill,
                        const char* what) {
  tff_fb_vec v;
  if (!tff_fb_vector(&o->fb, &o->t, id, 8, &v)) {
    field_fail(o, id);
    return;
  }
  if (v.len == 0) {
    for (int i = 0; i < cap; ++i) dst[i] = fill;
    return;
  }
  if (v.len != (uint32_t)rank) {
    fail(o, TFF_STATUS_INVALID_MODEL, "'%s' has %u entries, expected %d", what, v.len, rank);
    return;
  }
  for (uint32_t i = 0; i < v.len; ++i) dst[i] = tff_fb_vec_i64(&o->fb, &v, i);
}

static void* stablehlo_reduce_window(popt* o) {
  TfLiteStablehloReduceWindowParams* p = alloc(o, sizeof(*p));
  if (p == NULL) return NULL;
  if (!has(o, kOpt2StablehloReduceWindow)) {
    fail(o, TFF_STATUS_INVALID_MODEL, "could not get its operation parameters");
    return p;
  }
  const int cap = TFLITE_STABLEHLO_REDUCE_WINDOW_PARAMS_MAX_DIMENSION_COUNT;
  tff_fb_vec dims;
  if (!tff_fb_vector(&o->fb, &o->t, 0, 8, &dims)) {
    field_fail(o, 0);
    return p;
  }
  if (dims.len == 0 || dims.len > (uint32_t)cap) {
    fail(o, TFF_STATUS_INVALID_MODEL, "'window_dimensions' must have 1 to %d entries, has %u",
         cap, dims.len);
    return p;
  }
  const int rank = (int)dims.len;
  window_attr(o, 0, p->window_dimensions, cap, rank, 1, "window_dimensions");
  window_attr(o, 1, p->window_strides, cap, rank, 1, "window_strides");
  window_attr(o, 2, p->base_dilations, cap, rank, 1, "base_dilations");
  window_attr(o, 3, p->window_dilations, cap, rank, 1, "window_dilations");
  window_attr(o, 4, p->padding, 2 * cap, 2 * rank, 0, "padding");
  p->body_subgraph_index = i32(o, 5, 0);
  return p;
}

static void* reduce_window(popt* o) {
  TfLiteReduceWindowParams* p = alloc(o, sizeof(*p));
  if (p && has(o, kOpt2ReduceWindow)) {
    /* Schema ADD..ANY = 1..6 as TfLite's enum; UNSUPPORTED (0) is an error. */
    const int32_t f = i32(o, 0, 0);
    if (f < 1 || f > 6)
      fail(o, TFF_STATUS_INVALID_MODEL, "unsupported reduce function %d", f);
    else
      p->reduce_function = (enum TfLiteReduceWindowFunction)f;
  }
  return p;
}

static void* stablehlo_pad(popt* o) {
  TfLiteStablehloPadParams* p = alloc(o, sizeof(*p));
  if (p == NULL) return NULL;
  if (!has(o, kOpt2StablehloPad)) {
    fail(o, TFF_STATUS_INVALID_MODEL, "could not get its operation parameters");
    return p;
  }
  const int cap = TFLITE_STABLEHLO_PAD_PARAMS_MAX_DIMENSION_COUNT;
  const int lo = ivec(o, 0, 8, p->edge_padding_low, cap, true, "edge_padding_low");
  const int hi = ivec(o, 1, 8, p->edge_padding_high, cap, true, "edge_padding_high");
  const int in = ivec(o, 2, 8, p->interior_padding, cap, true, "interior_padding");
  if (lo != hi || lo != in)
    fail(o, TFF_STATUS_INVALID_MODEL, "parameter array sizes are not consistent");
  return p;
}

static void* stablehlo_composite(popt* o) {
  TfLiteStablehloCompositeParams* p = alloc(o, sizeof(*p));
  if (p == NULL) return NULL;
  if (!has(o, kOpt2StablehloComposite)) {
    fail(o, TFF_STATUS_INVALID_MODEL, "could not get its operation parameters");
    return p;
  }
  p->name = string_opt(o, 0);
  p->subgraph_index = i32(o, 1, 0);
  tff_fb_vec attrs;
  if (!tff_fb_vector(&o->fb, &o->t, 2, 1, &attrs)) field_fail(o, 2);
  p->version = i32(o, 4, 0);
  if (o->st != TFF_OK) return p;
  if (p->name == NULL)
    fail(o, TFF_STATUS_INVALID_MODEL, "missing required option 'name'");
  else if (attrs.pos == 0)
    fail(o, TFF_STATUS_INVALID_MODEL, "missing required option 'composite_attributes'");
  else {
    p->attributes = tff_fb_vec_data(&o->fb, &attrs);
    p->attributes_size = attrs.len;
  }
  return p;
}

static void* stablehlo_case(popt* o) {
  TfLiteStablehloCaseParams* p = alloc(o, sizeof(*p));
  if (p == NULL) return NULL;
  if (!has(o, kOpt2StablehloCase)) {
    fail(o, TFF_STATUS_INVALID_MODEL, "could not get its operation parameters");
    return p;
  }
  const int n = ivec(o, 0, 4, p->branch_subgraph_indices,
                     TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT, true,
                     "branch_subgraph_indices");
  if (n >= 0) p->num_branches = (uint32_t)n;
  return p;
}

/* The params parser of a builtin code, NULL for ops without params. */
typedef void* (*parse_fn)(popt*);

static parse_fn parser_for(int code) {
  switch (code) {
    case kTfLiteBuiltinAdd: return add;
    case kTfLiteBuiltinSub: return sub;
    case kTfLiteBuiltinMul: return mul;
    case kTfLiteBuiltinDiv: return div_;
    case kTfLiteBuiltinAveragePool2d:
    case kTfLiteBuiltinMaxPool2d:
    case kTfLiteBuiltinL2Pool2d: return pool_2d;
    case kTfLiteBuiltinConv2d: return conv_2d;
    case kTfLiteBuiltinConv3d:
    case kTfLiteBuiltinConv3dTranspose: return conv_3d;
    case kTfLiteBuiltinDepthwiseConv2d: return depthwise_conv_2d;
    case kTfLiteBuiltinTransposeConv: return transpose_conv;
    case kTfLiteBuiltinFullyConnected: return fully_connected;
    case kTfLiteBuiltinConcatenation: return concatenation;
    case kTfLiteBuiltinSoftmax: return softmax;
    case kTfLiteBuiltinL2Normalization: return l2_norm;
    case kTfLiteBuiltinLocalResponseNormalization: return local_response_norm;
    case kTfLiteBuiltinReshape: return reshape;
    case kTfLiteBuiltinSqueeze: return squeeze;
    case kTfLiteBuiltinMean:
    case kTfLiteBuiltinSum:
    case kTfLiteBuiltinReduceProd:
    case kTfLiteBuiltinReduceMax:
    case kTfLiteBuiltinReduceMin:
    case kTfLiteBuiltinReduceAny:
    case kTfLiteBuiltinReduceAll: return reducer;
    case kTfLiteBuiltinStridedSlice: return strided_slice;
    case kTfLiteBuiltinPack: return pack;
    case kTfLiteBuiltinUnpack: return unpack;
    case kTfLiteBuiltinSplit: return split;
    case kTfLiteBuiltinSplitV: return split_v;
    case kTfLiteBuiltinGather: return gather;
    case kTfLiteBuiltinShape: return shape;
    case kTfLiteBuiltinCast: return cast;
    case kTfLiteBuiltinArgMax: return arg_max;
    case kTfLiteBuiltinArgMin: return arg_min;
    case kTfLiteBuiltinResizeBilinear: return resize_bilinear;
    case kTfLiteBuiltinResizeNearestNeighbor: return resize_nearest_neighbor;
    case kTfLiteBuiltinLeakyRelu: return leaky_relu;
    case kTfLiteBuiltinMirrorPad: return mirror_pad;
    case kTfLiteBuiltinDepthToSpace: return depth_to_space;
    case kTfLiteBuiltinSpaceToDepth: return space_to_depth;
    case kTfLiteBuiltinLstm: return lstm;
    case kTfLiteBuiltinUnidirectionalSequenceLstm: return unidirectional_sequence_lstm;
    case kTfLiteBuiltinBidirectionalSequenceLstm: return bidirectional_sequence_lstm;
    case kTfLiteBuiltinRnn: return rnn;
    case kTfLiteBuiltinUnidirectionalSequenceRnn: return sequence_rnn;
    case kTfLiteBuiltinBidirectionalSequenceRnn: return bidirectional_sequence_rnn;
    case kTfLiteBuiltinSvdf: return svdf;
    case kTfLiteBuiltinLshProjection: return lsh_projection;
    case kTfLiteBuiltinEmbeddingLookupSparse: return embedding_lookup_sparse;
    case kTfLiteBuiltinSkipGram: return skip_gram;
    case kTfLiteBuiltinSparseToDense: return sparse_to_dense;
    case kTfLiteBuiltinFakeQuant: return fake_quant;
    case kTfLiteBuiltinOneHot: return one_hot;
    case kTfLiteBuiltinUnique: return unique;
    case kTfLiteBuiltinReverseSequence: return reverse_sequence;
    case kTfLiteBuiltinIf: return if_;
    case kTfLiteBuiltinWhile: return while_;
    case kTfLiteBuiltinCallOnce: return call_once;
    case kTfLiteBuiltinBatchMatmul: return batch_matmul;
    case kTfLiteBuiltinCumsum: return cumsum;
    case kTfLiteBuiltinHashtable: return hashtable;
    case kTfLiteBuiltinVarHandle: return var_handle;
    case kTfLiteBuiltinMultinomial:
    case kTfLiteBuiltinRandomStandardNormal:
    case kTfLiteBuiltinRandomUniform: return random_;
    case kTfLiteBuiltinBucketize: return bucketize;
    case kTfLiteBuiltinGelu: return gelu;
    case kTfLiteBuiltinStablehloScatter: return stablehlo_scatter;
    case kTfLiteBuiltinStablehloGather: return stablehlo_gather;
    case kTfLiteBuiltinStablehloRngBitGenerator: return stablehlo_rng_bit_generator;
    case kTfLiteBuiltinStablehloReduceWindow: return stablehlo_reduce_window;
    case kTfLiteBuiltinReduceWindow: return reduce_window;
    case kTfLiteBuiltinStablehloPad: return stablehlo_pad;
    case kTfLiteBuiltinStablehloComposite: return stablehlo_composite;
    case kTfLiteBuiltinStablehloCase: return stablehlo_case;
    default: return NULL;
  }
}

tff_status tff_parse_builtin_options(int builtin_code, int options_type,
                                     const uint8_t* buf, size_t size,
                                     size_t table_offset, void** params,
                                     char* err, size_t err_size) {
  popt o;
  memset(&o, 0, sizeof(o));
  tff_fb_init(&o.fb, buf, size);
  o.type = options_type;
  o.table = table_offset;
  o.err = err;
  o.err_size = err_size;
  o.st = TFF_OK;
  *params = NULL;
  const char* name = tff_builtin_name(builtin_code);
  o.op = name ? name : "UNKNOWN";
  if (name == NULL) {
    fail(&o, TFF_STATUS_INVALID_MODEL, "unknown builtin operator code %d", builtin_code);
    return o.st;
  }
  if (builtin_code == kTfLiteBuiltinDelegate ||
      builtin_code == kTfLiteBuiltinPlaceholderForGreaterOpCodes) {
    fail(&o, TFF_STATUS_INVALID_MODEL, "this op shouldn't exist in a model");
    return o.st;
  }
  const parse_fn parse = parser_for(builtin_code);
  if (parse == NULL) return TFF_OK;
  void* p = parse(&o);
  if (o.st != TFF_OK) {
    free(p);
    return o.st;
  }
  *params = p;
  return TFF_OK;
}
