/* TransformTensorBilinear (MediaPipe transform_tensor_bilinear.cc, v2): crops
 * an affine-transformed window out of an image with bilinear sampling.
 *
 * Inputs: image [1,H,W,C] and a 4x4 row-major matrix M (float32, at least 8
 * values: only the first two rows are read). Output [1,OH,OW,C]: its shape is
 * the model's (MediaPipe's prepare does not size it; the flexbuffer options
 * only repeat OH and OW). Output pixel (x, y) samples the image at
 *   u = M00 x + M01 y + M03',  v = M10 x + M11 y + M13'
 * where M.3' = M.3 + (M.0 + M.1)/2 - 1/2 is v2's align-corners shift; a point
 * outside [0,W-1] x [0,H-1] gives 0, and the neighbour past the last
 * row / column (weight 0 there) reads as 0. The arithmetic keeps MediaPipe's
 * mix of float and double (C promotes exactly as C++ does). */
#include "mediapipe_ops.h"

#include <math.h>

#define OP "TransformTensorBilinear"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* m = tff_input(ctx, node, 1);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && m != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && out->type == kTfLiteFloat32,
                     OP ": image and output must be float32, got %s, %s",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_mp_check_matrix(ctx, m, OP));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4 && tff_rank(out) == 4,
                     OP ": image and output must be 4-D (NHWC), got ranks %d, %d", tff_rank(in),
                     tff_rank(out));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 0) == 1 && tff_dim(out, 0) == 1,
                     OP ": batch must be 1, got image %d, output %d", tff_dim(in, 0),
                     tff_dim(out, 0));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(out, 3) == tff_dim(in, 3),
                     OP ": output has %d channels, image %d", tff_dim(out, 3), tff_dim(in, 3));
  return kTfLiteOk;
}

/* Image value at (row, col), 0 outside. */
static float at(const float* img, int h, int w, int ch, int row, int col, int c) {
  if (row < 0 || col < 0 || row >= h || col >= w) return 0.0f;
  return img[((size_t)row * w + col) * ch + c];
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* mt = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const float* img = (const float*)in->data.data;
  const float* m = (const float*)mt->data.data;
  float* y = (float*)out->data.data;
  const int h = tff_dim(in, 1), w = tff_dim(in, 2), ch = tff_dim(in, 3);
  const int oh = tff_dim(out, 1), ow = tff_dim(out, 2);
  float xs[4] = {m[0], m[1], m[2], m[3]}, ys[4] = {m[4], m[5], m[6], m[7]};
  xs[3] += xs[0] * 0.5 + xs[1] * 0.5 - 0.5;
  ys[3] += ys[0] * 0.5 + ys[1] * 0.5 - 0.5;
  for (int oy = 0; oy < oh; ++oy) {
    for (int ox = 0; ox < ow; ++ox) {
      const float fx = (float)ox, fy = (float)oy;
      const float u = xs[0] * fx + xs[1] * fy + xs[2] * 0.0f + xs[3] * 1.0f;
      const float v = ys[0] * fx + ys[1] * fy + ys[2] * 0.0f + ys[3] * 1.0f;
      float* yp = y + ((size_t)oy * ow + ox) * ch;
      /* written so that NaN counts as outside */
      if (!(u >= 0.0f && u <= (float)(w - 1) && v >= 0.0f && v <= (float)(h - 1))) {
        for (int c = 0; c < ch; ++c) yp[c] = 0.0f;
        continue;
      }
      const float u0 = floorf(u), v0 = floorf(v);
      const int col = (int)u0, row = (int)v0;
      const float right = u - u0, lower = v - v0;
      for (int c = 0; c < ch; ++c) {
        const float q11 = at(img, h, w, ch, row, col, c);
        const float q21 = at(img, h, w, ch, row, col + 1, c);
        const float q12 = at(img, h, w, ch, row + 1, col, c);
        const float q22 = at(img, h, w, ch, row + 1, col + 1, c);
        const float top = (1.0 - right) * q11 + right * q21;
        const float bottom = (1.0 - right) * q12 + right * q22;
        yp[c] = lower * bottom + (1.0 - lower) * top;
      }
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_mp_transform_tensor_bilinear(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinCustom,
                                       .custom_name = OP,
                                       .version = 2};
  return &r;
}
