/* Landmarks2TransformMatrix (MediaPipe landmarks_to_transform_matrix.cc,
 * versions 1 and 2): the 4x4 matrix that maps an output crop, rotated and
 * sized to frame a subset of the landmarks, back into the input image.
 *
 * Input: float32 landmarks, read as a flat array of (x, y, z) triples
 * whatever the last dimension, as MediaPipe reads landmark i at 3 i. Output:
 * float32 [1,4,4], row major. Options: a FlexBuffer map; an absent key reads
 * as 0 (or an empty vector), as MediaPipe reads it.
 *  v2: 3-D landmarks. Options subset_idxs, left_rotation_idx,
 *      right_rotation_idx, target_rotation_radians, output_height,
 *      output_width, scale_x, scale_y. With L, R the rotation landmarks,
 *      r = target - atan2(yR - yL, xR - xL); the subset rotated by r spans a
 *      w x h box whose centre, rotated back, is c; the matrix is
 *      Shift(c) Rot(-r) Scale(scale_x w / ow, scale_y h / oh) Shift(-ow/2, -oh/2).
 *  v1: [1,1,1,C] landmarks. Options subset, left_rotation_idx,
 *      right_rotation_idx, dimensions (must be 3), landmarks_range (n),
 *      bbox_size_multiplier (k), input_hw and output_hw ([h, w] pairs).
 *      a = -atan((yR - yL) / (xR - xL)); the subset rotated by a spans a box
 *      (its bounds start at -+100000) of size k (w, h) and centre m; with
 *      m' = m rotated by -a the 3x3 matrix is
 *        [(iw-1)/2 0 (iw-1)/2; 0 (ih-1)/2 (ih-1)/2; 0 0 1]
 *        [Rot(-a) | 2 m'/n - 1] diag(k w / n, k h / n, 1)
 *        [2/(ow-1) 0 -1; 0 2/(oh-1) -1; 0 0 1],
 *      embedded in 4x4 with z passed through.
 * MediaPipe pairs the subset (an odd last index twice); both indices of a
 * pair enter the box, so the flat list is read. It checks its options at
 * invoke and reads indices unchecked: prepare checks them all here, indices
 * against the landmarks' size. The arithmetic keeps MediaPipe's order and its
 * float / double mix, so results agree to the rounding of the libm calls. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mediapipe_ops.h"

#define OP "Landmarks2TransformMatrix"

typedef struct OpData {
  int* subset; /* landmark indices of the box */
  size_t n_subset;
  int* hw; /* v1: input_hw or output_hw as read */
  int left, right;
  int out_h, out_w;
  float target_rotation, scale_x, scale_y; /* v2 */
  int in_h, in_w, range;                   /* v1 */
  float bbox_multiplier;                   /* v1 */
} OpData;

TFF_ZEROED_INIT(init, OpData)

static void free_data(TfLiteContext* ctx, void* p) {
  (void)ctx;
  if (p) {
    free(((OpData*)p)->subset);
    free(((OpData*)p)->hw);
  }
  free(p);
}

/* Index `value` of option `key` (element k of a vector when k >= 0) must
 * name a landmark whose first `reads` values lie among the n landmark values. */
static TfLiteStatus check_index(TfLiteContext* ctx, const char* key, long k, int value,
                                int reads, size_t n) {
  char name[64];
  if (k < 0) snprintf(name, sizeof(name), "%s", key);
  else snprintf(name, sizeof(name), "%s[%ld]", key, k);
  TF_LITE_ENSURE_MSG(ctx, value >= 0, OP ": option '%s' must be >= 0, got %d", name, value);
  TF_LITE_ENSURE_MSG(ctx, (uint64_t)value * 3 + (uint64_t)reads <= n,
                     OP ": option '%s' = %d is out of range: landmark i reads values 3i..3i+%d "
                        "of %zu",
                     name, value, reads - 1, n);
  return kTfLiteOk;
}

/* What both versions share: arity, rank, types, the [1,4,4] output, and the
 * options naming landmarks (`subset_key` and the rotation pair), each of
 * whose first `reads` values must exist. */
