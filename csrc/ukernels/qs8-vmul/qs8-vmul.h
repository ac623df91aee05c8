/* qs8-vmul: int8 MUL with XNNPACK's fp32 requantization (default numerics,
 * docs/numerics.md §1.7):
 *   v = clamp(f32((a[i] − za)·(y − zb))·scale, fmin, fmax)
 *   out[i] = bits(v + 1.5·2^23) − 0x4B400000 + zo   (round to nearest even)
 * with y = b[i] (vmul) or b[0] (vmulc); fmin/fmax are the output bounds less
 * zo. MUL is commutative: a broadcast first operand is vmulc with the
 * operands (and a/b zero points) swapped.
 *
 * Parameters:
 *   n       number of elements (>= 1)
 *   a       n int8 values
 *   b       n int8 values (vmul) or 1 (vmulc)
 *   out     n int8 values; may alias a or b exactly; nothing past out[n-1] is written
 *   params  as below; |fmin|, |fmax| <= 255 keep the magic-bias rounding exact
 * One float multiply and the same clamp per element (no FMA): every ISA gives
 * the scalar twin's bytes. */
#ifndef TFF_UKERNELS_QS8_VMUL_H_
#define TFF_UKERNELS_QS8_VMUL_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct tff_qs8_mul_minmax_fp32_params {
  int32_t za, zb, zo;
  float scale, fmin, fmax;
} tff_qs8_mul_minmax_fp32_params;

typedef void (*tff_qs8_vmul_fn)(size_t n, const int8_t* a, const int8_t* b, int8_t* out,
                                const tff_qs8_mul_minmax_fp32_params* params);

#define TFF_DECLARE_QS8_VMUL(ISA)                                                           \
  void tff_qs8_vmul_minmax_fp32_ukernel__##ISA(size_t, const int8_t*, const int8_t*,        \
                                               int8_t*, const tff_qs8_mul_minmax_fp32_params*); \
  void tff_qs8_vmulc_minmax_fp32_ukernel__##ISA(size_t, const int8_t*, const int8_t*,       \
                                                int8_t*, const tff_qs8_mul_minmax_fp32_params*);

TFF_DECLARE_QS8_VMUL(scalar)
TFF_DECLARE_QS8_VMUL(sse41)
TFF_DECLARE_QS8_VMUL(avx2)
TFF_DECLARE_QS8_VMUL(neon)

typedef struct tff_qs8_vmul_config {
  uint32_t isa;
  tff_qs8_vmul_fn vmul, vmulc;
  const char *vmul_name, *vmulc_name;
} tff_qs8_vmul_config;

extern const tff_qs8_vmul_config tff_qs8_vmul_configs[];
extern const int tff_qs8_vmul_num_configs;
const tff_qs8_vmul_config* tff_qs8_vmul_select(uint32_t isa_mask);

/* The scalar twin's element, from the product of the centred inputs. */
static inline int8_t tff_qs8_vmul_elem(int32_t prod, const tff_qs8_mul_minmax_fp32_params* p) {
  float v = (float)prod * p->scale;
  v = v < p->fmin ? p->fmin : v;
  v = v > p->fmax ? p->fmax : v;
  const float biased = v + 12582912.0f;
  int32_t bits;
  memcpy(&bits, &biased, sizeof bits);
  return (int8_t)(bits - 0x4B400000 + p->zo);
}

/* BLOCK(a, b or NULL, out, yb, p) handles W elements (yb = b[0] − zb for
 * vmulc), the scalar element the rest. */
#define TFF_QS8_VMUL_KERNELS(ISA, W, BLOCK)                                                 \
  static inline void run(size_t n, const int8_t* a, const int8_t* b, int8_t* out,           \
                         const tff_qs8_mul_minmax_fp32_params* p, int32_t yb, int with_b) { \
    size_t i = 0;                                                                           \
    for (; i + (W) <= n; i += (W)) BLOCK(a + i, with_b ? b + i : NULL, out + i, yb, p);     \
    for (; i < n; ++i)                                                                      \
      out[i] = tff_qs8_vmul_elem((a[i] - p->za) * (with_b ? b[i] - p->zb : yb), p);         \
  }                                                                                         \
  void tff_qs8_vmul_minmax_fp32_ukernel__##ISA(size_t n, const int8_t* a, const int8_t* b,  \
                                               int8_t* out,                                 \
                                               const tff_qs8_mul_minmax_fp32_params* p) {   \
    run(n, a, b, out, p, 0, 1);                                                             \
  }                                                                                         \
  void tff_qs8_vmulc_minmax_fp32_ukernel__##ISA(size_t n, const int8_t* a, const int8_t* b, \
                                                int8_t* out,                                \
                                                const tff_qs8_mul_minmax_fp32_params* p) {  \
    run(n, a, b, out, p, b[0] - p->zb, 0);                                                  \
  }

#endif /* TFF_UKERNELS_QS8_VMUL_H_ */
