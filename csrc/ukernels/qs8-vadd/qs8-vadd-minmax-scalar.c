/* qs8-vadd scalar twin: the oracle of the SIMD variants. */
#include "qs8-vadd.h"

/* No vector block: the element loop does everything. */
#define TFF_NO_BLOCK(a, b, out, bias, p) ((void)0)
TFF_QS8_VADD_KERNELS(scalar, SIZE_MAX, TFF_NO_BLOCK)
