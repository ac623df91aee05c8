/* SQUARE: y = x·x, float32 (TFLite elementwise.cc; XNNPACK's product is the
 * same IEEE multiply). */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

static float square_f32(float x) { return x * x; }

TFF_FLOAT_UNARY_OP(SQUARE, kTfLiteBuiltinSquare, square_f32, square_f32)
