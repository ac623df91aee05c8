/* qs8-rsum: sums[c] = Σ_i w[c][i] over the rows of a row-major [n][k] int8
 * matrix, wrapping (uint32) like the GEMMs whose zero-point folds use them.
 * Prepare sums every int8 weight. */
#ifndef TFLITE_FAST_UKERNELS_QS8_RSUM_H_
#define TFLITE_FAST_UKERNELS_QS8_RSUM_H_

#include <stddef.h>
#include <stdint.h>

typedef void (*tff_qs8_rsum_fn)(size_t n, size_t k, const int8_t* w, int32_t* sums);

void tff_qs8_rsum_ukernel__scalar(size_t n, size_t k, const int8_t* w, int32_t* sums);
void tff_qs8_rsum_ukernel__sse41(size_t n, size_t k, const int8_t* w, int32_t* sums);

typedef struct {
  tff_qs8_rsum_fn fn;
  const char* name;
  uint32_t isa; /* TFF_ISA_* bit, 0 for scalar */
} tff_qs8_rsum_config;

extern const tff_qs8_rsum_config tff_qs8_rsum_configs[];
extern const int tff_qs8_rsum_num_configs;
/* The kernel of the best ISA in isa_mask. */
const tff_qs8_rsum_config* tff_qs8_rsum_select(uint32_t isa_mask);

#endif /* TFLITE_FAST_UKERNELS_QS8_RSUM_H_ */