static TfLiteStatus prepare_common(TfLiteContext* ctx, TfLiteNode* node, int rank,
                                   const char* subset_key, int reads, tff_flex* opts) {
  static const int kOutShape[3] = {1, 4, 4};
  TF_LITE_ENSURE(ctx, node->user_data != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 1);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == rank,
                     OP ": landmarks must be %d-D (version %d); got rank %d", rank,
                     rank == 3 ? 2 : 1, tff_rank(in));
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 && out->type == kTfLiteFloat32,
                     OP ": landmarks and output must be float32, got %s, %s",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));

  double left, right;
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_options(ctx, node, OP, opts));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, opts, OP, "left_rotation_idx", 0, 1, &left));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, opts, OP, "right_rotation_idx", 0, 1, &right));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_ints(ctx, opts, OP, subset_key, &d->subset, &d->n_subset));
  d->left = (int)left;
  d->right = (int)right;
  const size_t n = tff_num_elements(in->dims);
  TF_LITE_ENSURE_OK(ctx, check_index(ctx, "left_rotation_idx", -1, d->left, reads, n));
  TF_LITE_ENSURE_OK(ctx, check_index(ctx, "right_rotation_idx", -1, d->right, reads, n));
  /* MediaPipe v2 would read the first landmark of an empty subset */
  TF_LITE_ENSURE_MSG(ctx, d->n_subset > 0, OP ": option '%s' is empty", subset_key);
  for (size_t i = 0; i < d->n_subset; ++i)
    TF_LITE_ENSURE_OK(ctx, check_index(ctx, subset_key, (long)i, d->subset[i], reads, n));
  return tff_resize_output(ctx, out, 3, kOutShape);
}

/* Option `key` of v1 as the pair (h, w), missing entries 0; both must be > 0. */
static TfLiteStatus hw_option(TfLiteContext* ctx, const tff_flex* opts, OpData* d,
                              const char* key, int* h, int* w) {
  size_t n;
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_ints(ctx, opts, OP, key, &d->hw, &n));
  *h = n > 0 ? d->hw[0] : 0;
  *w = n > 1 ? d->hw[1] : 0;
  TF_LITE_ENSURE_MSG(ctx, *h > 0 && *w > 0,
                     OP ": option '%s' must be [h, w] > 0, got h = %d w = %d", key, *h, *w);
  return kTfLiteOk;
}

static TfLiteStatus prepare_v1(TfLiteContext* ctx, TfLiteNode* node) {
  tff_flex opts;
  double dims, range, multiplier;
  TF_LITE_ENSURE_OK(ctx, prepare_common(ctx, node, 4, "subset", 2, &opts));
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  /* MediaPipe aborts (TFLITE_CHECK) on any other shape */
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 0) == 1 && tff_dim(in, 1) == 1 && tff_dim(in, 2) == 1,
                     OP ": version 1 landmarks must be [1,1,1,C], got [%d,%d,%d,%d]",
                     tff_dim(in, 0), tff_dim(in, 1), tff_dim(in, 2), tff_dim(in, 3));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "dimensions", 0, 1, &dims));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "landmarks_range", 0, 1, &range));
  TF_LITE_ENSURE_OK(
      ctx, tff_mp_flex_number(ctx, &opts, OP, "bbox_size_multiplier", 0, 0, &multiplier));
  TF_LITE_ENSURE_MSG(ctx, dims == 3, OP ": option dimensions must be 3, got %d", (int)dims);
  TF_LITE_ENSURE_MSG(ctx, range > 0, OP ": option landmarks_range must be > 0, got %d",
                     (int)range);
  d->range = (int)range;
  d->bbox_multiplier = (float)multiplier; /* MediaPipe reads it with AsFloat */
  TF_LITE_ENSURE_MSG(ctx, d->bbox_multiplier != 0.0f,
                     OP ": option bbox_size_multiplier must not be 0");
  TF_LITE_ENSURE_OK(ctx, hw_option(ctx, &opts, d, "input_hw", &d->in_h, &d->in_w));
  return hw_option(ctx, &opts, d, "output_hw", &d->out_h, &d->out_w);
}

