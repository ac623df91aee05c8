/* TransformLandmarks (MediaPipe transform_landmarks.cc, versions 1 and 2):
 * applies the affine part of a 4x4 matrix to 2-D or 3-D landmarks.
 *
 * Inputs: landmarks and a 4x4 row-major matrix M (float32, first two rows
 * read). Each landmark (x, y[, z]) becomes
 *   x' = M00 x + M01 y + M02 0 + t0,  y' = M10 x + M11 y + M12 0 + t1
 * in float32, left to right, with z copied.
 *  v2: landmarks [1,N,D], D = 2 or 3 coordinates; t = (M03, M13).
 *  v1: landmarks [1,H,W,C], C a multiple of D, each run of D values one
 *      landmark; FlexBuffer options dimensions (D, default 3) and scale
 *      (default 1, not 0): t = (M03 * scale, M13 * scale).
 * Output: the landmarks' shape. */
#include "mediapipe_ops.h"

#define OP "TransformLandmarks"

typedef struct OpData {
  int dims;    /* coordinates per landmark */
  float scale; /* of the translation column */
} OpData;

TFF_ZEROED_INIT(init, OpData)

/* What both versions check: node arity, types, the matrix, and the
 * landmarks' rank (3 for v2, 4 for v1) and batch. */
static TfLiteStatus prepare_common(TfLiteContext* ctx, TfLiteNode* node, int rank) {
  TF_LITE_ENSURE(ctx, node->user_data != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* m = tff_input(ctx, node, 1);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && m != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == rank,
                     OP ": landmarks must be %s (version %d); got rank %d",
                     rank == 3 ? "3-D [1,N,D]" : "4-D [1,H,W,C]", rank == 3 ? 2 : 1, tff_rank(in));
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && out->type == kTfLiteFloat32,
                     OP ": landmarks and output must be float32, got %s, %s",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_mp_check_matrix(ctx, m, OP));
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 0) == 1, OP ": batch must be 1, got %d", tff_dim(in, 0));
  return kTfLiteOk;
}

static TfLiteStatus prepare_v2(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, prepare_common(ctx, node, 3));
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 2) == 2 || tff_dim(in, 2) == 3,
                     OP ": landmarks must have 2 or 3 coordinates, got %d", tff_dim(in, 2));
  d->dims = tff_dim(in, 2);
  d->scale = 1.0f;
  return tff_resize_output(ctx, tff_output(ctx, node, 0), 3, in->dims->data);
}

static TfLiteStatus prepare_v1(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, prepare_common(ctx, node, 4));
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  tff_flex opts;
  double dims, scale;
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_options(ctx, node, OP, &opts));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "dimensions", 3, 1, &dims));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "scale", 1, 0, &scale));
  d->dims = (int)dims;
  d->scale = (float)scale; /* MediaPipe reads it with AsFloat */
  TF_LITE_ENSURE_MSG(ctx, d->dims == 2 || d->dims == 3,
                     OP ": option dimensions must be 2 or 3, got %d", d->dims);
  TF_LITE_ENSURE_MSG(ctx, d->scale != 0.0f, OP ": option scale must not be 0");
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 3) % d->dims == 0,
                     OP ": %d channels do not hold landmarks of %d coordinates", tff_dim(in, 3),
                     d->dims);
  return tff_resize_output(ctx, tff_output(ctx, node, 0), 4, in->dims->data);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* mt = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const float* p = (const float*)in->data.data;
  const float* m = (const float*)mt->data.data;
  float* y = (float*)out->data.data;
  const int dims = d->dims;
  const size_t n = tff_num_elements(in->dims) / (size_t)dims;
  const float t0 = m[3] * d->scale, t1 = m[7] * d->scale;
  for (size_t i = 0; i < n; ++i, p += dims, y += dims) {
    const float x0 = p[0], y0 = p[1];
    y[0] = m[0] * x0 + m[1] * y0 + m[2] * 0.0f + t0 * 1.0f;
    y[1] = m[4] * x0 + m[5] * y0 + m[6] * 0.0f + t1 * 1.0f;
    if (dims == 3) y[2] = p[2];
  }
  return kTfLiteOk;
}

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_transform_landmarks_v1, OP, 1,
                           init, tff_free_user_data, prepare_v1, invoke)

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_transform_landmarks, OP, 2,
                           init, tff_free_user_data, prepare_v2, invoke)
