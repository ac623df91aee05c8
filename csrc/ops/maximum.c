/* MAXIMUM: elementwise larger value, with broadcasting (binary_common.h's
 * walk), for float32, float16, int8, uint8, int16, int32, int64. TFLite
 * compares quantized codes as they are, whatever the inputs' quantization,
 * and so do we; a > b ? a : b, so a NaN in b wins and one in a does not, as
 * TFLite's kernel. */
#include "binary_common.h"
#include "fp16.h"
#include "ops.h"

#define MAX_OF(x, y, p) ((x) > (y) ? (x) : (y))
/* float16 compares as float (as Eigen::half does), returns the operand. */
#define MAX_OF_F16(x, y, p) (tff_half_to_float(x) > tff_half_to_float(y) ? (x) : (y))
TFF_BINARY_ROWS(max, void, MAX_OF)
TFF_BINARY_ROW(max_f16, uint16_t, void, MAX_OF_F16)
static const tff_binary_rows rows = {max_f32, max_i8, max_u8, max_i16, max_i32, max_i64,
                                     "float32, float16, int8, uint8, int16, int32, int64",
                                     max_f16};

TFF_TYPED_BINARY_OP(MAXIMUM, kTfLiteBuiltinMaximum, rows)
