/* f32-rsum: *out += (Σ x[i], i < n) · scale, the contiguous sum XNNPACK's
 * reduce runs for SUM/MEAN over the innermost axes (scale = 1/N for MEAN).
 *
 * The summation order is XNNPACK's (xnn_f32_rsum_ukernel__<isa>_u<4W>_acc4),
 * with W lanes per vector: four vector accumulators over blocks of 4W, then
 * up to three single vectors into accumulators 0, 1, 2, then
 * (acc0 + acc2) + (acc1 + acc3), then the last n mod W elements, then the
 * lanes folded in halves (tff_f32_hsum_lanes). W is 8 for avx2 (XNNPACK's
 * avx kernel), 4 for sse41 (its sse2 kernel, which adds the tail elements
 * one by one into lane 0 instead of lane by lane) and 1 for the scalar twin.
 * So the bits depend on the ISA as XNNPACK's do; AUTO on this x86 CPU is the
 * avx2 path. On AVX-512 XNNPACK picks its avx512f u32_acc2 kernel, which it
 * keeps consistent with avx: our avx512 float path is out of dispatch
 * (cpu.c), so such a CPU runs the avx2 kernel, the same bits.
 * The neon kernel (armv7 and aarch64) runs this order at W = 4, the tail in
 * lanes, under ARM's FZ. XNNPACK's neon kernels order their sum otherwise
 * (single vectors after the accumulators are added up, the tail after a
 * first fold), so ARM is within float tolerance of XNNPACK there. */
#ifndef TFF_UKERNELS_F32_RSUM_H_
#define TFF_UKERNELS_F32_RSUM_H_

#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"

typedef void tff_f32_rsum_ukernel(size_t n, const float* x, float scale, float* out);
typedef tff_f32_rsum_ukernel* tff_f32_rsum_fn;
TFF_DECLARE_FAMILY(tff_f32_rsum)

/* XNNPACK's horizontal sum of w = 8, 4 or 1 lanes: a[l] + a[l + w/2] while
 * w > 1 (its reduce_add: extractf128 + add, movehl + add, movehdup + add). */
static inline float tff_f32_hsum_lanes(float* a, int w) {
  for (; w > 1; w /= 2) {
    for (int l = 0; l < w / 2; ++l) a[l] = a[l] + a[l + w / 2];
  }
  return a[0];
}

#endif /* TFF_UKERNELS_F32_RSUM_H_ */
