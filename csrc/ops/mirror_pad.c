/* MIRROR_PAD: each dim padded with its own mirror image, REFLECT (the edge
 * element not repeated, pads <= dim − 1) or SYMMETRIC (repeated, pads <=
 * dim). paddings is an int32 or int64 [rank, 2] tensor of (before, after)
 * counts; computed paddings give a dynamic output (movement_common.h). Every
 * fixed-size type; int8/uint8/int16 keep the input's quantization. */
#include "movement_common.h"
#include "ops.h"

/* 1 for REFLECT: the mirror axis is the edge element itself. */
static int offset_of(const TfLiteNode* node) {
  const TfLiteMirrorPaddingParams* p = (const TfLiteMirrorPaddingParams*)node->builtin_data;
  return p->mode == kTfLiteMirrorPaddingReflect;
}

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* pads = tff_input(ctx, node, 1);
  const int offset = offset_of(node);
  *rank = tff_rank(in);
  for (int d = 0; d < *rank; ++d) {
    const int64_t l = tff_index_at(pads, 2 * d), r = tff_index_at(pads, 2 * d + 1);
    const int64_t dim = in->dims->data[d], most = dim - offset;
    TF_LITE_ENSURE_MSG(ctx, l >= 0 && r >= 0 && l <= most && r <= most,
                       "MIRROR_PAD: paddings (%lld, %lld) of dim %d (size %lld) must be in "
                       "[0, %lld]", (long long)l, (long long)r, d, (long long)dim,
                       (long long)most);
    dims[d] = (int)(dim + l + r);
  }
  return kTfLiteOk;
}

/* Input index of output index j along a dim of n elements padded by l before. */
static int source(int j, int l, int n, int offset) {
  if (j < l) return l - 1 - j + offset;
  j -= l;
  return j < n ? j : 2 * n - 1 - offset - j;
}

static void pad(const TfLiteTensor* in, const TfLiteTensor* pads, const int* out_dims, int offset,
                int d, size_t es, const char* src, char** dst) {
  const int rank = tff_rank(in), n = in->dims->data[d];
  const int l = (int)tff_index_at(pads, 2 * d);
  size_t stride = es;
  for (int k = d + 1; k < rank; ++k) stride *= (size_t)in->dims->data[k];
  if (d == rank - 1) {
    for (int j = 0; j < out_dims[d]; ++j) {
      if (j == l) { /* the input row itself */
        memcpy(*dst, src, (size_t)n * es);
        *dst += (size_t)n * es;
        j += n - 1;
        continue;
      }
      memcpy(*dst, src + (size_t)source(j, l, n, offset) * es, es);
      *dst += es;
    }
    return;
  }
  for (int j = 0; j < out_dims[d]; ++j)
    pad(in, pads, out_dims, offset, d + 1, es, src + (size_t)source(j, l, n, offset) * stride, dst);
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (tff_move_trivial(in, out)) return kTfLiteOk;
  char* dst = out->data.raw;
  pad(in, tff_input(ctx, node, 1), out->dims->data, offset_of(node), 0, tff_type_size(in->type),
      in->data.raw_const, &dst);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteMirrorPaddingParams* p = (const TfLiteMirrorPaddingParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL && (p->mode == kTfLiteMirrorPaddingReflect ||
                                        p->mode == kTfLiteMirrorPaddingSymmetric),
                     "MIRROR_PAD: mode must be REFLECT or SYMMETRIC");
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "MIRROR_PAD", 2));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* pads = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_OK(ctx, tff_move_same_quant(ctx, "MIRROR_PAD", in, tff_output(ctx, node, 0), 1));
  TF_LITE_ENSURE_MSG(ctx, pads->type == kTfLiteInt32 || pads->type == kTfLiteInt64,
                     "MIRROR_PAD: paddings type %s is not supported (int32, int64)",
                     TfLiteTypeGetName(pads->type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(pads) == 2 && tff_dim(pads, 0) == tff_rank(in) &&
                              tff_dim(pads, 1) == 2,
                     "MIRROR_PAD: paddings must have shape [%d, 2]", tff_rank(in));
  return tff_move_prepare(ctx, node, tff_is_constant(pads), shape, run);
}

TFF_MOVE_REGISTRATION(MIRROR_PAD, kTfLiteBuiltinMirrorPad, shape, run)
