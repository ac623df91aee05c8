/* A family with one kernel per ISA named <P>_ukernel__<isa> of function type
 * <P>_ukernel: the scalar twin, then the ISAs this build has of sse41, avx2
 * and neon, each in a config {fn, name, isa}. TFF_DECLARE_FAMILY (in the
 * family header) declares the kernels, <P>_config, <P>_configs,
 * <P>_num_configs and <P>_select; TFF_DEFINE_CONFIGS (in its config file)
 * defines them. The
 * chosen kernel is the best ISA whose bits are all in isa_mask. A family
 * with other ISAs declares its kernels and TFF_DECLARE_CONFIGS, and defines
 * <P>_configs itself, then TFF_DEFINE_SELECT. A family whose configs carry
 * more (a second kernel, names) declares its own struct with an `isa` field
 * and also selects by TFF_DEFINE_SELECT. */
#ifndef TFF_UKERNELS_SELECT_H_
#define TFF_UKERNELS_SELECT_H_

#include <stdint.h>

#include "cpu/cpu.h"

#define TFF_DECLARE_CONFIGS(P)                      \
  typedef struct {                                  \
    P##_ukernel* fn;                                \
    const char* name;                               \
    uint32_t isa; /* TFF_ISA_* bit, 0 for scalar */ \
  } P##_config;                                     \
  extern const P##_config P##_configs[];            \
  extern const int P##_num_configs;                 \
  const P##_config* P##_select(uint32_t isa_mask);

#define TFF_DECLARE_FAMILY(P)                                                                \
  P##_ukernel P##_ukernel__scalar, P##_ukernel__sse41, P##_ukernel__avx2, P##_ukernel__neon; \
  TFF_DECLARE_CONFIGS(P)

#define TFF_SELECT_ENTRY(P, ISA, BIT) {P##_ukernel__##ISA, #P "_ukernel__" #ISA, BIT},
#if TFF_BUILD_SSE41
#define TFF_SELECT_SSE41(P) TFF_SELECT_ENTRY(P, sse41, TFF_ISA_SSE41)
#else
#define TFF_SELECT_SSE41(P)
#endif
#if TFF_BUILD_AVX2
#define TFF_SELECT_AVX2(P) TFF_SELECT_ENTRY(P, avx2, TFF_ISA_AVX2)
#else
#define TFF_SELECT_AVX2(P)
#endif
#if TFF_BUILD_NEON
#define TFF_SELECT_NEON(P) TFF_SELECT_ENTRY(P, neon, TFF_ISA_NEON)
#else
#define TFF_SELECT_NEON(P)
#endif

/* Kernels with NEON on aarch64 only, their files empty on armv7 (which runs
 * the scalar twin): armv7 NEON always flushes denormals (float kernels that
 * must match the twin on them) and has no float64 vectors. */
#if TFF_BUILD_NEON && defined(__aarch64__)
#define TFF_BUILD_NEON64 1
#define TFF_SELECT_NEON64(P) TFF_SELECT_NEON(P)
#else
#define TFF_SELECT_NEON64(P)
#endif

#define TFF_DEFINE_SELECT(P)                                                       \
  const int P##_num_configs = (int)(sizeof(P##_configs) / sizeof(P##_configs[0])); \
  const P##_config* P##_select(uint32_t isa_mask) {                                \
    const P##_config* best = &P##_configs[0];                                      \
    for (int i = 1; i < P##_num_configs; ++i) {                                    \
      const P##_config* c = &P##_configs[i];                                       \
      if ((isa_mask & c->isa) == c->isa && c->isa > best->isa) best = c;           \
    }                                                                              \
    return best;                                                                   \
  }

#define TFF_DEFINE_CONFIGS(P)                                                         \
  const P##_config P##_configs[] = {TFF_SELECT_ENTRY(P, scalar, TFF_ISA_SCALAR)       \
                                    TFF_SELECT_SSE41(P) TFF_SELECT_AVX2(P)            \
                                    TFF_SELECT_NEON(P)};                              \
  TFF_DEFINE_SELECT(P)

#endif /* TFF_UKERNELS_SELECT_H_ */
