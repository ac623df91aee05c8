/* COS: y = cos(x), float32 (TFLite elementwise.cc). Reference mode: cosf.
 * Default mode: AUTO's XNNPACK kernel, a rational approximation after its
 * own range reduction (tff_xnn_sincos), which turns huge inputs into NaN. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

static float cos_xnnpack(float x) { return tff_xnn_sincos(x, 1); }

TFF_FLOAT_UNARY_OP(COS, kTfLiteBuiltinCos, cos_xnnpack, cosf)
