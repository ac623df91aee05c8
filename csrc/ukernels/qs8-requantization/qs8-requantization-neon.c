/* qs8-requantization, NEON (aarch64 and armv7): 8 channels a block (4 for
 * double), the tail by the element functions.
 *  fp32: vcvtq_f32_s32, mul, clamp; aarch64 rounds with vcvtnq (ties to
 *    even; NaN -> 0 as the scalar), armv7 (no vcvtn) adds 1.5·2^23, whose
 *    float rounds |f| <= 255 to an integer ties to even in the mantissa,
 *    after mapping NaN to 0. armv7 NEON flushes subnormals, which changes
 *    no result: |acc·scale| < 2^31·2^−126 rounds to 0 either way.
 *  gemmlowp: vqrdmulhq_s32 is tff_srdhm exactly (floor((2ab + 2^31) / 2^32),
 *    saturating INT32_MIN·INT32_MIN); vshlq by the left shift drops the high
 *    bits like the scalar's uint32 shift; tff_rdbpot is vrshlq (ties up) of
 *    x − [x<0] (saturating, exact as INT32_MIN divides by 2^k), the −1 only
 *    when k > 0: the sign bit of x & −k.
 *  double (aarch64 only; armv7 has no float64 vectors and keeps the scalar
 *    twin): vrndaq_f64 is round() (ties away from zero). */
#include <arm_neon.h>
#include <string.h>

#include "qs8-requantization.h"

static inline void store8(int8_t* out, int32x4_t a, int32x4_t b) {
  vst1_s8(out, vqmovn_s16(vcombine_s16(vqmovn_s32(a), vqmovn_s32(b))));
}

static inline int32x4_t fp32x4(const int32_t* acc, const float* scale,
                               const tff_qs8_requantize_fp32_params* p) {
  float32x4_t f = vmulq_f32(vcvtq_f32_s32(vld1q_s32(acc)), vld1q_f32(scale));
  f = vminq_f32(vmaxq_f32(f, vdupq_n_f32(p->min_less_zp)), vdupq_n_f32(p->max_less_zp));
#if defined(__aarch64__)
  const int32x4_t r = vcvtnq_s32_f32(f);
#else
  const float32x4_t magic = vdupq_n_f32(12582912.0f); /* 1.5·2^23 */
  f = vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(f), vceqq_f32(f, f)));
  const int32x4_t r = vsubq_s32(vreinterpretq_s32_f32(vaddq_f32(f, magic)),
                                vreinterpretq_s32_f32(magic));
#endif
  return vaddq_s32(r, vdupq_n_s32(p->zp));
}

static inline void fp32x8(const int32_t* acc, int8_t* out,
                          const tff_qs8_requantize_fp32_params* p, size_t i) {
  store8(out, fp32x4(acc, p->scale + i, p), fp32x4(acc + 4, p->scale + i + 4, p));
}
TFF_QS8_REQUANTIZE_KERNEL(fp32, neon, 8, fp32x8)

static inline int32x4_t gemmlowp4(const int32_t* acc, const tff_qs8_requantize_gemmlowp_params* p,
                                  size_t i) {
  const int32x4_t s = vld1q_s32(p->shift + i), zero = vdupq_n_s32(0);
  const int32x4_t right = vminq_s32(s, zero); /* −k */
  const int32x4_t q = vqrdmulhq_s32(vshlq_s32(vld1q_s32(acc), vmaxq_s32(s, zero)),
                                    vld1q_s32(p->multiplier + i));
  const int32x4_t fix = vshrq_n_s32(vandq_s32(q, right), 31);
  const int32x4_t v = vaddq_s32(vrshlq_s32(vqaddq_s32(q, fix), right), vdupq_n_s32(p->zp));
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(p->lo)), vdupq_n_s32(p->hi));
}

static inline void gemmlowp8(const int32_t* acc, int8_t* out,
                             const tff_qs8_requantize_gemmlowp_params* p, size_t i) {
  store8(out, gemmlowp4(acc, p, i), gemmlowp4(acc + 4, p, i + 4));
}
TFF_QS8_REQUANTIZE_KERNEL(gemmlowp, neon, 8, gemmlowp8)

#if defined(__aarch64__)
/* round(f64(acc[0..1])·scale[0..1]) bounded to ±1e9. */
static inline int32x2_t double2(int32x2_t a, const double* scale) {
  float64x2_t x = vmulq_f64(vcvtq_f64_s64(vmovl_s32(a)), vld1q_f64(scale));
  x = vmaxq_f64(vminq_f64(vrndaq_f64(x), vdupq_n_f64(1e9)), vdupq_n_f64(-1e9));
  return vmovn_s64(vcvtq_s64_f64(x));
}

static inline void double4(const int32_t* acc, int8_t* out,
                           const tff_qs8_requantize_double_params* p, size_t i) {
  const int32x4_t a = vld1q_s32(acc);
  int32x4_t v = vcombine_s32(double2(vget_low_s32(a), p->scale + i),
                             double2(vget_high_s32(a), p->scale + i + 2));
  v = vminq_s32(vmaxq_s32(vaddq_s32(v, vdupq_n_s32(p->zp)), vdupq_n_s32(p->lo)),
                vdupq_n_s32(p->hi));
  const int16x4_t v16 = vqmovn_s32(v);
  const uint32_t b4 = vget_lane_u32(vreinterpret_u32_s8(vqmovn_s16(vcombine_s16(v16, v16))), 0);
  memcpy(out, &b4, 4);
}
TFF_QS8_REQUANTIZE_KERNEL(double, neon, 4, double4)
#endif
