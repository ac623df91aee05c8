#include "mediapipe_ops.h"

#include <float.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

const TfLiteRegistration* tff_mediapipe_registration(const char* name, int version) {
#define TFF_MEDIAPIPE_OP(n, v, fn) \
  if (name && strcmp(name, n) == 0 && (v == 0 || v == version)) return fn();
#include "mediapipe_list.h"
#undef TFF_MEDIAPIPE_OP
  return NULL;
}

TfLiteStatus tff_mp_options(TfLiteContext* ctx, const TfLiteNode* node, const char* op,
                            void* dst, size_t bytes) {
  memset(dst, 0, bytes);
  const size_t have = node->custom_initial_data ? (size_t)node->custom_initial_data_size : 0;
  TF_LITE_ENSURE_MSG(ctx, have >= bytes, "%s: custom options hold %zu bytes, need %zu", op,
                     have, bytes);
  memcpy(dst, node->custom_initial_data, bytes);
  return kTfLiteOk;
}

TfLiteStatus tff_mp_pool_params(TfLiteContext* ctx, const TfLiteNode* node, const char* op,
                                TfLitePoolParams* p, tff_mp_pool* g) {
  memset(p, 0, sizeof(*p));
  TF_LITE_ENSURE_OK(ctx, tff_mp_options(ctx, node, op, p, offsetof(TfLitePoolParams, computed)));
  TF_LITE_ENSURE_MSG(ctx, p->padding == kTfLitePaddingSame || p->padding == kTfLitePaddingValid,
                     "%s: unknown padding %d", op, (int)p->padding);
  TF_LITE_ENSURE_MSG(ctx, p->stride_height > 0 && p->stride_width > 0,
                     "%s: strides must be positive, got %dx%d", op, p->stride_height,
                     p->stride_width);
  TF_LITE_ENSURE_MSG(ctx, p->stride_height <= (1 << 24) && p->stride_width <= (1 << 24),
                     "%s: strides %dx%d are too large", op, p->stride_height, p->stride_width);
  TF_LITE_ENSURE_MSG(ctx, p->filter_height > 0 && p->filter_width > 0,
                     "%s: filter size must be positive, got %dx%d", op, p->filter_height,
                     p->filter_width);
  TF_LITE_ENSURE_MSG(ctx, (long long)p->filter_height * p->filter_width <= (1 << 24),
                     "%s: filter %dx%d is too large for float32 indices", op, p->filter_height,
                     p->filter_width);
  TF_LITE_ENSURE_MSG(ctx, p->activation >= kTfLiteActNone && p->activation <= kTfLiteActSigmoid,
                     "%s: unknown activation %d", op, (int)p->activation);
  g->stride_h = p->stride_height;
  g->stride_w = p->stride_width;
  g->filter_h = p->filter_height;
  g->filter_w = p->filter_width;
  tff_act_range_float(p->activation, &g->lo, &g->hi);
  g->lo = g->lo < -FLT_MAX ? -FLT_MAX : g->lo;
  g->hi = g->hi > FLT_MAX ? FLT_MAX : g->hi;
  return kTfLiteOk;
}

void tff_mp_pool_pad(tff_mp_pool* g, int large_h, int large_w, int small_h, int small_w) {
  int odd;
  g->pad_h = tff_conv_pad(g->stride_h, 1, large_h, g->filter_h, small_h, &odd);
  g->pad_w = tff_conv_pad(g->stride_w, 1, large_w, g->filter_w, small_w, &odd);
}

TfLiteStatus tff_mp_check_matrix(TfLiteContext* ctx, const TfLiteTensor* m, const char* op) {
  TF_LITE_ENSURE_MSG(ctx, m->type == kTfLiteFloat32, "%s: the matrix must be float32, got %s", op,
                     TfLiteTypeGetName(m->type));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(m->dims) >= 8,
                     "%s: the matrix needs 8 values (two rows of 4x4), has %zu", op,
                     tff_num_elements(m->dims));
  return kTfLiteOk;
}

TfLiteStatus tff_mp_flex_options(TfLiteContext* ctx, const TfLiteNode* node, const char* op,
                                 tff_flex* map) {
  memset(map, 0, sizeof(*map));
  map->type = kFlexMap;
  if (node->custom_initial_data == NULL || node->custom_initial_data_size <= 0) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx,
                     tff_flex_root((const uint8_t*)node->custom_initial_data,
                                   (size_t)node->custom_initial_data_size, map) &&
                         map->type == kFlexMap,
                     "%s: custom options (%d bytes) are not a FlexBuffer map", op,
                     node->custom_initial_data_size);
  return kTfLiteOk;
}

TfLiteStatus tff_mp_flex_number(TfLiteContext* ctx, const tff_flex* map, const char* op,
                                const char* key, double def, int integral, double* out) {
  tff_flex v;
  int64_t i;
  *out = def;
  if (!tff_flex_get(map, key, &v)) return kTfLiteOk;
  if (integral) {
    TF_LITE_ENSURE_MSG(ctx, tff_flex_int(&v, &i), "%s: option '%s' must be a 32-bit integer", op,
                       key);
    *out = (double)i;
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_MSG(ctx, tff_flex_number(&v, out), "%s: option '%s' must be a number", op, key);
  return kTfLiteOk;
}

TfLiteStatus tff_mp_flex_ints(TfLiteContext* ctx, const tff_flex* map, const char* op,
                              const char* key, int** vals, size_t* n) {
  tff_flex v = {.type = kFlexVectorInt};
  *n = 0;
  if (tff_flex_get(map, key, &v))
    TF_LITE_ENSURE_MSG(ctx,
                       v.type == kFlexVectorInt || v.type == kFlexVectorUInt ||
                           v.type == kFlexVectorFloat,
                       "%s: option '%s' must be a typed vector of integers", op, key);
  int* p = (int*)realloc(*vals, (v.len ? v.len : 1) * sizeof(int));
  TF_LITE_ENSURE_MSG(ctx, p != NULL, "%s: out of memory for option '%s'", op, key);
  *vals = p;
  for (size_t i = 0; i < v.len; ++i) {
    tff_flex e;
    int64_t x;
    TF_LITE_ENSURE_MSG(ctx, tff_flex_at(&v, i, &e) && tff_flex_int(&e, &x),
                       "%s: option '%s'[%zu] must be a 32-bit integer", op, key, i);
    p[i] = (int)x;
  }
  *n = v.len;
  return kTfLiteOk;
}
