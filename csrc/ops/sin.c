/* SIN: y = sin(x), float32 (TFLite elementwise.cc). Reference mode: sinf.
 * Default mode: AUTO's XNNPACK kernel, a rational approximation after its
 * own range reduction (tff_xnn_sincos), which turns huge inputs into NaN. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

static float sin_xnnpack(float x) { return tff_xnn_sincos(x, 0); }

TFF_FLOAT_UNARY_OP(SIN, kTfLiteBuiltinSin, sin_xnnpack, sinf)
