/* libFuzzer harness over the C core: model reader, graph construction,
 * allocate (every node's prepare and the arena plan) and one invoke.
 *
 *   tests/fuzz/run_fuzz.sh            builds it with clang and runs it
 *
 * Each input is a candidate .tflite file. It is copied into a fresh malloc'd
 * buffer of exactly its size (so ASan sees any read past the end, and the
 * alignment is what a Python bytes object or an mmap gives: at least 16).
 * The last byte picks the numerics (odd = reference), so both kernel sets
 * are reached from the same corpus. Inputs of the primary subgraph are zero
 * filled before the one invoke, like the Python fuzz tests.
 *
 * Two harness limits keep one input within seconds, and are not limits of the
 * runtime: an arena above TFF_FUZZ_MAX_ARENA is planned but not invoked, and
 * so is a graph whose input bytes exceed it (the runtime accepts both; they
 * only cost time and memory). Every status is acceptable; only a sanitizer
 * report, a signal or a timeout is a finding.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "runtime/interpreter.h"

#ifndef TFF_FUZZ_MAX_ARENA
#define TFF_FUZZ_MAX_ARENA ((size_t)1 << 20)
#endif

int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  const char* bad = NULL;
  return tff_cpu_init(&bad) == 0 ? 0 : 1;
}

/* Zero every input of subgraph 0; returns their total bytes. */
static size_t zero_inputs(tff_interpreter* it) {
  TfLiteContext* ctx = tff_interpreter_context(it, 0);
  const TfLiteIntArray* in = tff_subgraph_inputs(it, 0);
  size_t total = 0;
  for (int k = 0; in != NULL && k < in->size; ++k) {
    const int t = in->data[k];
    if (t < 0 || (size_t)t >= ctx->tensors_size) continue;
    TfLiteTensor* x = &ctx->tensors[t];
    if (x->data.raw == NULL || x->allocation_type == kTfLiteMmapRo) continue;
    total += x->bytes;
    memset(x->data.raw, 0, x->bytes);
  }
  return total;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t* copy = (uint8_t*)malloc(size ? size : 1);
  if (copy == NULL) return 0;
  if (size) memcpy(copy, data, size);
  const int numerics = (size && (data[size - 1] & 1)) ? TFF_NUMERICS_REF : TFF_NUMERICS_DEFAULT;
  char err[1024];
  tff_interpreter* it = NULL;
  if (tff_interpreter_create(copy, size, numerics, 1, 0, &it, err, sizeof(err)) == TFF_OK) {
    if (tff_interpreter_allocate(it, 0) == TFF_OK &&
        tff_interpreter_arena_bytes(it, 0) <= TFF_FUZZ_MAX_ARENA &&
        zero_inputs(it) <= TFF_FUZZ_MAX_ARENA) {
      (void)tff_interpreter_invoke(it, 0);
    }
    tff_interpreter_destroy(it);
  }
  free(copy);
  return 0;
}
