/* MaxPoolingWithArgmax2D (MediaPipe max_pool_argmax.cc): MAX_POOL_2D on
 * float32 that also outputs, as float32, where each maximum sits in its
 * window: fy * filter_w + fx + 0.1 (the 0.1 makes the truncating float->int
 * conversion of MaxUnpooling2D exact). fy, fx count from the window origin,
 * padding included; the first maximum in row-major order wins, and a window
 * whose values never exceed -FLT_MAX reports index 0 with -FLT_MAX.
 *
 * Inputs: input [N,H,W,C]. Outputs: output and indices [N,OH,OW,C], sized as
 * MAX_POOL_2D. Options: TfLitePoolParams laid out raw (mediapipe_ops.h). */
#include "mediapipe_ops.h"

#include <float.h>

#define OP "MaxPoolingWithArgmax2D"

typedef tff_mp_pool OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 1);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 2);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TfLiteTensor* idx = tff_output(ctx, node, 1);
  TF_LITE_ENSURE(ctx, in != NULL && out != NULL && idx != NULL);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4, OP ": input must be 4-D (NHWC), got rank %d",
                     tff_rank(in));
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && out->type == kTfLiteFloat32 &&
                              idx->type == kTfLiteFloat32,
                     OP ": input, output and indices must be float32, got %s, %s, %s",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type),
                     TfLiteTypeGetName(idx->type));
  TfLitePoolParams p;
  TF_LITE_ENSURE_OK(ctx, tff_mp_pool_params(ctx, node, OP, &p, d));
  const int h = tff_dim(in, 1), w = tff_dim(in, 2);
  const int oh = tff_conv_out_size(p.padding, h, p.filter_height, p.stride_height, 1);
  const int ow = tff_conv_out_size(p.padding, w, p.filter_width, p.stride_width, 1);
  tff_mp_pool_pad(d, h, w, oh, ow);
  const int dims[4] = {tff_dim(in, 0), oh, ow, tff_dim(in, 3)};
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, 4, dims));
  return tff_resize_output(ctx, idx, 4, dims);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TfLiteTensor* idx = tff_output(ctx, node, 1);
  const float* x = (const float*)in->data.data;
  float* y = (float*)out->data.data;
  float* yi = (float*)idx->data.data;
  const int n = tff_dim(in, 0), h = tff_dim(in, 1), w = tff_dim(in, 2), ch = tff_dim(in, 3);
  const int oh = tff_dim(out, 1), ow = tff_dim(out, 2);
  for (int b = 0; b < n; ++b) {
    for (int oy = 0; oy < oh; ++oy) {
      const int y0 = oy * d->stride_h - d->pad_h;
      const int fy0 = y0 < 0 ? -y0 : 0;
      const int fy1 = h - y0 < d->filter_h ? h - y0 : d->filter_h;
      for (int ox = 0; ox < ow; ++ox) {
        const int x0 = ox * d->stride_w - d->pad_w;
        const int fx0 = x0 < 0 ? -x0 : 0;
        const int fx1 = w - x0 < d->filter_w ? w - x0 : d->filter_w;
        const size_t o = (((size_t)b * oh + oy) * ow + ox) * ch;
        for (int c = 0; c < ch; ++c) {
          float m = -FLT_MAX;
          int at = 0;
          for (int fy = fy0; fy < fy1; ++fy) {
            for (int fx = fx0; fx < fx1; ++fx) {
              const float v = x[(((size_t)b * h + y0 + fy) * w + x0 + fx) * ch + c];
              if (v > m) {
                m = v;
                at = fy * d->filter_w + fx;
              }
            }
          }
          y[o + c] = m < d->lo ? d->lo : (m > d->hi ? d->hi : m);
          yi[o + c] = (float)at + 0.1f;
        }
      }
    }
  }
  return kTfLiteOk;
}

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_max_pool_argmax, OP, 1,
                           init, tff_free_user_data, prepare, invoke)
