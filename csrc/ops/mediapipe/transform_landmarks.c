/* TransformLandmarks (MediaPipe transform_landmarks.cc, v2): applies the
 * affine part of a 4x4 matrix to 2-D or 3-D landmarks.
 *
 * Inputs: landmarks [1,N,D] with D = 2 (x, y) or 3 (x, y, z), and a 4x4
 * row-major matrix M (float32, first two rows read). Output: [1,N,D] with
 *   x' = M00 x + M01 y + M02 0 + M03,  y' = M10 x + M11 y + M12 0 + M13
 * in float32 and z copied. v1 (4-D landmarks with flexbuffer options
 * dimensions / scale) is not implemented: prepare says so. */
#include "mediapipe_ops.h"

#define OP "TransformLandmarks"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* m = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && m != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && out->type == kTfLiteFloat32,
                     OP ": landmarks and output must be float32, got %s, %s",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_mp_check_matrix(ctx, m, OP));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 3,
                     OP ": landmarks must be 3-D [1,N,D] (version 2); got rank %d%s", tff_rank(in),
                     tff_rank(in) == 4 ? " (version 1 is not supported)" : "");
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 0) == 1, OP ": batch must be 1, got %d", tff_dim(in, 0));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 2) == 2 || tff_dim(in, 2) == 3,
                     OP ": landmarks must have 2 or 3 coordinates, got %d", tff_dim(in, 2));
  return tff_resize_output(ctx, out, 3, in->dims->data);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* mt = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const float* p = (const float*)in->data.data;
  const float* m = (const float*)mt->data.data;
  float* y = (float*)out->data.data;
  const int n = tff_dim(in, 1), dims = tff_dim(in, 2);
  for (int i = 0; i < n; ++i, p += dims, y += dims) {
    const float x0 = p[0], y0 = p[1];
    y[0] = m[0] * x0 + m[1] * y0 + m[2] * 0.0f + m[3] * 1.0f;
    y[1] = m[4] * x0 + m[5] * y0 + m[6] * 0.0f + m[7] * 1.0f;
    if (dims == 3) y[2] = p[2];
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_mp_transform_landmarks(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinCustom,
                                       .custom_name = OP,
                                       .version = 2};
  return &r;
}
