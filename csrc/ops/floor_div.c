/* FLOOR_DIV: floor(a / b) elementwise with broadcasting (binary_common.h's
 * walk), for float32, int8, int16 and int32, as TFLite: the quotient of the
 * values as doubles, floored, converted back (float32 rounds; the integer
 * types get their exact floored quotient, and the one that does not fit,
 * INT_MIN / −1, wraps to INT_MIN as x86's conversion makes it). A zero
 * divisor anywhere in b, in any type, fails invoke ("Division by 0"), so no
 * integer division traps. */
#include "binary_common.h"
#include "ops.h"

static inline float floordiv_float(float x, float y) {
  return (float)floor((double)x / (double)y);
}

/* Exact floored quotient in int64 (|x|, |y| <= 2^31), wrapped to 32 bits
 * (and by the row's store to 8 or 16). */
static inline int32_t floordiv_int(int64_t x, int64_t y) {
  int64_t q = x / y;
  if (q * y != x && (x < 0) != (y < 0)) --q;
  return (int32_t)(uint32_t)q;
}

#define FLOORDIV(x, y, p) _Generic((x), float: floordiv_float, default: floordiv_int)(x, y)
TFF_BINARY_ROWS(floordiv, void, FLOORDIV)
static const tff_binary_rows rows = {floordiv_f32, floordiv_i8, NULL, floordiv_i16, floordiv_i32,
                                     NULL, "float32, int8, int16, int32"};

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, !tff_any_equal(tff_input(ctx, node, 1), 0), "FLOOR_DIV: Division by 0");
  return tff_binary_node_invoke(ctx, node);
}

TFF_TYPED_BINARY_OP_WITH(FLOOR_DIV, kTfLiteBuiltinFloorDiv, rows, 0, invoke)
