/* ROUND: y = x rounded to the nearest integer, ties to even, float32
 * (TFLite's RoundToNearest and XNNPACK's nearbyint agree, NaN and inf pass
 * through). BUILTIN_REF has no ROUND: reference mode runs the same formula. */
#include <math.h>

#include "ops.h"
#include "unary_common.h"

TFF_FLOAT_UNARY_OP(ROUND, kTfLiteBuiltinRound, rintf, rintf)
