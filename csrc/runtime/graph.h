/* The runtime's private graph state behind TfLiteContext.impl_: shared by
 * the files of csrc/runtime (interpreter, delegates, thread pool); kernels
 * never see it. */
#ifndef TFLITE_FAST_RUNTIME_GRAPH_H_
#define TFLITE_FAST_RUNTIME_GRAPH_H_

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "interpreter.h"

/* One step of the plan loop, all it reads before the call in one place: a
 * node's kernel, node and state, or (invoke NULL) window ~ni's load. */
typedef struct tff_run_step {
  TfLiteStatus (*invoke)(TfLiteContext*, TfLiteNode*);
  TfLiteNode* node;
  const void* user_data; /* prefetched while the step before runs, */
  int in0, out0;         /* and these tensors' structs (-1: none) */
  int ni;
} tff_run_step;

typedef struct tff_subgraph {
  struct tff_interpreter* it;
  int index;
  TfLiteContext ctx;
  TfLiteTensor* tensors;
  int num_tensors;
  int cap_tensors;
  uint8_t* owns_data;         /* per tensor: data was malloc'd here */
  int num_nodes;
  TfLiteNode* nodes;
  TfLiteRegistration* regs;
  TfLiteIntArray* plan;       /* node indices in execution order */
  tff_run_step* run;          /* the plan loop's steps: no views' no-ops, windows' loads (window.h) */
  int run_size;
  TfLiteIntArray* inputs;
  TfLiteIntArray* outputs;
  void* arena;
  size_t arena_bytes;
  TfLiteIntArray* alias;      /* per tensor: the tensor whose buffer it shares (fuse.c) or -1; NULL if none */
  int* view_base;             /* per tensor: the tensor it is a view of (alias.c) or -1; NULL if none */
  size_t* view_at;            /* per tensor: the view's byte offset in its base */
  size_t* view_run;           /* per tensor: a strided view's bytes per row, else 0 */
  size_t* view_pitch;         /* per tensor: a strided view's base bytes per row */
  struct tff_view_reader* readers; /* strided readers declared at prepare (alias.c) */
  int num_readers, cap_readers;
  int view_slots;             /* tensors view_base covers */
  struct tff_window* windows; /* streaming state windows (window.h) */
  int num_windows;
  void* window_mem;           /* the windows' buffers */
  tff_plan_entry* entries;
  int num_entries;
  int allocated;
  int running;                /* guards against recursive invocation and preparation */
  int lazy_from;              /* steps from here are prepared at invoke (after a dynamic tensor) */
  uint64_t* prof_ns;          /* per node: total invoke time, when profiling */
  uint64_t* prof_count;
  TfLiteExternalContext* external[kTfLiteMaxExternalContexts];
  struct tff_delegation* delegation; /* delegate.c's state; NULL until a delegate is applied */
  /* Large persistent buffers (packed weights) prepared by allocate_subgraph
   * come from one region (tff_persistent_alloc): reserved at the first such
   * request, bump-allocated, reused from its start by the next full
   * re-prepare, released at destroy. */
  char* region;
  size_t region_size, region_used;
  int region_open;            /* 1 while allocate_subgraph prepares its steps */
  int region_tried;           /* the reservation was attempted (it may be NULL) */
} tff_subgraph;

struct tff_interpreter {
  tff_model* model;
  void* map;                  /* file mapping, or NULL for caller bytes */
  size_t map_size;
  size_t model_size;          /* bytes of the model: bounds the persistent region */
  int numerics;
  int num_threads;
  int preserve_all_tensors;
  int profiling;
  int num_subgraphs;
  tff_subgraph* sgs;
  struct tff_resources* resources;
  struct tff_threadpool* pool; /* num_threads - 1 workers, created at first use */
  atomic_int claimed;          /* tff_interpreter_claim */
  char err[8192];
  size_t err_len;
};

static inline tff_subgraph* tff_sg(const TfLiteContext* ctx) { return (tff_subgraph*)ctx->impl_; }

#endif /* TFLITE_FAST_RUNTIME_GRAPH_H_ */
