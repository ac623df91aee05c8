/* FLOOR: y = floor(x), float32 (TFLite floor.cc; exact in XNNPACK too). */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

TFF_FLOAT_UNARY_OP(FLOOR, kTfLiteBuiltinFloor, floorf, floorf)
