/* RESIZE_NEAREST_NEIGHBOR: NHWC input, output [N, size[0], size[1], C]; each
 * output pixel copies one input pixel. size is an int32 pair; computed, it
 * gives a dynamic output (movement_common.h). Every 1-, 2- or 4-byte type
 * (TFLite's kernel works by element size); codes are copied as they are.
 *
 * Source index of output index o along an axis of in -> out (TFLite
 * reference, float32 arithmetic): s = in/out, or (in−1)/(out−1) with
 * align_corners; v = (o + 0.5·half_pixel_centers)·s; i = round(v) (half away
 * from zero) with align_corners, else floor(v); i = min(i, in−1), and with
 * half_pixel_centers max(i, 0). AUTO runs TFLite's optimized kernel (XNNPACK
 * does not take this op), which for 1-byte types without either flag uses
 * 16.16 fixed point: i = min((o·((in << 16)/out + 1)) >> 16, in−1). */
#include <math.h>

#include "movement_common.h"
#include "ops.h"

typedef struct {
  int in, out, align, half, fixed;
  float scale;
  int64_t step; /* 16.16 fixed-point scale */
} Axis;

static Axis axis(int in, int out, int align, int half, int fixed) {
  Axis a = {in, out, align, half, fixed, 0.0f, 0};
  a.scale = align && out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
  a.step = ((int64_t)in << 16) / out + 1;
  return a;
}

static int source(const Axis* a, int o) {
  if (a->fixed) {
    const int64_t i = ((int64_t)o * a->step) >> 16;
    return i < a->in - 1 ? (int)i : a->in - 1;
  }
  const float v = ((float)o + (a->half ? 0.5f : 0.0f)) * a->scale;
  int i = (int)(a->align ? roundf(v) : floorf(v));
  i = i < a->in - 1 ? i : a->in - 1;
  return a->half && i < 0 ? 0 : i;
}

static TfLiteStatus shape(TfLiteContext* ctx, TfLiteNode* node, int* dims, int* rank) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* size = tff_input(ctx, node, 1);
  const int h = size->data.i32[0], w = size->data.i32[1];
  TF_LITE_ENSURE_MSG(ctx, h > 0 && w > 0, "RESIZE_NEAREST_NEIGHBOR: size %d x %d must be positive",
                     h, w);
  *rank = 4;
  dims[0] = tff_dim(in, 0);
  dims[1] = h;
  dims[2] = w;
  dims[3] = tff_dim(in, 3);
  return kTfLiteOk;
}

static TfLiteStatus run(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteResizeNearestNeighborParams* p =
      (const TfLiteResizeNearestNeighborParams*)node->builtin_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t es = tff_type_size(in->type);
  const int align = p->align_corners, half = p->half_pixel_centers;
  const int fixed = !tff_numerics_ref(ctx) && es == 1 && !align && !half;
  const Axis ay = axis(tff_dim(in, 1), tff_dim(out, 1), align, half, fixed);
  const Axis ax = axis(tff_dim(in, 2), tff_dim(out, 2), align, half, fixed);
  const size_t pixel = (size_t)tff_dim(in, 3) * es;
  const size_t row = (size_t)tff_dim(in, 2) * pixel, image = (size_t)tff_dim(in, 1) * row;
  char* dst = out->data.raw;
  for (int b = 0; b < tff_dim(in, 0); ++b) {
    const char* src = in->data.raw_const + (size_t)b * image;
    for (int y = 0; y < ay.out; ++y) {
      const char* r = src + (size_t)source(&ay, y) * row;
      for (int x = 0; x < ax.out; ++x, dst += pixel) memcpy(dst, r + (size_t)source(&ax, x) * pixel, pixel);
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, node->builtin_data != NULL, "RESIZE_NEAREST_NEIGHBOR: missing options");
  TF_LITE_ENSURE_OK(ctx, tff_move_check_io(ctx, node, "RESIZE_NEAREST_NEIGHBOR", 2));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* size = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4, "RESIZE_NEAREST_NEIGHBOR: input has %d dims, expected 4",
                     tff_rank(in));
  const size_t es = tff_type_size(in->type);
  TF_LITE_ENSURE_MSG(ctx, es == 1 || es == 2 || es == 4,
                     "RESIZE_NEAREST_NEIGHBOR: type %s is not supported (8, 16 or 32 bits)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, size->type == kTfLiteInt32 && tff_rank(size) == 1 && tff_dim(size, 0) == 2,
                     "RESIZE_NEAREST_NEIGHBOR: size must be an INT32 vector of 2 elements");
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, 1) > 0 && tff_dim(in, 2) > 0 && tff_dim(in, 1) < (1 << 20) &&
                              tff_dim(in, 2) < (1 << 20),
                     "RESIZE_NEAREST_NEIGHBOR: input %d x %d is out of range", tff_dim(in, 1),
                     tff_dim(in, 2));
  return tff_move_prepare(ctx, node, tff_is_constant(size), shape, run);
}

TFF_MOVE_REGISTRATION(RESIZE_NEAREST_NEIGHBOR, kTfLiteBuiltinResizeNearestNeighbor, shape, run)
