/* TOPK_V2 (TFLite topk_v2.cc): the k largest elements of each innermost row
 * and their indices, ordered by value descending, equal values by lower
 * index first, NaN below every number. Values float32, uint8, int8, int16,
 * int32, int64 (codes compare as they are); k one int32/int16 value (k <= 0
 * gives empty rows); indices int32 or int16. A constant k sizes the outputs
 * at prepare; else they are dynamic and sized at invoke. */
#include "ops.h"
#include "kernel_util.h"

#define TOPK_MAX_RANK 16

static int32_t read_k(const TfLiteTensor* t) {
  return t->type == kTfLiteInt16 ? (int32_t)t->data.i16[0] : t->data.i32[0];
}

/* Checks k against the input and sizes both outputs (resize as given). */
static TfLiteStatus size_outputs(TfLiteContext* ctx, const TfLiteNode* node,
                                 TfLiteStatus (*resize)(TfLiteContext*, TfLiteTensor*, int,
                                                        const int*)) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const int32_t k = read_k(tff_input(ctx, node, 1));
  const int rank = tff_rank(in);
  const int row = tff_dim(in, rank - 1);
  TF_LITE_ENSURE_MSG(ctx, k <= row, "TOPK_V2: k = %d is higher than the last dimension %d",
                     (int)k, row);
  const TfLiteTensor* idx = tff_output(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, idx->type == kTfLiteInt32 || k <= 0 || row <= INT16_MAX + 1,
                     "TOPK_V2: row size %d exceeds the int16 index range", row);
  int dims[TOPK_MAX_RANK];
  memcpy(dims, in->dims->data, sizeof(int) * (size_t)rank);
  dims[rank - 1] = k > 0 ? k : 0;
  TF_LITE_ENSURE_OK(ctx, resize(ctx, tff_output(ctx, node, 0), rank, dims));
  return resize(ctx, tff_output(ctx, node, 1), rank, dims);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 2);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* k = tff_input(ctx, node, 1);
  TfLiteTensor* values = tff_output(ctx, node, 0);
  TfLiteTensor* idx = tff_output(ctx, node, 1);
  TF_LITE_ENSURE(ctx, in != NULL && k != NULL && values != NULL && idx != NULL);
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, values->type);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteUInt8 ||
                              in->type == kTfLiteInt8 || in->type == kTfLiteInt16 ||
                              in->type == kTfLiteInt32 || in->type == kTfLiteInt64,
                     "TOPK_V2: type %s not supported", TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, k->type == kTfLiteInt32 || k->type == kTfLiteInt16,
                     "TOPK_V2: k type %s must be int32 or int16", TfLiteTypeGetName(k->type));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(k->dims) == 1, "TOPK_V2: k must hold one value");
  TF_LITE_ENSURE_MSG(ctx, idx->type == kTfLiteInt32 || idx->type == kTfLiteInt16,
                     "TOPK_V2: index type %s must be int32 or int16",
                     TfLiteTypeGetName(idx->type));
  const int rank = tff_rank(in);
  TF_LITE_ENSURE_MSG(ctx, rank >= 1 && rank <= TOPK_MAX_RANK,
                     "TOPK_V2: input rank %d is not in [1, %d]", rank, TOPK_MAX_RANK);
  /* The running top k of a row: at most the row's length. */
  TF_LITE_ENSURE_OK(ctx, tff_scratch_request(ctx, node, 0,
                                             sizeof(int32_t) * (size_t)tff_dim(in, rank - 1)));
  /* The request may move the tensors: fetch them again. */
  if (tff_is_constant(tff_input(ctx, node, 1))) return size_outputs(ctx, node, tff_resize_output);
  tff_output(ctx, node, 0)->allocation_type = kTfLiteDynamic;
  tff_output(ctx, node, 1)->allocation_type = kTfLiteDynamic;
  return kTfLiteOk;
}

/* Keeps top[0..*n) sorted best first: inserts c when it beats the last of k.
 * Equal values keep the earlier index first, as TFLite's comparator. */
#define TOPK_ROW(NAME, T, ISNAN)                                                          \
  static void NAME(const void* row_, int len, int k, int32_t* top) {                      \
    const T* v = (const T*)row_;                                                          \
    int n = 0;                                                                            \
    for (int c = 0; c < len; ++c) {                                                       \
      int at = n;                                                                         \
      while (at > 0) {                                                                    \
        const T p = v[top[at - 1]];                                                       \
        const int better = ISNAN(p) ? !ISNAN(v[c]) : (!ISNAN(v[c]) && v[c] > p);         \
        if (!better) break;                                                               \
        --at;                                                                             \
      }                                                                                   \
      if (at >= k) continue;                                                              \
      const int last = n < k ? n : k - 1;                                                 \
      memmove(top + at + 1, top + at, sizeof(int32_t) * (size_t)(last - at));             \
      top[at] = c;                                                                        \
      if (n < k) ++n;                                                                     \
    }                                                                                     \
  }
#define NEVER_NAN(x) ((void)(x), 0)
TOPK_ROW(top_f32, float, isnan)
TOPK_ROW(top_u8, uint8_t, NEVER_NAN)
TOPK_ROW(top_s8, int8_t, NEVER_NAN)
TOPK_ROW(top_s16, int16_t, NEVER_NAN)
TOPK_ROW(top_i32, int32_t, NEVER_NAN)
TOPK_ROW(top_i64, int64_t, NEVER_NAN)

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* values = tff_output(ctx, node, 0);
  TfLiteTensor* idx = tff_output(ctx, node, 1);
  if (values->allocation_type == kTfLiteDynamic) {
    TF_LITE_ENSURE_OK(ctx, size_outputs(ctx, node, tff_resize_dynamic));
  }
  const int k = read_k(tff_input(ctx, node, 1));
  const int len = tff_dim(in, tff_rank(in) - 1);
  if (k <= 0 || len == 0) return kTfLiteOk;
  const size_t rows = tff_num_elements(in->dims) / (size_t)len;
  const size_t elem = tff_type_size(in->type);
  int32_t* top = (int32_t*)tff_scratch(ctx, node, 0);
  for (size_t r = 0; r < rows; ++r) {
    const char* row = in->data.raw_const + r * (size_t)len * elem;
    switch (in->type) {
      case kTfLiteFloat32: top_f32(row, len, k, top); break;
      case kTfLiteUInt8: top_u8(row, len, k, top); break;
      case kTfLiteInt8: top_s8(row, len, k, top); break;
      case kTfLiteInt16: top_s16(row, len, k, top); break;
      case kTfLiteInt32: top_i32(row, len, k, top); break;
      default: top_i64(row, len, k, top); break;
    }
    for (int j = 0; j < k; ++j) {
      const size_t o = r * (size_t)k + (size_t)j;
      memcpy(values->data.raw + o * elem, row + (size_t)top[j] * elem, elem);
      if (idx->type == kTfLiteInt16) {
        idx->data.i16[o] = (int16_t)top[j];
      } else {
        idx->data.i32[o] = top[j];
      }
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_TOPK_V2(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinTopkV2,
                                       .version = 1};
  return &r;
}
