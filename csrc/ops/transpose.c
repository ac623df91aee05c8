/* TRANSPOSE: output dim i is input dim perm[i] (negative perm entries count
 * from the end), for every fixed-size type. Pure data movement, so both
 * numerics modes are the same; int8 keeps its codes whatever the
 * quantization (TFLite and XNNPACK alike).
 *
 * The permutation must hold its values at prepare (a model constant or a
 * value computed at prepare). TFLite checks only the range of perm; a
 * repeated axis would read out of bounds, so it is refused here.
 *
 * Prepare reduces the permutation: size-1 dims are dropped and input dims
 * that stay adjacent and in order in the output are merged. What remains is
 * a copy (one block), row copies (the last dim kept in place) or a strided
 * gather along the last output dim. */
#include "kernel_util.h"
#include "ops.h"

#define TRANSPOSE_MAX_DIMS 8

typedef struct OpData {
  int rank;                     /* of the reduced permutation, >= 1 */
  int shape[TRANSPOSE_MAX_DIMS];  /* output shape, reduced */
  size_t stride[TRANSPOSE_MAX_DIMS]; /* input element stride of each output dim */
  size_t elsize;
} OpData;

TFF_ZEROED_INIT(init, OpData)

/* Reduces (shape, perm) of the input to d: output dims with their input
 * strides, size-1 dims dropped, runs of consecutive input dims merged. */
static void reduce(int rank, const int* in_shape, const int* perm, OpData* d) {
  size_t in_stride[TRANSPOSE_MAX_DIMS];
  size_t s = 1;
  for (int i = rank - 1; i >= 0; --i) {
    in_stride[i] = s;
    s *= (size_t)in_shape[i];
  }
  /* kept[a]: position of input axis a among the axes of size > 1. */
  int kept[TRANSPOSE_MAX_DIMS], n = 0;
  for (int a = 0; a < rank; ++a) kept[a] = in_shape[a] == 1 ? -1 : n++;
  d->rank = 0;
  int prev = -2; /* kept position of the last output dim's input axis */
  for (int i = 0; i < rank; ++i) {
    const int a = perm[i];
    if (kept[a] < 0) continue;
    if (d->rank > 0 && kept[a] == prev + 1) {
      d->shape[d->rank - 1] *= in_shape[a];
      d->stride[d->rank - 1] = in_stride[a];
    } else {
      d->shape[d->rank] = in_shape[a];
      d->stride[d->rank] = in_stride[a];
      ++d->rank;
    }
    prev = kept[a];
  }
  if (d->rank == 0) {
    d->rank = 1;
    d->shape[0] = 1;
    d->stride[0] = 1;
  }
}

/* One row of the output: n elements `stride` apart in the input. */
#define GATHER_ROW(T)                                                   \
  static void gather_##T(const void* src, void* dst, size_t n, size_t stride) { \
    const T* x = (const T*)src;                                        \
    T* y = (T*)dst;                                                    \
    for (size_t i = 0; i < n; ++i) y[i] = x[i * stride];               \
  }
GATHER_ROW(uint8_t)
GATHER_ROW(uint16_t)
GATHER_ROW(uint32_t)
GATHER_ROW(uint64_t)
#undef GATHER_ROW

static void transpose(const OpData* d, const char* in, char* out) {
  const int last = d->rank - 1;
  const size_t es = d->elsize;
  if (d->stride[last] == 1 || d->rank == 1) {
    /* The last output dim is contiguous in the input: copy whole rows. */
    const size_t row = (size_t)d->shape[last] * es;
    size_t rows = 1;
    for (int i = 0; i < last; ++i) rows *= (size_t)d->shape[i];
    int idx[TRANSPOSE_MAX_DIMS] = {0};
    size_t at = 0;
    for (size_t r = 0; r < rows; ++r, out += row) {
      memcpy(out, in + at * es, row);
      for (int i = last - 1; i >= 0; --i) {
        at += d->stride[i];
        if (++idx[i] < d->shape[i]) break;
        at -= d->stride[i] * (size_t)d->shape[i];
        idx[i] = 0;
      }
    }
    return;
  }
  void (*gather)(const void*, void*, size_t, size_t) =
      es == 1 ? gather_uint8_t : es == 2 ? gather_uint16_t : es == 4 ? gather_uint32_t
                                                                      : gather_uint64_t;
  const size_t n = (size_t)d->shape[last];
  size_t rows = 1;
  for (int i = 0; i < last; ++i) rows *= (size_t)d->shape[i];
  int idx[TRANSPOSE_MAX_DIMS] = {0};
  size_t at = 0;
  for (size_t r = 0; r < rows; ++r, out += n * es) {
    gather(in + at * es, out, n, d->stride[last]);
    for (int i = last - 1; i >= 0; --i) {
      at += d->stride[i];
      if (++idx[i] < d->shape[i]) break;
      at -= d->stride[i] * (size_t)d->shape[i];
      idx[i] = 0;
    }
  }
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "TRANSPOSE: out of memory");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "TRANSPOSE: expected 2 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* perm = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && perm && out, "TRANSPOSE: an input or the output is missing");
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "TRANSPOSE: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  d->elsize = tff_type_size(in->type);
  TF_LITE_ENSURE_MSG(ctx, d->elsize == 1 || d->elsize == 2 || d->elsize == 4 || d->elsize == 8,
                     "TRANSPOSE: type %s is not supported", TfLiteTypeGetName(in->type));
  const int rank = tff_rank(in);
  TF_LITE_ENSURE_MSG(ctx, rank <= TRANSPOSE_MAX_DIMS,
                     "TRANSPOSE: input has %d dims, at most %d are supported", rank,
                     TRANSPOSE_MAX_DIMS);
  TF_LITE_ENSURE_MSG(ctx, perm->type == kTfLiteInt32, "TRANSPOSE: perm type %s, expected INT32",
                     TfLiteTypeGetName(perm->type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(perm) == 1 && tff_dim(perm, 0) == rank,
                     "TRANSPOSE: perm must be a vector of %d elements (the input rank)", rank);
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(perm),
                     "TRANSPOSE: perm tensor %d is not constant; dynamic shapes are not "
                     "supported yet", node->inputs->data[1]);
  int p[TRANSPOSE_MAX_DIMS], dims[TRANSPOSE_MAX_DIMS];
  unsigned seen = 0;
  for (int i = 0; i < rank; ++i) {
    int a = perm->data.i32[i];
    TF_LITE_ENSURE_MSG(ctx, a >= -rank && a < rank,
                       "TRANSPOSE: perm[%d] = %d is out of bounds for %d dims", i, a, rank);
    if (a < 0) a += rank;
    TF_LITE_ENSURE_MSG(ctx, !(seen & (1u << a)), "TRANSPOSE: perm repeats axis %d", a);
    seen |= 1u << a;
    p[i] = a;
    dims[i] = tff_dim(in, a);
  }
  reduce(rank, in->dims->data, p, d);
  if (!tff_inputs_constant(ctx, node)) return tff_resize_output(ctx, out, rank, dims);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, rank, dims));
  if (tff_num_elements(out->dims) > 0) transpose(d, in->data.raw_const, out->data.raw);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLitePersistentRo || tff_num_elements(out->dims) == 0) return kTfLiteOk;
  transpose((const OpData*)node->user_data, in->data.raw_const, out->data.raw);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_TRANSPOSE(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinTranspose,
                                       .version = 1};
  return &r;
}
