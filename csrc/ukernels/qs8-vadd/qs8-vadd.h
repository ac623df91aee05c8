/* qs8-vadd: int8 ADD/SUB with XNNPACK's integer requantization (default
 * numerics, docs/numerics.md §1.6):
 *   out[i] = clamp(((bias + a_mul·a[i] + b_mul·y) >> shift) + zo, lo, hi)
 * with y = b[i] (vadd) or b[0] (vaddc), bias = 2^(shift−1) − a_mul·za −
 * b_mul·zb, `>>` arithmetic (floor). SUB is ADD with b_mul negated; a
 * broadcast first operand is vaddc with the operands (and a/b params) swapped,
 * which gives the same integers.
 *
 * Parameters:
 *   n       number of elements (>= 1)
 *   a       n int8 values
 *   b       n int8 values (vadd) or 1 (vaddc)
 *   out     n int8 values; may alias a or b exactly; nothing past out[n-1] is written
 *   params  as below; |a_mul|, |b_mul| < 2^22 so no sum overflows int32
 * Integer arithmetic: every ISA gives the scalar twin's bytes. */
#ifndef TFF_UKERNELS_QS8_VADD_H_
#define TFF_UKERNELS_QS8_VADD_H_

#include <stddef.h>
#include <stdint.h>

typedef struct tff_qs8_add_minmax_params {
  int32_t bias, a_mul, b_mul;
  uint32_t shift;   /* 1..31 */
  int32_t zo;       /* output zero point */
  int32_t lo, hi;   /* output bounds, within [-128, 127] */
} tff_qs8_add_minmax_params;

typedef void (*tff_qs8_vadd_fn)(size_t n, const int8_t* a, const int8_t* b, int8_t* out,
                                const tff_qs8_add_minmax_params* params);

#define TFF_DECLARE_QS8_VADD(ISA)                                                     \
  void tff_qs8_vadd_minmax_ukernel__##ISA(size_t, const int8_t*, const int8_t*,       \
                                          int8_t*, const tff_qs8_add_minmax_params*); \
  void tff_qs8_vaddc_minmax_ukernel__##ISA(size_t, const int8_t*, const int8_t*,      \
                                           int8_t*, const tff_qs8_add_minmax_params*);

TFF_DECLARE_QS8_VADD(scalar)
TFF_DECLARE_QS8_VADD(sse41)
TFF_DECLARE_QS8_VADD(avx2)
TFF_DECLARE_QS8_VADD(neon)

typedef struct tff_qs8_vadd_config {
  uint32_t isa;
  tff_qs8_vadd_fn vadd, vaddc;
  const char *vadd_name, *vaddc_name;
} tff_qs8_vadd_config;

extern const tff_qs8_vadd_config tff_qs8_vadd_configs[];
extern const int tff_qs8_vadd_num_configs;
const tff_qs8_vadd_config* tff_qs8_vadd_select(uint32_t isa_mask);

/* The scalar twin's element (bias already holds b_mul·b[0] for vaddc, with
 * b_mul·y = 0 then). */
static inline int8_t tff_qs8_vadd_elem(int32_t bias, int32_t ax, int32_t by,
                                       const tff_qs8_add_minmax_params* p) {
  const int32_t o = ((bias + ax + by) >> p->shift) + p->zo;
  return (int8_t)(o < p->lo ? p->lo : (o > p->hi ? p->hi : o));
}

/* The shared shape of every ISA's kernels: BLOCK(a, b or NULL, out, bias)
 * handles W elements, the scalar element the rest. */
#define TFF_QS8_VADD_KERNELS(ISA, W, BLOCK)                                                \
  static inline void run(size_t n, const int8_t* a, const int8_t* b, int8_t* out,          \
                         const tff_qs8_add_minmax_params* p, int32_t bias, int with_b) {   \
    size_t i = 0;                                                                          \
    for (; i + (W) <= n; i += (W)) BLOCK(a + i, with_b ? b + i : NULL, out + i, bias, p);  \
    for (; i < n; ++i)                                                                     \
      out[i] = tff_qs8_vadd_elem(bias, p->a_mul * a[i], with_b ? p->b_mul * b[i] : 0, p);  \
  }                                                                                        \
  void tff_qs8_vadd_minmax_ukernel__##ISA(size_t n, const int8_t* a, const int8_t* b,      \
                                          int8_t* out, const tff_qs8_add_minmax_params* p) { \
    run(n, a, b, out, p, p->bias, 1);                                                      \
  }                                                                                        \
  void tff_qs8_vaddc_minmax_ukernel__##ISA(size_t n, const int8_t* a, const int8_t* b,     \
                                           int8_t* out, const tff_qs8_add_minmax_params* p) { \
    run(n, a, b, out, p, p->bias + p->b_mul * b[0], 0);                                    \
  }

#endif /* TFF_UKERNELS_QS8_VADD_H_ */
