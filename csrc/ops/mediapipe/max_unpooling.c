/* MaxUnpooling2D (MediaPipe max_unpooling.cc): the inverse of
 * MaxPoolingWithArgmax2D. The output, [N, H*filter_h, W*filter_w, C], is
 * zero except that each input value goes where its index (float32,
 * truncated: fy * filter_w + fx) points inside the window of its pixel; a
 * later input pixel (row-major) overwrites an earlier one. Padding is that
 * of a pool from the output size to the input size. The activation option
 * is ignored, as in MediaPipe.
 *
 * Indices are data, not model: one that is not a finite in-window value or
 * that points outside the output is skipped (MediaPipe writes out of bounds).
 *
 * Inputs: input and indices [N,H,W,C]. Options: TfLitePoolParams laid out raw. */
#include "mediapipe_ops.h"

#include <stdint.h>
#include <string.h>

#define OP "MaxUnpooling2D"

typedef tff_mp_pool OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* idx = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && idx != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4 && tff_rank(idx) == 4,
                     OP ": input and indices must be 4-D (NHWC), got ranks %d, %d", tff_rank(in),
                     tff_rank(idx));
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && idx->type == kTfLiteFloat32 &&
                              out->type == kTfLiteFloat32,
                     OP ": input, indices and output must be float32, got %s, %s, %s",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(idx->type),
                     TfLiteTypeGetName(out->type));
  for (int i = 0; i < 4; ++i)
    TF_LITE_ENSURE_MSG(ctx, tff_dim(in, i) == tff_dim(idx, i),
                       OP ": indices dim %d is %d, input's %d", i, tff_dim(idx, i), tff_dim(in, i));
  TfLitePoolParams p;
  TF_LITE_ENSURE_OK(ctx, tff_mp_pool_params(ctx, node, OP, &p, d));
  const int h = tff_dim(in, 1), w = tff_dim(in, 2);
  const long long oh = (long long)h * p.filter_height, ow = (long long)w * p.filter_width;
  /* the pool geometry: (in-1)*stride + filter must fit in int too */
  const long long sh = (long long)(h - 1) * p.stride_height + p.filter_height;
  const long long sw = (long long)(w - 1) * p.stride_width + p.filter_width;
  TF_LITE_ENSURE_MSG(ctx, oh <= INT32_MAX && ow <= INT32_MAX && sh <= INT32_MAX && sw <= INT32_MAX,
                     OP ": output %lldx%lld is too large", oh, ow);
  tff_mp_pool_pad(d, (int)oh, (int)ow, h, w);
  const int dims[4] = {tff_dim(in, 0), (int)oh, (int)ow, tff_dim(in, 3)};
  return tff_resize_output(ctx, out, 4, dims);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* it = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const float* x = (const float*)in->data.data;
  const float* xi = (const float*)it->data.data;
  float* y = (float*)out->data.data;
  const int n = tff_dim(in, 0), h = tff_dim(in, 1), w = tff_dim(in, 2), ch = tff_dim(in, 3);
  const int oh = tff_dim(out, 1), ow = tff_dim(out, 2);
  const float window = (float)(d->filter_h * d->filter_w);
  memset(y, 0, out->bytes);
  for (int b = 0; b < n; ++b) {
    for (int iy = 0; iy < h; ++iy) {
      for (int ix = 0; ix < w; ++ix) {
        const size_t i = (((size_t)b * h + iy) * w + ix) * ch;
        for (int c = 0; c < ch; ++c) {
          if (!(xi[i + c] >= 0.0f && xi[i + c] < window)) continue;
          const int k = (int)xi[i + c];
          const int oy = iy * d->stride_h - d->pad_h + k / d->filter_w;
          const int ox = ix * d->stride_w - d->pad_w + k % d->filter_w;
          if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
          y[(((size_t)b * oh + oy) * ow + ox) * ch + c] = x[i + c];
        }
      }
    }
  }
  return kTfLiteOk;
}

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_max_unpooling, OP, 1,
                           init, tff_free_user_data, prepare, invoke)
