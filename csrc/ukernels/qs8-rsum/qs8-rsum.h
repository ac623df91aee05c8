/* qs8-rsum: sums[c] = Σ_i w[c][i] over the rows of a row-major [n][k] int8
 * matrix, wrapping (uint32) like the GEMMs whose zero-point folds use them.
 * Prepare sums every int8 weight. */
#ifndef TFLITE_FAST_UKERNELS_QS8_RSUM_H_
#define TFLITE_FAST_UKERNELS_QS8_RSUM_H_

#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"

typedef void tff_qs8_rsum_ukernel(size_t n, size_t k, const int8_t* w, int32_t* sums);
tff_qs8_rsum_ukernel tff_qs8_rsum_ukernel__scalar, tff_qs8_rsum_ukernel__sse41,
    tff_qs8_rsum_ukernel__neon;

/* tff_qs8_rsum_config {fn, name, isa}, the configs this build has, and
 * tff_qs8_rsum_select: the kernel of the best ISA in isa_mask. */
TFF_DECLARE_CONFIGS(tff_qs8_rsum)

#endif /* TFLITE_FAST_UKERNELS_QS8_RSUM_H_ */
