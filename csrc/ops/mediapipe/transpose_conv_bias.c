/* Convolution2DTransposeBias (MediaPipe transpose_conv_bias.cc): TFLite's
 * TRANSPOSE_CONV on float32 with a bias input and the output size derived
 * from the options instead of an output-shape tensor.
 *
 * Inputs: input [N,H,W,Cin], weights [Cout,KH,KW,Cin] (OHWI), bias [Cout].
 * Options: the first three fields of TfLiteTransposeConvParams (padding,
 * stride_width, stride_height); MediaPipe ignores any activation. The output
 * is [N, s*(H-1)+KH-P, s*(W-1)+KW-P, Cout] with the total padding
 * P = max(0, K - (in-1)%s - 1) under SAME (0 under VALID), P/2 before. */
#include "mediapipe_ops.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OP "Convolution2DTransposeBias"

typedef struct OpData {
  int pad_h, pad_w;       /* padding rows / columns before the first pixel */
  int stride_h, stride_w;
} OpData;

TFF_ZEROED_INIT(init, OpData)

/* Total SAME padding along one axis, as MediaPipe computes it. */
static int same_padding(int in, int filter, int stride) {
  const int p = filter - (in - 1) % stride - 1;
  return p > 0 ? p : 0;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 3);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* w = tff_input(ctx, node, 1);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && w != NULL && bias != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4 && tff_rank(w) == 4 && tff_rank(bias) == 1,
                     OP ": input, weights and bias must be 4-D, 4-D, 1-D; got ranks %d, %d, %d",
                     tff_rank(in), tff_rank(w), tff_rank(bias));
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && w->type == kTfLiteFloat32 &&
                              bias->type == kTfLiteFloat32 && out->type == kTfLiteFloat32,
                     OP ": only float32 is supported, got input %s", TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(w, 3) == tff_dim(in, 3),
                     OP ": weights take %d input channels, input has %d", tff_dim(w, 3),
                     tff_dim(in, 3));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(w, 0) == tff_dim(bias, 0),
                     OP ": weights have %d output channels, bias %d", tff_dim(w, 0),
                     tff_dim(bias, 0));
  TfLiteTransposeConvParams p;
  TF_LITE_ENSURE_OK(ctx, tff_mp_options(ctx, node, OP, &p,
                                        offsetof(TfLiteTransposeConvParams, activation)));
  TF_LITE_ENSURE_MSG(ctx, p.padding == kTfLitePaddingSame || p.padding == kTfLitePaddingValid,
                     OP ": unknown padding %d", (int)p.padding);
  TF_LITE_ENSURE_MSG(ctx, p.stride_height > 0 && p.stride_width > 0,
                     OP ": strides must be positive, got %dx%d", p.stride_height,
                     p.stride_width);
  const int kh = tff_dim(w, 1), kw = tff_dim(w, 2);
  const int ih = tff_dim(in, 1), iw = tff_dim(in, 2);
  TF_LITE_ENSURE_MSG(ctx, kh > 0 && kw > 0 && ih > 0 && iw > 0,
                     OP ": empty input %dx%d or filter %dx%d", ih, iw, kh, kw);
  const int same = p.padding == kTfLitePaddingSame;
  const int ph = same ? same_padding(ih, kh, p.stride_height) : 0;
  const int pw = same ? same_padding(iw, kw, p.stride_width) : 0;
  d->pad_h = ph / 2;
  d->pad_w = pw / 2;
  d->stride_h = p.stride_height;
  d->stride_w = p.stride_width;
  const long long oh = (long long)p.stride_height * (ih - 1) + kh - ph;
  const long long ow = (long long)p.stride_width * (iw - 1) + kw - pw;
  TF_LITE_ENSURE_MSG(ctx, oh <= INT32_MAX && ow <= INT32_MAX,
                     OP ": output %lldx%lld is too large", oh, ow);
  const int dims[4] = {tff_dim(in, 0), (int)oh, (int)ow, tff_dim(w, 0)};
  return tff_resize_output(ctx, out, 4, dims);
}

/* Scatter form, as MediaPipe's reference loop: each input pixel adds
 * in * w into the output pixels its filter window covers. */
static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* wt = tff_input(ctx, node, 1);
  const TfLiteTensor* bt = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const float* x = (const float*)in->data.data;
  const float* w = (const float*)wt->data.data;
  const float* bias = (const float*)bt->data.data;
  float* y = (float*)out->data.data;
  const int n = tff_dim(in, 0), ih = tff_dim(in, 1), iw = tff_dim(in, 2), ic = tff_dim(in, 3);
  const int kh = tff_dim(wt, 1), kw = tff_dim(wt, 2);
  const int oh = tff_dim(out, 1), ow = tff_dim(out, 2), oc = tff_dim(out, 3);
  const size_t ostride = (size_t)kh * kw * ic; /* weights: between output channels */
  for (int b = 0; b < n; ++b) {
    float* yb = y + (size_t)b * oh * ow * oc;
    for (int p = 0; p < oh * ow; ++p) memcpy(yb + (size_t)p * oc, bias, (size_t)oc * sizeof(float));
    for (int iy = 0; iy < ih; ++iy) {
      for (int ix = 0; ix < iw; ++ix) {
        const float* xp = x + (((size_t)b * ih + iy) * iw + ix) * ic;
        const int y0 = iy * d->stride_h - d->pad_h, x0 = ix * d->stride_w - d->pad_w;
        for (int c = 0; c < ic; ++c) {
          for (int fy = 0; fy < kh; ++fy) {
            const int oy = y0 + fy;
            if (oy < 0 || oy >= oh) continue;
            for (int fx = 0; fx < kw; ++fx) {
              const int ox = x0 + fx;
              if (ox < 0 || ox >= ow) continue;
              const float* wp = w + ((size_t)fy * kw + fx) * ic + c;
              float* yp = yb + ((size_t)oy * ow + ox) * oc;
              for (int o = 0; o < oc; ++o) yp[o] += xp[c] * wp[(size_t)o * ostride];
            }
          }
        }
      }
    }
  }
  return kTfLiteOk;
}

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_transpose_conv_bias, OP, 1,
                           init, tff_free_user_data, prepare, invoke)
