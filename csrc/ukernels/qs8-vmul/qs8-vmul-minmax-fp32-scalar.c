/* qs8-vmul scalar twin: the oracle of the SIMD variants. */
#include "qs8-vmul.h"

/* No vector block: the element loop does everything. */
#define TFF_NO_BLOCK(a, b, out, yb, p) ((void)0)
TFF_QS8_VMUL_KERNELS(scalar, SIZE_MAX, TFF_NO_BLOCK)
