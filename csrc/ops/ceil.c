/* CEIL: y = ceil(x), float32 only (TFLite ceil.cc; XNNPACK,
 * which AUTO gives it, rounds the same way). BUILTIN_REF has no CEIL: the
 * reference mode runs the builtin kernel's formula. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

TFF_FLOAT_UNARY_OP(CEIL, kTfLiteBuiltinCeil, ceilf, ceilf)
