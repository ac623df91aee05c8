/* Eigen's float math as TFLite's x86 build runs it (SSE, 4-float packets, no
 * FMA: every multiply-add rounds twice), for kernels that must match the
 * oracle bit for bit because a float result feeds an on-the-fly
 * quantization (hybrid ops), where one ulp can flip a code. */
#ifndef TFLITE_FAST_OPS_EIGEN_MATH_H_
#define TFLITE_FAST_OPS_EIGEN_MATH_H_

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline float tff_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Eigen's float logistic on packets (TFLite's ApplySigmoidToVector, x86 SSE
 * without FMA): exp(x/2) by Cephes range reduction and a degree-5 polynomial, scaled
 * by 2^m, squared; then e/(1 + e), 0 below −104. */
static inline float tff_eigen_logistic(float v) {
  const float x = (v < 16.6355324f ? v : 16.6355324f) * 0.5f;
  const float m = floorf(x * 1.44269504088896341f + 0.5f);
  float r = m * -0.693359375f + x;
  r = m * 2.12194440e-4f + r;
  const float r2 = r * r;
  const float pe = r2 * 4.1898667812347412109375e-2f + 0.49999141693115234375f;
  const float po = r2 * 8.33471305668354034423828125e-3f + 0.16666877269744873046875f;
  float p = r * po + pe;
  p = r2 * p + (r + 1.0f);
  float eb = m + 127.0f;
  eb = eb < 0.0f ? 0.0f : (eb > 255.0f ? 255.0f : eb);
  float e = p * tff_bits_f32((uint32_t)(int32_t)eb << 23);
  e = e * e;
  return v < -104.0f ? 0.0f : e / (1.0f + e);
}

/* Eigen's scalar logistic, for the elements outside whole packets. */
static inline float tff_eigen_logistic_scalar(float v) {
  const float e = expf(v < 16.6355324f ? v : 16.6355324f);
  return e / (1.0f + e);
}

/* ApplySigmoidToVector on v[0, n) lying `off` floats after a 16-byte aligned
 * address: Eigen runs scalars up to the first aligned element, then 4-float
 * packets, then scalars. */
static inline void tff_eigen_logistic_run(float* v, size_t n, size_t off) {
  size_t pro = (4 - off % 4) % 4;
  pro = pro < n ? pro : n;
  const size_t end = pro + (n - pro) / 4 * 4;
  for (size_t i = 0; i < n; ++i)
    v[i] = i >= pro && i < end ? tff_eigen_logistic(v[i]) : tff_eigen_logistic_scalar(v[i]);
}

/* Eigen's generic_fast_tanh_float: x clamped to ±7.90738964, then
 * (x + x³·P(x²)) / Q(x²); coefficients highest degree first, as bits. */
static inline float tff_eigen_tanh(float v) {
  static const uint32_t kP[4] = {0x326f951eu, 0x37b063dcu, 0x3b66bc7fu, 0x3e093cf6u};
  static const uint32_t kQ[5] = {0x35572c00u, 0x39ae6d96u, 0x3cd4c460u, 0x3eef4922u, 0x3f800000u};
  const float c = tff_bits_f32(0x40fd0956u);
  const float x = v < -c ? -c : (v > c ? c : v);
  const float x2 = x * x, x3 = x * x2;
  float p = tff_bits_f32(kP[0]) * x2 + tff_bits_f32(kP[1]);
  for (int i = 2; i < 4; ++i) p = p * x2 + tff_bits_f32(kP[i]);
  float q = tff_bits_f32(kQ[0]) * x2 + tff_bits_f32(kQ[1]);
  for (int i = 2; i < 5; ++i) q = q * x2 + tff_bits_f32(kQ[i]);
  return (p * x3 + x) / q;
}

#endif /* TFLITE_FAST_OPS_EIGEN_MATH_H_ */
