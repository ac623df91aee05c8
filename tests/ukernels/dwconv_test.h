/* The main() both dwconv kernel tests share: every kernel this CPU runs,
 * over tap counts (all of them for an any-tap kernel), channel counts
 * around its tile and around the remainders that whole pairs of tiles
 * leave, output widths 1..MAX_WIDTH, in four modes, each case through
 * the test's run_case(cfg, twin, channels, taps, width, mode) against
 * twin_of(cfg, taps), the scalar twin for that tap count. */
#ifndef TFF_TESTS_DWCONV_TEST_H_
#define TFF_TESTS_DWCONV_TEST_H_

#define DWCONV_TEST_MAIN(config_t, configs, num_configs, twin_of)                           \
  int main(void) {                                                                         \
    int failed = 0;                                                                        \
    for (int i = 0; i < num_configs; ++i) {                                                \
      const config_t* cfg = &configs[i];                                                   \
      if (!isa_runs(cfg->isa, cfg->name)) continue;                                        \
      const size_t any_taps[] = {1, 2, 4, 9, 10, 25, 27};                                  \
      const size_t ntaps = cfg->taps ? 1 : sizeof(any_taps) / sizeof(any_taps[0]);         \
      const size_t tile = cfg->tile, chans[] = {1, tile > 1 ? tile - 1 : 2, tile, tile + 1, \
                                                tile + tile / 2, tile + tile / 2 + 1,      \
                                                2 * tile + 3, 2 * tile + tile / 2 + 1,     \
                                                3 * tile + tile / 2, 16, 33};              \
      int cases = 0, bad = 0;                                                              \
      for (size_t ti = 0; ti < ntaps && !bad; ++ti) {                                      \
        const size_t taps = cfg->taps ? cfg->taps : any_taps[ti];                          \
        const config_t* twin = twin_of(cfg, taps);                                         \
        for (size_t ci = 0; ci < sizeof(chans) / sizeof(chans[0]) && !bad; ++ci)           \
          for (size_t w = 1; w <= MAX_WIDTH && !bad; ++w)                                  \
            for (int mode = 0; mode < 4 && !bad; ++mode, ++cases)                          \
              bad = run_case(cfg, twin, chans[ci], taps, w, mode);                         \
      }                                                                                    \
      if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);                          \
      failed += bad;                                                                       \
    }                                                                                      \
    return failed != 0;                                                                    \
  }

#endif /* TFF_TESTS_DWCONV_TEST_H_ */
