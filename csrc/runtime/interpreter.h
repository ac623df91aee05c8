/* The tflite_fast interpreter C API used by src/_core.pyx.
 *
 * An interpreter owns a parsed model and one TFLite-ABI graph per subgraph:
 * a contiguous TfLiteTensor array, TfLiteNodes with their registrations, and
 * a TfLiteContext whose impl_ points back at the subgraph. Errors are
 * collected in the interpreter's error buffer (tff_interpreter_error) and
 * returned as tff_status; nothing here touches Python.
 */
#ifndef TFLITE_FAST_RUNTIME_INTERPRETER_H_
#define TFLITE_FAST_RUNTIME_INTERPRETER_H_

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "planner.h"
#include "tflite_fast/common.h"
#include "tflite_fast/status.h"

typedef enum tff_numerics {
  TFF_NUMERICS_DEFAULT = 0, /* bit-exact with ai-edge-litert AUTO on x86 */
  TFF_NUMERICS_REF = 1,     /* bit-exact with BUILTIN_REF */
} tff_numerics;

typedef struct tff_interpreter tff_interpreter;

/* Creates from bytes the caller keeps alive (model_content). */
tff_status tff_interpreter_create(const uint8_t* buf, size_t size, int numerics,
                                  int num_threads, int preserve_all_tensors,
                                  tff_interpreter** out, char* err, size_t err_size);
/* Creates from a file, mapped read-only; the interpreter owns the mapping. */
tff_status tff_interpreter_create_from_file(const char* path, int numerics, int num_threads,
                                            int preserve_all_tensors, tff_interpreter** out,
                                            char* err, size_t err_size);
void tff_interpreter_destroy(tff_interpreter* it);
/* Resolves every node of custom op `name` (all subgraphs) to `reg`, calling
 * its init with the node's custom options. Before delegates and allocate.
 * Returns the number of nodes resolved, or -1 (message in the error). */
int tff_interpreter_register_custom(tff_interpreter* it, const char* name,
                                    const TfLiteRegistration* reg);

/* Messages reported since the last API call that failed (NUL-terminated). */
const char* tff_interpreter_error(const tff_interpreter* it);

const tff_model* tff_interpreter_model(const tff_interpreter* it);
int tff_interpreter_num_subgraphs(const tff_interpreter* it);
TfLiteContext* tff_interpreter_context(tff_interpreter* it, int subgraph);

/* The node table of a subgraph (including appended delegate nodes). */
int tff_subgraph_num_nodes(tff_interpreter* it, int subgraph);
TfLiteStatus tff_subgraph_node(tff_interpreter* it, int subgraph, int node,
                               TfLiteNode** out_node, TfLiteRegistration** out_reg);
const TfLiteIntArray* tff_subgraph_inputs(tff_interpreter* it, int subgraph);
const TfLiteIntArray* tff_subgraph_outputs(tff_interpreter* it, int subgraph);
const TfLiteIntArray* tff_subgraph_execution_plan(tff_interpreter* it, int subgraph);

/* Prepare every node, plan and allocate the arena. Idempotent. */
tff_status tff_interpreter_allocate(tff_interpreter* it, int subgraph);
int tff_interpreter_is_allocated(tff_interpreter* it, int subgraph);
/* One caller at a time per interpreter: enter returns 1 and marks the
 * interpreter busy, or returns 0 when another thread has it (an atomic
 * test-and-set, so it holds without the GIL: invoke runs without it, and
 * free-threaded Python has none). leave clears the mark. The boundary wraps
 * invoke, allocate, resize, delegate application and profiling switches in
 * them: a second thread is refused instead of racing over the arena. */
int tff_interpreter_enter(tff_interpreter* it);
void tff_interpreter_leave(tff_interpreter* it);

/* Runs every step; call without the GIL. */
tff_status tff_interpreter_invoke(tff_interpreter* it, int subgraph);

/* Resize an input; strict allows only dims that are -1 in shape_signature.
 * A real change marks the subgraph unallocated. */
tff_status tff_interpreter_resize_input(tff_interpreter* it, int subgraph, int tensor,
                                        const int* dims, int rank, int strict);
/* Zero the legacy variable tensors (TFLite's ResetVariableTensors). */
tff_status tff_interpreter_reset_variables(tff_interpreter* it);

/* Per-node timing inside the C plan loop (off by default: the hot loop then
 * reads no clock). Enabling resets the counters. */
tff_status tff_interpreter_set_profiling(tff_interpreter* it, int on);
/* Counters of subgraph s, indexed by node; returns the node count (0 when
 * profiling is off). */
int tff_interpreter_profile(tff_interpreter* it, int s, const uint64_t** ns, const uint64_t** count);

/* The memory plan of the last allocate: arena size and per-tensor entries. */
size_t tff_interpreter_arena_bytes(tff_interpreter* it, int subgraph);
const tff_plan_entry* tff_interpreter_memory_plan(tff_interpreter* it, int subgraph, int* n);

#endif /* TFLITE_FAST_RUNTIME_INTERPRETER_H_ */
