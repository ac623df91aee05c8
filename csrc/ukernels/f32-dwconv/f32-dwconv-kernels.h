/* Instantiates the family's three kernels (9, 25 and any taps) for the ISA
 * file including it, which defines DW_ISA (name suffix) and what
 * f32-dwconv-body.h needs. */
#define DW_NAME_(taps, ct, isa) tff_f32_dwconv_minmax_ukernel_##taps##p##ct##c__##isa
#define DW_NAME_X(taps, ct, isa) DW_NAME_(taps, ct, isa)

#define DW_NAME DW_NAME_X(9, DW_CT, DW_ISA)
#define DW_TAPS 9
#include "f32-dwconv-body.h"
#undef DW_NAME
#undef DW_TAPS

#define DW_NAME DW_NAME_X(25, DW_CT, DW_ISA)
#define DW_TAPS 25
#include "f32-dwconv-body.h"
#undef DW_NAME
#undef DW_TAPS

#define DW_NAME DW_NAME_X(any, DW_CT, DW_ISA)
#define DW_TAPS 0
#include "f32-dwconv-body.h"
#undef DW_NAME
#undef DW_TAPS
