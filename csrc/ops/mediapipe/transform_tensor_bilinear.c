/* TransformTensorBilinear (MediaPipe transform_tensor_bilinear.cc, v2) and
 * its version 1, custom op "TransformTensor": crop an affine-transformed
 * window out of an image with bilinear sampling.
 *
 * Inputs: image [1,H,W,C] and a 4x4 row-major matrix M (float32, at least 8
 * values: only the first two rows are read). Output [1,OH,OW,C]: its shape is
 * the model's (MediaPipe's prepare does not size it; the options only repeat
 * OH and OW). Output pixel (x, y) samples the image at
 *   u = M00 x + M01 y + M03',  v = M10 x + M11 y + M13'
 * where, in v2, M.3' = M.3 + (M.0 + M.1)/2 - 1/2 is the align-corners shift
 * (v1 has none: M.3' = M.3); a point outside [0,W-1] x [0,H-1] gives 0, and
 * the neighbour past the last row / column (weight 0 there) reads as 0. The
 * arithmetic keeps MediaPipe's mix of float and double (C promotes exactly
 * as C++ does). v1's FlexBuffer option mode, when present, must be
 * "bilinear". */
#include "mediapipe_ops.h"

#include <math.h>

#define OP "TransformTensorBilinear"
#define OP_V1 "TransformTensor"

typedef struct OpData {
  int align_corners; /* v2's shift of the translation column */
} OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare_common(TfLiteContext* ctx, TfLiteNode* node, const char* op) {
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* m = tff_input(ctx, node, 1);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && m != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && out->type == kTfLiteFloat32,
                     "%s: image and output must be float32, got %s, %s", op,
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_mp_check_matrix(ctx, m, op));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4 && tff_rank(out) == 4,
                     "%s: image and output must be 4-D (NHWC), got ranks %d, %d", op, tff_rank(in),
                     tff_rank(out));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 0) == 1 && tff_dim(out, 0) == 1,
                     "%s: batch must be 1, got image %d, output %d", op, tff_dim(in, 0),
                     tff_dim(out, 0));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(out, 3) == tff_dim(in, 3),
                     "%s: output has %d channels, image %d", op, tff_dim(out, 3), tff_dim(in, 3));
  return kTfLiteOk;
}

static TfLiteStatus prepare_v2(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  d->align_corners = 1;
  return prepare_common(ctx, node, OP);
}

static TfLiteStatus prepare_v1(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  d->align_corners = 0;
  tff_flex opts, mode;
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_options(ctx, node, OP_V1, &opts));
  if (tff_flex_get(&opts, "mode", &mode)) {
    const char* s;
    size_t len;
    TF_LITE_ENSURE_MSG(ctx,
                       tff_flex_string(&mode, &s, &len) && len == 8 && !memcmp(s, "bilinear", 8),
                       OP_V1 ": only mode \"bilinear\" is supported");
  }
  return prepare_common(ctx, node, OP_V1);
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
  if (((const OpData*)node->user_data)->align_corners) {
    xs[3] += xs[0] * 0.5 + xs[1] * 0.5 - 0.5;
    ys[3] += ys[0] * 0.5 + ys[1] * 0.5 - 0.5;
  }
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

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_transform_tensor_v1, OP_V1, 1,
                           init, tff_free_user_data, prepare_v1, invoke)

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_transform_tensor_bilinear, OP, 2,
                           init, tff_free_user_data, prepare_v2, invoke)