static TfLiteStatus prepare_v2(TfLiteContext* ctx, TfLiteNode* node) {
  tff_flex opts;
  double target, oh, ow, sx, sy;
  TF_LITE_ENSURE_OK(ctx, prepare_common(ctx, node, 3, "subset_idxs", 3, &opts));
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_OK(
      ctx, tff_mp_flex_number(ctx, &opts, OP, "target_rotation_radians", 0, 0, &target));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "output_height", 0, 1, &oh));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "output_width", 0, 1, &ow));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "scale_x", 0, 0, &sx));
  TF_LITE_ENSURE_OK(ctx, tff_mp_flex_number(ctx, &opts, OP, "scale_y", 0, 0, &sy));
  d->target_rotation = (float)target; /* floats are read with AsFloat */
  d->out_h = (int)oh;
  d->out_w = (int)ow;
  d->scale_x = (float)sx;
  d->scale_y = (float)sy;
  TF_LITE_ENSURE_MSG(ctx, d->out_h > 0 && d->out_w > 0,
                     OP ": options output_height and output_width must be > 0, got %d, %d",
                     d->out_h, d->out_w);
  /* as MediaPipe: only <= 0 is refused (a NaN scale runs) */
  TF_LITE_ENSURE_MSG(ctx, !(d->scale_x <= 0.0f) && !(d->scale_y <= 0.0f),
                     OP ": options scale_x and scale_y must be > 0, got %g, %g", d->scale_x,
                     d->scale_y);
  return kTfLiteOk;
}

/* r = a b for n x n row-major matrices, each entry summed from 0 in float
 * over k, as MediaPipe's Mat3 / Mat4 products (r distinct from a and b). */
static void matmul(const float* a, const float* b, int n, float* r) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
      r[i * n + j] = sum;
    }
}

/* r = m v for a 3x3 matrix, summed as matmul. */
static void matvec3(const float* m, const float* v, float* r) {
  for (int i = 0; i < 3; ++i) {
    float sum = 0.0f;
    for (int k = 0; k < 3; ++k) sum += m[i * 3 + k] * v[k];
    r[i] = sum;
  }
}

/* Landmark idx as (x, y, 1) times the 3x3 `rotate`. */
static void rotated_landmark(const float* rotate, const float* p, int idx, float* w) {
  const float* q = p + 3 * (size_t)idx;
  const float v[3] = {q[0], q[1], 1.0f};
  matvec3(rotate, v, w);
}

/* (xR - xL, yR - yL) of the rotation pair, in float. */
static void rotation_delta(const OpData* d, const float* p, float* dx, float* dy) {
  const float* l = p + 3 * (size_t)d->left;
  const float* r = p + 3 * (size_t)d->right;
  *dx = r[0] - l[0];
  *dy = r[1] - l[1];
}

static TfLiteStatus invoke_v1(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const float* p = (const float*)tff_input(ctx, node, 0)->data.data;
  float dx, dy;
  rotation_delta(d, p, &dx, &dy);
  const float alpha = -atanf(dy / dx);
  /* MediaPipe calls the unqualified cos / sin on this float, which a
   * libstdc++ build (its Linux wheels) resolves to C's double functions: the
   * rotations below are in double, rounded to float once per coordinate.
   * libc++ (Android, Apple) has float overloads there; the two differ by
   * float rounding. */
  const double c = cos(alpha), s = sin(alpha);
  float hi_x = -100000.0f, hi_y = -100000.0f, lo_x = 100000.0f, lo_y = 100000.0f;
  for (size_t i = 0; i < d->n_subset; ++i) {
    const float* q = p + 3 * (size_t)d->subset[i];
    const float u = (float)(q[0] * c - q[1] * s), v = (float)(q[0] * s + q[1] * c);
    /* std::max / std::min: a NaN never replaces the bound */
    hi_x = hi_x < u ? u : hi_x;
    hi_y = hi_y < v ? v : hi_y;
    lo_x = u < lo_x ? u : lo_x;
    lo_y = v < lo_y ? v : lo_y;
  }
  const float range = (float)d->range;
  const float box_w = (hi_x - lo_x) * d->bbox_multiplier;
  const float box_h = (hi_y - lo_y) * d->bbox_multiplier;
  const float scale[9] = {box_w / range, 0, 0, 0, box_h / range, 0, 0, 0, 1};
  const float mid_x = (float)((hi_x + lo_x) / 2.0), mid_y = (float)((hi_y + lo_y) / 2.0);
  const double c2 = cos(-alpha), s2 = sin(-alpha);
  const float rmid_x = (float)(mid_x * c2 - mid_y * s2);
  const float rmid_y = (float)(mid_x * s2 + mid_y * c2);
  const float rotation[9] = {(float)c2, (float)-s2, (float)(rmid_x / range * 2.0 - 1.0),
                             (float)s2, (float)c2,  (float)(rmid_y / range * 2.0 - 1.0),
                             0,         0,          1};
  const float rel_x = (float)(2.0 / (d->out_w - 1.0)), rel_y = (float)(2.0 / (d->out_h - 1.0));
  const float to_relative[9] = {rel_x, 0, -1, 0, rel_y, -1, 0, 0, 1};
  const float abs_x = (float)((d->in_w - 1.0) / 2.0), abs_y = (float)((d->in_h - 1.0) / 2.0);
  const float to_absolute[9] = {abs_x, 0, abs_x, 0, abs_y, abs_y, 0, 0, 1};
  float t1[9], t2[9], m[9];
  matmul(to_absolute, rotation, 3, t1);
  matmul(t1, scale, 3, t2);
  matmul(t2, to_relative, 3, m);
  const float out[16] = {m[0], m[1], 0, m[2], m[3], m[4], 0, m[5],
                         m[6], m[7], m[8], 0, 0, 0, 0, 1};
  memcpy(tff_output(ctx, node, 0)->data.data, out, sizeof(out));
  return kTfLiteOk;
}

