/* IEEE binary16 <-> binary32 conversions (DEQUANTIZE, CAST, MAXIMUM/MINIMUM and
 * the comparisons of float16). */
#ifndef TFLITE_FAST_OPS_FP16_H_
#define TFLITE_FAST_OPS_FP16_H_

#include <math.h>
#include <stdint.h>
#include <string.h>

/* binary16 -> binary32, exact. Normal numbers rebias the exponent (15 ->
 * 127); subnormals are m·2^-24, exact in float; exponent 31 keeps the
 * mantissa (infinity, NaN payload). Selects, no branches, so it vectorizes. */
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

/* n halves to floats, the same bits as tff_half_to_float, 4 at a time in
 * vectors (GCC/Clang vector extensions; prepare converts
 * whole float16 weight tensors). A subnormal is m·2^-24 as
 * (0.5 + m·2^-24) − 0.5: both exact, and no int -> float conversion. */
typedef uint32_t tff_v4u __attribute__((vector_size(16)));
typedef float tff_v4f __attribute__((vector_size(16)));

static inline void tff_halves_to_floats(const uint16_t* h, size_t n, float* out) {
  size_t i = 0;
  for (; n - i >= 4; i += 4) {
    const tff_v4u x = {h[i], h[i + 1], h[i + 2], h[i + 3]};
    const tff_v4u em = x & 0x7FFFu;
    const tff_v4u sub = (tff_v4u)((tff_v4f)(em | 0x3F000000u) - 0.5f);
    const tff_v4u normal = (em << 13) + ((127u - 15u) << 23);
    const tff_v4u special = (em << 13) | 0x7F800000u;
    const tff_v4u is_special = (tff_v4u)(em >= 0x7C00u);
    const tff_v4u is_normal = (tff_v4u)(em >= 0x0400u);
    const tff_v4u bits = ((x & 0x8000u) << 16) | (is_special & special) |
                            (~is_special & ((is_normal & normal) | (~is_normal & sub)));
    memcpy(out + i, &bits, sizeof bits);
  }
  for (; i < n; ++i) out[i] = tff_half_to_float(h[i]);
}

/* binary32 -> binary16, rounded to nearest even (the FP16 library's
 * fp16_ieee_from_fp32_value that TFLite uses): NaN -> quiet NaN 0x7E00 with
 * the sign, |x| >= 65520 -> infinity, below 2^-14 to a subnormal. */
static inline uint16_t tff_float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  const uint32_t ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return sign | 0x7E00u;
  if (ax >= 0x477FF000u) return sign | 0x7C00u;
  if (ax < 0x38800000u) {
    float a;
    memcpy(&a, &ax, sizeof a);
    return sign | (uint16_t)rintf(a * 16777216.0f); /* multiples of 2^-24, ties to even */
  }
  /* Round the 23-bit mantissa at bit 13, ties to even, then rebias 127 -> 15
   * (a carry into the exponent is the right result). */
  const uint32_t r = ax + 0xFFFu + ((ax >> 13) & 1u) - (112u << 23);
  return sign | (uint16_t)(r >> 13);
}

#endif /* TFLITE_FAST_OPS_FP16_H_ */
