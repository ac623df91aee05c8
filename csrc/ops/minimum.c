/* MINIMUM: elementwise smaller value, with broadcasting (binary_common.h's
 * walk), for float32, float16, int8, uint8, int16, int32, int64. TFLite
 * compares quantized codes as they are, whatever the inputs' quantization,
 * and so do we; a < b ? a : b, so a NaN in b wins and one in a does not, as
 * TFLite's kernel. */
#include "binary_common.h"
#include "fp16.h"
#include "ops.h"

#define MIN_OF(x, y, p) ((x) < (y) ? (x) : (y))
/* float16 compares as float (as Eigen::half does), returns the operand. */
#define MIN_OF_F16(x, y, p) (tff_half_to_float(x) < tff_half_to_float(y) ? (x) : (y))
TFF_BINARY_ROWS(min, void, MIN_OF)
TFF_BINARY_ROW(min_f16, uint16_t, void, MIN_OF_F16)
static const tff_binary_rows rows = {min_f32, min_i8, min_u8, min_i16, min_i32, min_i64,
                                     "float32, float16, int8, uint8, int16, int32, int64",
                                     min_f16};

TFF_TYPED_BINARY_OP(MINIMUM, kTfLiteBuiltinMinimum, rows)
