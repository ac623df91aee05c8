/* f32-vbinary scalar twin: the oracle of the SIMD variants (one element per
 * step of the shared body). */
#define TFF_ISA scalar
#define TFF_W 1
#define TFF_V float
#define TFF_LOAD(p) (*(p))
#define TFF_STORE(p, v) (*(p) = (v))
#define TFF_SPLAT(x) (x)
#define TFF_ADD(x, y) ((x) + (y))
#define TFF_SUB(x, y) ((x) - (y))
#define TFF_MUL(x, y) ((x) * (y))
#define TFF_CLAMP(v, lo, hi) tff_f32_vbinary_clamp((v), p)
#include "f32-vbinary-impl.h"
