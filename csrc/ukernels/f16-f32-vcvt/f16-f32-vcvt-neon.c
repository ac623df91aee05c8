/* f16-f32-vcvt, NEON, 8 lanes. aarch64: FCVTL, exact for every binary16
 * (conversions ignore FPCR.FZ16, and FZ cannot touch a float that is never
 * subnormal), but it quiets a signalling NaN: a block of 8 holding any NaN
 * takes the bit path. armv7 has no FCVTL without the neon-fp16 flags: every
 * block takes the bit path, the scalar twin's formula in lanes. */
#include <arm_neon.h>

#include "f16-f32-vcvt.h"
#include "ops/fp16.h"

/* 4 halves to the floats' bits. A subnormal m·2^-24 is (0.5 + m·2^-24) − 0.5,
 * both exact; no operand or result is subnormal, so armv7's flush-to-zero
 * NEON arithmetic gives it too. */
static inline float32x4_t bits4(uint16x4_t h) {
  const uint32x4_t x = vmovl_u16(h), em = vandq_u32(x, vdupq_n_u32(0x7FFF));
  const uint32x4_t sub = vreinterpretq_u32_f32(vsubq_f32(
      vreinterpretq_f32_u32(vorrq_u32(em, vdupq_n_u32(0x3F000000))), vdupq_n_f32(0.5f)));
  const uint32x4_t shifted = vshlq_n_u32(em, 13);
  const uint32x4_t normal = vaddq_u32(shifted, vdupq_n_u32((127u - 15u) << 23));
  const uint32x4_t special = vorrq_u32(shifted, vdupq_n_u32(0x7F800000));
  uint32x4_t bits = vbslq_u32(vcgeq_u32(em, vdupq_n_u32(0x0400)), normal, sub);
  bits = vbslq_u32(vcgeq_u32(em, vdupq_n_u32(0x7C00)), special, bits);
  bits = vorrq_u32(bits, vshlq_n_u32(vandq_u32(x, vdupq_n_u32(0x8000)), 16));
  return vreinterpretq_f32_u32(bits);
}

void tff_f16_f32_vcvt_ukernel__neon(size_t n, const uint16_t* x, float* y) {
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    const uint16x8_t h = vld1q_u16(x + i);
#if defined(__aarch64__)
    if (vmaxvq_u16(vandq_u16(h, vdupq_n_u16(0x7FFF))) <= 0x7C00) {
      const float16x8_t f = vreinterpretq_f16_u16(h);
      vst1q_f32(y + i, vcvt_f32_f16(vget_low_f16(f)));
      vst1q_f32(y + i + 4, vcvt_high_f32_f16(f));
      continue;
    }
#endif
    vst1q_f32(y + i, bits4(vget_low_u16(h)));
    vst1q_f32(y + i + 4, bits4(vget_high_u16(h)));
  }
  tff_halves_to_floats(x + i, n - i, y + i);
}
