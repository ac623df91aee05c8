/* f16-f32-vcvt: y[i] = x[i], IEEE binary16 to binary32, exactly (every
 * binary16 is a binary32): subnormals, infinities and NaN payloads kept bit
 * for bit, as TFLite's DEQUANTIZE of float16. The scalar twin is
 * tff_halves_to_floats (ops/fp16.h); the avx2 kernel runs F16C's VCVTPH2PS,
 * which every AVX2 CPU has (cpu.c requires it for the avx2 level); the neon
 * kernel FCVTL on aarch64 and the twin's bit formula in lanes on armv7. */
#ifndef TFF_UKERNELS_F16_F32_VCVT_H_
#define TFF_UKERNELS_F16_F32_VCVT_H_

#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"

typedef void tff_f16_f32_vcvt_ukernel(size_t n, const uint16_t* x, float* y);
tff_f16_f32_vcvt_ukernel tff_f16_f32_vcvt_ukernel__scalar, tff_f16_f32_vcvt_ukernel__avx2,
    tff_f16_f32_vcvt_ukernel__neon;

TFF_DECLARE_CONFIGS(tff_f16_f32_vcvt)

#endif /* TFF_UKERNELS_F16_F32_VCVT_H_ */
