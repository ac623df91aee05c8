/* Instantiates the family's three kernels (9, 25 and any taps) and its
 * column kernel for the ISA file including it, which defines DW_ISA (name
 * suffix) and what qs8-qc8w-dwconv-body.h needs. */
#define DW_NAME_(taps, ct, isa) tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_##taps##p##ct##c__##isa
#define DW_NAME_X(taps, ct, isa) DW_NAME_(taps, ct, isa)

/* Bytes of one tile's packed weights for `taps` taps. */
#if DW_PAIRS
#define DW_WBYTES(taps) (((taps) + 1) / 2 * DW_CT * 2 * sizeof(int16_t))
#else
#define DW_WBYTES(taps) (((taps) * DW_CT + 3) & ~(size_t)3)
#endif

#define DW_NAME DW_NAME_X(9, DW_CT, DW_ISA)
#define DW_TAPS 9
#include "qs8-qc8w-dwconv-body.h"
#undef DW_NAME
#undef DW_TAPS

#define DW_NAME DW_NAME_X(25, DW_CT, DW_ISA)
#define DW_TAPS 25
#include "qs8-qc8w-dwconv-body.h"
#undef DW_NAME
#undef DW_TAPS

#define DW_NAME DW_NAME_X(any, DW_CT, DW_ISA)
#define DW_TAPS 0
#include "qs8-qc8w-dwconv-body.h"
#undef DW_NAME
#undef DW_TAPS

#define DW_COL_NAME DW_NAME_X(col, DW_CT, DW_ISA)
#include "qs8-qc8w-dwconv-col.h"
#undef DW_COL_NAME
