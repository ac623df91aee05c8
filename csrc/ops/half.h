/* IEEE binary16 (TfLiteFloat16) to float32, shared by DEQUANTIZE and the
 * ops that compare float16 values (MAXIMUM, MINIMUM, the comparisons). */
#ifndef TFLITE_FAST_OPS_HALF_H_
#define TFLITE_FAST_OPS_HALF_H_

#include <stdint.h>
#include <string.h>

/* Normal numbers rebias the exponent (15 -> 127); subnormals are m·2^-24,
 * exact in float; exponent 31 keeps the mantissa (infinity, NaN payload).
 * Selects, no branches, so it vectorizes. */
static inline float tff_half_to_float(uint16_t h) {
  const uint32_t em = h & 0x7FFFu;
  const float sub = (float)em * 0x1p-24f;
  uint32_t sub_bits;
  memcpy(&sub_bits, &sub, sizeof sub_bits);
  const uint32_t normal = (em << 13) + ((127u - 15u) << 23);
  const uint32_t special = (em << 13) | 0x7F800000u;
  const uint32_t bits = ((uint32_t)(h & 0x8000u) << 16) |
                        (em >= 0x7C00u ? special : em >= 0x0400u ? normal : sub_bits);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

#endif /* TFLITE_FAST_OPS_HALF_H_ */