static TfLiteStatus invoke_v2(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const float* p = (const float*)tff_input(ctx, node, 0)->data.data;
  float dx, dy;
  rotation_delta(d, p, &dx, &dy);
  const float rad = d->target_rotation - atan2f(dy, dx);
  const float c = cosf(rad), s = sinf(rad), ci = cosf(-rad), si = sinf(-rad);
  const float rotate[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
  const float unrotate[9] = {ci, -si, 0, si, ci, 0, 0, 0, 1};
  float lo[3], hi[3], w[3];
  rotated_landmark(rotate, p, d->subset[0], lo);
  memcpy(hi, lo, sizeof(hi));
  for (size_t i = 1; i < d->n_subset; ++i) {
    rotated_landmark(rotate, p, d->subset[i], w);
    if (hi[0] < w[0]) hi[0] = w[0];
    if (hi[1] < w[1]) hi[1] = w[1];
    if (lo[0] > w[0]) lo[0] = w[0];
    if (lo[1] > w[1]) lo[1] = w[1];
  }
  const float crop_w = hi[0] - lo[0], crop_h = hi[1] - lo[1];
  /* MediaPipe rotates the minimum corner's (x, y, z) with x, y replaced */
  const float mid[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]};
  float centre[3];
  matvec3(unrotate, mid, centre);

  const float scale_x = d->scale_x * crop_w / (float)d->out_w;
  const float scale_y = d->scale_y * crop_h / (float)d->out_h;
  const float shift_x = (float)(-1.0 * (d->out_w / 2.0));
  const float shift_y = (float)(-1.0 * (d->out_h / 2.0));
  const float steps[4][16] = {
      {1, 0, 0, centre[0], 0, 1, 0, centre[1], 0, 0, 1, 0, 0, 0, 0, 1},
      {ci, -si, 0, 0, si, ci, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, /* Rot(-rad) */
      {scale_x, 0, 0, 0, 0, scale_y, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
      {1, 0, 0, shift_x, 0, 1, 0, shift_y, 0, 0, 1, 0, 0, 0, 0, 1}};
  /* from the identity, one product per step as MediaPipe's t *= step */
  float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, next[16];
  for (int k = 0; k < 4; ++k) {
    matmul(t, steps[k], 4, next);
    memcpy(t, next, sizeof(t));
  }
  memcpy(tff_output(ctx, node, 0)->data.data, t, sizeof(t));
  return kTfLiteOk;
}

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_landmarks_to_transform_matrix_v1, OP, 1,
                           init, free_data, prepare_v1, invoke_v1)

TFF_MEDIAPIPE_REGISTRATION(tff_register_mp_landmarks_to_transform_matrix, OP, 2,
                           init, free_data, prepare_v2, invoke_v2)
