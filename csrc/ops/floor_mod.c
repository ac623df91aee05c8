/* FLOOR_MOD: a − floor(a / b)·b elementwise with broadcasting
 * (binary_common.h's walk), for float32, int8, int16, int32 and int64, as
 * TFLite: the truncated remainder (fmodf for float32), plus b when it is
 * nonzero and its sign differs from b's. A zero integer divisor anywhere in
 * b fails invoke ("Division by 0"); float32 gives NaN. b = −1 gives 0
 * without dividing (INT_MIN % −1 traps on x86). */
#include "binary_common.h"
#include "ops.h"

#define FLOORMOD_ADJUST(m, y) ((m) != 0 && ((y) < 0) != ((m) < 0) ? (m) + (y) : (m))

static inline float floormod_float(float x, float y) {
  const float m = fmodf(x, y);
  return FLOORMOD_ADJUST(m, y);
}

static inline int64_t floormod_int(int64_t x, int64_t y) {
  if (y == -1) return 0;
  const int64_t m = x % y;
  return FLOORMOD_ADJUST(m, y);
}

#define FLOORMOD(x, y, p) _Generic((x), float: floormod_float, default: floormod_int)(x, y)
TFF_BINARY_ROWS(floormod, void, FLOORMOD)
static const tff_binary_rows rows = {floormod_f32, floormod_i8, NULL, floormod_i16, floormod_i32,
                                     floormod_i64, "float32, int8, int16, int32, int64"};

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, b->type == kTfLiteFloat32 || !tff_any_equal(b, 0),
                     "FLOOR_MOD: Division by 0");
  return tff_binary_node_invoke(ctx, node);
}

TFF_TYPED_BINARY_OP_WITH(FLOOR_MOD, kTfLiteBuiltinFloorMod, rows, 0, invoke)
