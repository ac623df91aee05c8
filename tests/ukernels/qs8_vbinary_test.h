/* The shared driver of the qs8 elementwise kernel tests (qs8-vadd, qs8-vmul):
 * for every kernel of the family this build has (v and c variants), n from 1
 * to 70 (around every block width) with 8 random cases each, compares the
 * kernel with the scalar twin and the twin with the test's direct formula,
 * also in place (out == a), and checks the guard bytes after out.
 *
 * Before including, define Case (with member `p`, the kernel's params),
 * random_case(Case*) and direct(const Case*, int8_t a, int8_t b). */
#ifndef TFF_TESTS_QS8_VBINARY_TEST_H_
#define TFF_TESTS_QS8_VBINARY_TEST_H_

#include <string.h>

#include "ukernel_test.h"

enum { MAX_N = 70 };

/* 0 when fn matches twin (and direct) on every case; prints PASS or FAIL. */
#define TFF_QS8_VBINARY_CHECK(FN, TWIN, NAME, BROADCAST)                                     \
  do {                                                                                        \
    int cases = 0, bad = 0;                                                                   \
    for (size_t n = 1; n <= MAX_N && !bad; ++n) {                                             \
      for (int rep = 0; rep < 8 && !bad; ++rep) {                                             \
        Case t;                                                                               \
        random_case(&t);                                                                      \
        int8_t a[MAX_N], b[MAX_N], want[MAX_N], got[MAX_N + GUARD_BYTES], inplace[MAX_N];     \
        for (size_t i = 0; i < n; ++i)                                                        \
          a[i] = (int8_t)rnd_range(-128, 127), b[i] = (int8_t)rnd_range(-128, 127);           \
        memset(got, GUARD, sizeof got);                                                       \
        TWIN(n, a, b, want, &t.p);                                                            \
        FN(n, a, b, got, &t.p);                                                               \
        memcpy(inplace, a, n);                                                                \
        FN(n, inplace, b, inplace, &t.p);                                                     \
        for (size_t i = 0; i < n && !bad; ++i) {                                              \
          const int8_t d = direct(&t, a[i], (BROADCAST) ? b[0] : b[i]);                       \
          if (want[i] != d || got[i] != want[i] || inplace[i] != want[i]) {                   \
            printf("FAIL %s: n=%zu i=%zu got %d twin %d direct %d\n", NAME, n, i, got[i],     \
                   want[i], d);                                                               \
            bad = 1;                                                                          \
          }                                                                                   \
        }                                                                                     \
        for (size_t i = n; i < n + GUARD_BYTES && !bad; ++i) {                                \
          if ((uint8_t)got[i] != GUARD) {                                                     \
            printf("FAIL %s: n=%zu wrote past the end\n", NAME, n);                           \
            bad = 1;                                                                          \
          }                                                                                   \
        }                                                                                     \
        ++cases;                                                                              \
      }                                                                                       \
    }                                                                                         \
    if (!bad) printf("PASS %s (%d cases)\n", NAME, cases);                                    \
    failed |= bad;                                                                            \
  } while (0)

/* Random zero points: mostly uniform, sometimes an extreme. */
static inline int32_t random_zero_point(void) {
  const int32_t zps[] = {-128, 127, 0, -1};
  return rnd() % 3 ? rnd_range(-128, 127) : zps[rnd() % 4];
}

#endif /* TFF_TESTS_QS8_VBINARY_TEST_H_ */
