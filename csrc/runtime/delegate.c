/* Delegate application; see delegate.h. Follows TFLite's
 * Subgraph::ModifyGraphWithDelegate and ReplaceNodeSubsetsWithDelegateKernels
 * (docs/delegate-abi.md §4.2-4.3): delegate nodes are appended to the node
 * table, the replaced nodes stay there outside the plan, and removing the
 * delegates truncates the table and restores the plan saved before the
 * first one. */
#include "delegate.h"

#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "partition.h"
#include "subgraph.h"
#include "tflite_fast/builtin_ops.h"

typedef struct tff_delegation {
  TfLiteIntArray* orig_plan; /* the plan before the first delegate, or NULL */
  int orig_num_nodes;
  int immutable;             /* a static delegate was applied (TFLite's kStateInvokableAndImmutable) */
  int greedy, fuse;          /* partitioning mode while a Prepare runs */
  TfLiteDelegateParams* preview; /* PreviewDelegatePartitioning's output, freed when Prepare returns */
  int num_preview;
  struct applied { TfLiteDelegate* d; int greedy, fuse; } applied[TFF_MAX_DELEGATES];
  int num_applied;
  int undone;                /* delegates removed by a resize, re-applied at allocate */
  int switches;              /* open switches to the delegate callbacks (Prepare, Acquire) */
} tff_delegation;

enum { kApplied = 0, kFailed, kDelegateError }; /* kDelegateError removes every delegate */

static void free_preview(tff_delegation* dl) {
  for (int i = 0; i < dl->num_preview; ++i) {
    TfLiteIntArrayFree(dl->preview[i].nodes_to_replace);
    TfLiteIntArrayFree(dl->preview[i].input_tensors);
    TfLiteIntArrayFree(dl->preview[i].output_tensors);
  }
  free(dl->preview);
  dl->preview = NULL;
  dl->num_preview = 0;
}

/* The epoch partition of the current plan (fusion is also off with
 * preserve_all_tensors, as in LiteRT 2.3). */
static TfLiteStatus partition(TfLiteContext* ctx, const TfLiteIntArray* claimed,
                              tff_node_subset** subs, int* n) {
  tff_subgraph* sg = tff_sg(ctx);
  if (claimed == NULL) {
    ctx->ReportError(ctx, "nodes_to_replace is NULL.");
    return kTfLiteError;
  }
  for (int i = 0; i < claimed->size; ++i) {
    if (claimed->data[i] < 0 || claimed->data[i] >= sg->num_nodes) {
      ctx->ReportError(ctx, "Invalid node index %d in nodes_to_replace (the graph has %d nodes).",
                       claimed->data[i], sg->num_nodes);
      return kTfLiteError;
    }
  }
  const tff_partition_graph g = {sg->plan, sg->nodes, sg->num_nodes, sg->num_tensors, sg->outputs};
  const tff_delegation* dl = sg->delegation;
  if (tff_partition(&g, claimed, dl->greedy, dl->fuse && !sg->it->preserve_all_tensors, subs, n) !=
      kTfLiteOk) {
    ctx->ReportError(ctx, "Failed to partition the graph for delegation (cycle or out of memory).");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

/* The struct followed by its three arrays, in one malloc block that the
 * node owns as builtin_data (doc §1.6). */
static TfLiteDelegateParams* make_params(TfLiteDelegate* d, const tff_node_subset* s) {
  const TfLiteIntArray* parts[3] = {s->nodes, s->inputs, s->outputs};
  size_t bytes = sizeof(TfLiteDelegateParams);
  for (int i = 0; i < 3; ++i) bytes += (size_t)TfLiteIntArrayGetSizeInBytes(parts[i]->size);
  TfLiteDelegateParams* p = (TfLiteDelegateParams*)malloc(bytes);
  if (p == NULL) return NULL;
  char* at = (char*)(p + 1);
  TfLiteIntArray** dst[3] = {&p->nodes_to_replace, &p->input_tensors, &p->output_tensors};
  for (int i = 0; i < 3; ++i) {
    *dst[i] = (TfLiteIntArray*)at;
    memcpy(at, parts[i], (size_t)TfLiteIntArrayGetSizeInBytes(parts[i]->size));
    at += TfLiteIntArrayGetSizeInBytes(parts[i]->size);
  }
  p->delegate = d;
  return p;
}

/* Grows the node table by k zeroed nodes (capacity only; num_nodes is
 * advanced as nodes are filled). Pointers into the table are invalidated,
 * as in TFLite. */
static TfLiteStatus grow_nodes(tff_subgraph* sg, int k) {
  const size_t n = (size_t)sg->num_nodes + (size_t)k;
  TfLiteNode* nodes = (TfLiteNode*)realloc(sg->nodes, sizeof(TfLiteNode) * n);
  if (nodes == NULL) return kTfLiteError;
  sg->nodes = nodes;
  TfLiteRegistration* regs = (TfLiteRegistration*)realloc(sg->regs, sizeof(TfLiteRegistration) * n);
  if (regs == NULL) return kTfLiteError;
  sg->regs = regs;
  memset(sg->nodes + sg->num_nodes, 0, sizeof(TfLiteNode) * (size_t)k);
  memset(sg->regs + sg->num_nodes, 0, sizeof(TfLiteRegistration) * (size_t)k);
  if (sg->prof_ns != NULL) { /* per-node counters must cover the new nodes */
    uint64_t* ns = (uint64_t*)realloc(sg->prof_ns, sizeof(uint64_t) * (n + 1));
    if (ns == NULL) return kTfLiteError;
    sg->prof_ns = ns;
    uint64_t* count = (uint64_t*)realloc(sg->prof_count, sizeof(uint64_t) * (n + 1));
    if (count == NULL) return kTfLiteError;
    sg->prof_count = count;
    for (size_t i = (size_t)sg->num_nodes; i <= n; ++i) ns[i] = count[i] = 0;
  }
  return kTfLiteOk;
}

/* Adds one delegate node for claimed subset `s`; its index is num_nodes - 1. */
static TfLiteStatus add_delegate_node(TfLiteContext* ctx, const TfLiteRegistration* r,
                                      const tff_node_subset* s, TfLiteDelegate* d) {
  tff_subgraph* sg = tff_sg(ctx);
  const int ni = sg->num_nodes++;
  TfLiteNode* node = &sg->nodes[ni];
  sg->regs[ni] = *r;
  node->inputs = TfLiteIntArrayCopy(s->inputs);
  node->outputs = TfLiteIntArrayCopy(s->outputs);
  node->intermediates = TfLiteIntArrayCreate(0);
  node->temporaries = TfLiteIntArrayCreate(0);
  node->delegate = d;
  TfLiteDelegateParams* p = make_params(d, s);
  node->builtin_data = p;
  if (!p || !node->inputs || !node->outputs || !node->intermediates || !node->temporaries) {
    ctx->ReportError(ctx, "Out of memory while adding a delegate node.");
    return kTfLiteError;
  }
  if (r->init) {
    void* user_data = r->init(ctx, (const char*)p, 0);
    if (user_data == TfLiteKernelInitFailed()) {
      ctx->ReportError(ctx, "Failed to initialize kernel.");
      return kTfLiteError;
    }
    sg->nodes[ni].user_data = user_data;
  }
  for (int i = 0; i < s->outputs->size; ++i) {
    TfLiteTensor* t = &sg->tensors[s->outputs->data[i]];
    if (t->delegate != NULL && t->delegate != d) {
      ctx->ReportError(ctx, "tensor->delegate == nullptr || tensor->delegate == delegate was not true.");
      return kTfLiteError;
    }
    t->delegate = d;
  }
  return kTfLiteOk;
}

static TfLiteStatus replace_node_subsets(TfLiteContext* ctx, TfLiteRegistration reg,
                                         const TfLiteIntArray* claimed, TfLiteDelegate* d) {
  tff_subgraph* sg = tff_sg(ctx);
  /* Only the V1 prefix (init..version): a delegate built with older headers
   * passed fewer bytes, the rest is its stack (doc §1.9.1). */
  TfLiteRegistration r;
  memset(&r, 0, sizeof(r));
  r.init = reg.init;
  r.free = reg.free;
  r.prepare = reg.prepare;
  r.invoke = reg.invoke;
  r.profiling_string = reg.profiling_string;
  r.custom_name = reg.custom_name;
  r.version = reg.version;
  r.builtin_code = kTfLiteBuiltinDelegate;
  if (claimed != NULL && claimed->size == 0) return kTfLiteOk;
  tff_node_subset* subs;
  int n;
  if (partition(ctx, claimed, &subs, &n) != kTfLiteOk) return kTfLiteError;
  int k = 0, steps = 0;
  for (int i = 0; i < n; ++i) {
    k += subs[i].claimed;
    steps += subs[i].claimed ? 1 : subs[i].nodes->size;
  }
  TfLiteIntArray* plan = TfLiteIntArrayCreate(steps);
  TfLiteStatus status = kTfLiteError;
  if (plan == NULL || grow_nodes(sg, k) != kTfLiteOk) {
    ctx->ReportError(ctx, "Out of memory while adding delegate nodes.");
    goto done;
  }
  int at = 0;
  for (int i = 0; i < n; ++i) {
    if (!subs[i].claimed) {
      for (int j = 0; j < subs[i].nodes->size; ++j) plan->data[at++] = subs[i].nodes->data[j];
      continue;
    }
    if (add_delegate_node(ctx, &r, &subs[i], d) != kTfLiteOk) goto done;
    plan->data[at++] = sg->num_nodes - 1;
  }
  TfLiteIntArrayFree(sg->plan);
  sg->plan = plan;
  plan = NULL;
  sg->allocated = 0;
  status = kTfLiteOk;
done:
  TfLiteIntArrayFree(plan);
  tff_subsets_free(subs, n);
  return status;
}

static TfLiteStatus preview_partitioning(TfLiteContext* ctx, const TfLiteIntArray* claimed,
                                         TfLiteDelegateParams** out, int* num) {
  tff_delegation* dl = tff_sg(ctx)->delegation;
  *out = NULL;
  *num = 0;
  free_preview(dl);
  tff_node_subset* subs;
  int n;
  if (partition(ctx, claimed, &subs, &n) != kTfLiteOk) return kTfLiteError;
  int k = 0;
  for (int i = 0; i < n; ++i) k += subs[i].claimed;
  dl->preview = (TfLiteDelegateParams*)calloc((size_t)(k ? k : 1), sizeof(TfLiteDelegateParams));
  if (dl->preview == NULL) {
    tff_subsets_free(subs, n);
    ctx->ReportError(ctx, "Out of memory in PreviewDelegatePartitioning.");
    return kTfLiteError;
  }
  for (int i = 0; i < n; ++i) { /* the arrays move into the preview */
    if (!subs[i].claimed) continue;
    TfLiteDelegateParams* p = &dl->preview[dl->num_preview++];
    p->nodes_to_replace = subs[i].nodes;
    p->input_tensors = subs[i].inputs;
    p->output_tensors = subs[i].outputs;
    subs[i].nodes = subs[i].inputs = subs[i].outputs = NULL;
  }
  tff_subsets_free(subs, n);
  *out = dl->preview;
  *num = dl->num_preview;
  return kTfLiteOk;
}

static TfLiteStatus get_execution_plan(TfLiteContext* ctx, TfLiteIntArray** plan) {
  *plan = tff_sg(ctx)->plan;
  return kTfLiteOk;
}

static TfLiteStatus get_node_and_registration(TfLiteContext* ctx, int node, TfLiteNode** n,
                                              TfLiteRegistration** r) {
  const tff_subgraph* sg = tff_sg(ctx);
  return tff_subgraph_node(sg->it, sg->index, node, n, r);
}

static tff_delegation* delegation_of(tff_subgraph* sg) {
  if (sg->delegation == NULL) sg->delegation = (tff_delegation*)calloc(1, sizeof(tff_delegation));
  return sg->delegation;
}

static void switch_context(tff_subgraph* sg, int on);

/* The acquired subgraph gets the delegate callbacks (and the acquirer's
 * partitioning mode) until it is released, as in TFLite. */
static TfLiteStatus acquire_subgraph_context(TfLiteContext* ctx, int index, TfLiteContext** out) {
  tff_interpreter* it = tff_sg(ctx)->it;
  if (index < 0 || index >= it->num_subgraphs) {
    ctx->ReportError(ctx, "Invalid subgraph index %d (%d subgraphs).", index, it->num_subgraphs);
    return kTfLiteError;
  }
  tff_delegation* dl = delegation_of(&it->sgs[index]);
  if (dl == NULL) {
    ctx->ReportError(ctx, "Out of memory in AcquireSubgraphContext.");
    return kTfLiteError;
  }
  dl->greedy = tff_sg(ctx)->delegation->greedy;
  dl->fuse = tff_sg(ctx)->delegation->fuse;
  *out = &it->sgs[index].ctx;
  switch_context(&it->sgs[index], 1);
  return kTfLiteOk;
}

static TfLiteStatus release_subgraph_context(TfLiteContext* ctx, int index) {
  tff_interpreter* it = tff_sg(ctx)->it;
  if (index < 0 || index >= it->num_subgraphs) {
    ctx->ReportError(ctx, "Invalid subgraph index %d (%d subgraphs).", index, it->num_subgraphs);
    return kTfLiteError;
  }
  switch_context(&it->sgs[index], 0);
  return kTfLiteOk;
}

static TfLiteStatus forbidden(TfLiteContext* ctx) {
  ctx->ReportError(ctx, "The function is forbidden if not calling in delegate.");
  return kTfLiteError;
}

static TfLiteStatus forbidden_plan(TfLiteContext* ctx, TfLiteIntArray** plan) {
  (void)plan;
  return forbidden(ctx);
}

static TfLiteStatus forbidden_node(TfLiteContext* ctx, int node, TfLiteNode** n,
                                   TfLiteRegistration** r) {
  (void)node; (void)n; (void)r;
  return forbidden(ctx);
}

static TfLiteStatus forbidden_replace(TfLiteContext* ctx, TfLiteRegistration r,
                                      const TfLiteIntArray* nodes, TfLiteDelegate* d) {
  (void)r; (void)nodes; (void)d;
  return forbidden(ctx);
}

static TfLiteStatus forbidden_preview(TfLiteContext* ctx, const TfLiteIntArray* nodes,
                                      TfLiteDelegateParams** out, int* n) {
  (void)nodes; (void)out; (void)n;
  return forbidden(ctx);
}

static TfLiteStatus forbidden_acquire(TfLiteContext* ctx, int index, TfLiteContext** out) {
  (void)index; (void)out;
  return forbidden(ctx);
}

static TfLiteStatus forbidden_release(TfLiteContext* ctx, int index) {
  (void)index;
  return forbidden(ctx);
}

static void set_callbacks(TfLiteContext* ctx, int on) {
  ctx->GetExecutionPlan = on ? get_execution_plan : forbidden_plan;
  ctx->GetNodeAndRegistration = on ? get_node_and_registration : forbidden_node;
  ctx->ReplaceNodeSubsetsWithDelegateKernels = on ? replace_node_subsets : forbidden_replace;
  ctx->PreviewDelegatePartitioning = on ? preview_partitioning : forbidden_preview;
  ctx->AcquireSubgraphContext = on ? acquire_subgraph_context : forbidden_acquire;
  ctx->ReleaseSubgraphContext = on ? release_subgraph_context : forbidden_release;
}

void tff_delegate_context_init(TfLiteContext* ctx) { set_callbacks(ctx, 0); }

/* Switches nest as in TFLite: the callbacks stay on until every switch on
 * (a Prepare, an Acquire) is matched by a switch off (its end, a Release),
 * so a context acquired and never released keeps them. */
static void switch_context(tff_subgraph* sg, int on) {
  tff_delegation* dl = sg->delegation;
  if (dl == NULL) return; /* never switched on */
  if (on) {
    if (dl->switches++ == 0) set_callbacks(&sg->ctx, 1);
  } else if (dl->switches > 0 && --dl->switches == 0) {
    set_callbacks(&sg->ctx, 0);
    free_preview(dl);
  }
}

static void free_delegate_node(tff_subgraph* sg, int i) {
  TfLiteNode* n = &sg->nodes[i];
  if (sg->regs[i].free && n->user_data) sg->regs[i].free(&sg->ctx, n->user_data);
  TfLiteIntArrayFree(n->inputs);
  TfLiteIntArrayFree(n->outputs);
  TfLiteIntArrayFree(n->intermediates);
  TfLiteIntArrayFree(n->temporaries);
  free(n->builtin_data);
  memset(n, 0, sizeof(*n));
}

/* TFLite's UndoAllDelegates: back to the plan and node table of before the
 * first delegate; the list of applied delegates is kept for a redo. */
static void undo_all(tff_subgraph* sg) {
  tff_delegation* dl = sg->delegation;
  if (dl == NULL || dl->orig_plan == NULL) return;
  for (int i = dl->orig_num_nodes; i < sg->num_nodes; ++i) free_delegate_node(sg, i);
  sg->num_nodes = dl->orig_num_nodes;
  TfLiteIntArrayFree(sg->plan);
  sg->plan = dl->orig_plan;
  dl->orig_plan = NULL;
  /* A tensor's owner stays while it holds a buffer handle: TFLite never
   * clears owners, and the owner frees the handle at destroy. */
  for (int t = 0; t < sg->num_tensors; ++t)
    if (sg->tensors[t].buffer_handle == kTfLiteNullBufferHandle) sg->tensors[t].delegate = NULL;
  dl->immutable = 0;
  sg->allocated = 0;
}

/* TFLite's RemoveAllDelegates: undo, and forget them. */
static void remove_all(tff_subgraph* sg) {
  undo_all(sg);
  if (sg->delegation != NULL) sg->delegation->num_applied = sg->delegation->undone = 0;
}

static int has_dynamic_tensors(const tff_subgraph* sg) {
  for (int t = 0; t < sg->num_tensors; ++t)
    if (sg->tensors[t].allocation_type == kTfLiteDynamic) return 1;
  return 0;
}

static int delegation_failed(tff_subgraph* sg) {
  remove_all(sg);
  sg->ctx.ReportError(&sg->ctx, "Restored original execution plan after delegate application failure.");
  return kDelegateError;
}

static int apply_to_subgraph(tff_subgraph* sg, TfLiteDelegate* d, int greedy, int fuse) {
  TfLiteContext* ctx = &sg->ctx;
  tff_delegation* dl = delegation_of(sg);
  if (dl == NULL) {
    ctx->ReportError(ctx, "Out of memory while applying a delegate.");
    return kFailed;
  }
  if (dl->num_applied == TFF_MAX_DELEGATES) {
    ctx->ReportError(ctx, "More than %d delegates.", TFF_MAX_DELEGATES);
    return kFailed;
  }
  const int dynamic = (d->flags & kTfLiteDelegateFlagsAllowDynamicTensors) != 0;
  const int was_immutable = dl->immutable, was_allocated = sg->allocated;
  if (dl->immutable) {
    sg->allocated = 0; /* shapes are known: just force re-preparation */
    dl->immutable = 0;
  } else if (!dynamic) {
    if (tff_subgraph_allocate(ctx) != kTfLiteOk) return kFailed;
    /* TFLite only logs this (not through the error reporter) and returns
     * kTfLiteApplicationError, so the Python message is empty. */
    if (has_dynamic_tensors(sg)) return kFailed;
  }
  if (dl->orig_plan == NULL) {
    dl->orig_plan = TfLiteIntArrayCopy(sg->plan);
    dl->orig_num_nodes = sg->num_nodes;
    if (dl->orig_plan == NULL) {
      ctx->ReportError(ctx, "Out of memory while applying a delegate.");
      return kFailed;
    }
  }
  dl->greedy = greedy;
  dl->fuse = fuse;
  switch_context(sg, 1);
  TfLiteStatus status = kTfLiteError;
  if (d->Prepare != NULL) status = d->Prepare(ctx, d);
  else ctx->ReportError(ctx, "The delegate has no Prepare (opaque delegates are not supported).");
  switch_context(sg, 0);
  if (status != kTfLiteOk) return delegation_failed(sg);
  if (!dynamic) { /* kernels prepare now; the graph becomes immutable */
    sg->allocated = 0;
    if (tff_subgraph_allocate(ctx) != kTfLiteOk) return delegation_failed(sg);
    dl->immutable = 1;
  } else if (was_immutable) {
    sg->allocated = 0;
    if (tff_subgraph_allocate(ctx) != kTfLiteOk) return delegation_failed(sg);
    if (has_dynamic_tensors(sg)) {
      remove_all(sg);
      ctx->ReportError(ctx, "Cannot allow dynamic tensors due to previous delegation");
      return kDelegateError;
    }
    dl->immutable = 1;
  } else if (was_allocated) {
    if (tff_subgraph_allocate(ctx) != kTfLiteOk) return delegation_failed(sg);
  }
  dl->applied[dl->num_applied++] = (struct applied){d, greedy, fuse};
  return kApplied;
}

static tff_status redo_all(tff_interpreter* it) {
  for (int s = 0; s < it->num_subgraphs; ++s) {
    tff_delegation* dl = it->sgs[s].delegation;
    if (dl == NULL || !dl->undone) continue;
    struct applied todo[TFF_MAX_DELEGATES];
    const int n = dl->num_applied;
    memcpy(todo, dl->applied, sizeof(todo[0]) * (size_t)n);
    dl->num_applied = dl->undone = 0;
    for (int i = 0; i < n; ++i) {
      const int r = apply_to_subgraph(&it->sgs[s], todo[i].d, todo[i].greedy, todo[i].fuse);
      if (r == kApplied) continue;
      if (r == kDelegateError)
        for (int j = 0; j < it->num_subgraphs; ++j) remove_all(&it->sgs[j]);
      return TFF_STATUS_PREPARE_FAILED;
    }
  }
  return TFF_OK;
}

void tff_delegation_before_resize(tff_subgraph* sg) {
  tff_delegation* dl = sg->delegation;
  if (dl == NULL || !dl->immutable) return;
  undo_all(sg);
  dl->undone = 1;
}

tff_status tff_delegation_before_allocate(tff_interpreter* it) { return redo_all(it); }

tff_status tff_interpreter_apply_delegate(tff_interpreter* it, TfLiteDelegate* d, int greedy,
                                          int fuse) {
  it->err_len = 0;
  it->err[0] = '\0';
  if (d == NULL) {
    it->sgs[0].ctx.ReportError(&it->sgs[0].ctx, "Null delegate.");
    return TFF_STATUS_PREPARE_FAILED;
  }
  for (int s = 0; s < it->num_subgraphs; ++s) {
    const int r = apply_to_subgraph(&it->sgs[s], d, greedy, fuse);
    if (r == kApplied) continue;
    if (r == kDelegateError)
      for (int i = 0; i < it->num_subgraphs; ++i) remove_all(&it->sgs[i]);
    return TFF_STATUS_PREPARE_FAILED;
  }
  return TFF_OK;
}

/* TFLite's EnsureTensorDataIsReadable: data a delegate keeps behind a
 * buffer handle is copied into the tensor before the CPU reads it. */
static TfLiteStatus make_readable(tff_subgraph* sg, int t) {
  TfLiteTensor* x = &sg->tensors[t];
  if (!x->data_is_stale) return kTfLiteOk;
  TfLiteContext* ctx = &sg->ctx;
  if (x->delegate == NULL || x->buffer_handle == kTfLiteNullBufferHandle ||
      x->delegate->CopyFromBufferHandle == NULL) {
    ctx->ReportError(ctx, "Tensor %d is stale and has no delegate buffer handle to copy from.", t);
    return kTfLiteError;
  }
  const TfLiteStatus status = x->delegate->CopyFromBufferHandle(ctx, x->delegate, x->buffer_handle, x);
  x->data_is_stale = 0;
  return status;
}

TfLiteStatus tff_delegation_read_inputs(tff_subgraph* sg, const TfLiteNode* node) {
  for (int i = 0; i < node->inputs->size; ++i) {
    const int t = node->inputs->data[i];
    if (t < 0) continue;
    const TfLiteTensor* x = &sg->tensors[t];
    if (x->delegate != NULL && x->delegate != node->delegate && x->data_is_stale &&
        make_readable(sg, t) != kTfLiteOk)
      return kTfLiteError;
  }
  return kTfLiteOk;
}

void tff_delegation_read_outputs(tff_subgraph* sg) {
  if (sg->delegation == NULL) return;
  for (int i = 0; i < sg->outputs->size; ++i) make_readable(sg, sg->outputs->data[i]);
}

void tff_delegation_free(tff_subgraph* sg) {
  /* TFLite's ~Subgraph, after the nodes: the owners of buffer handles free
   * them (undoing a delegate does not). */
  for (int t = 0; t < sg->num_tensors; ++t) {
    TfLiteTensor* x = &sg->tensors[t];
    if (x->buffer_handle != kTfLiteNullBufferHandle && x->delegate != NULL &&
        x->delegate->FreeBufferHandle != NULL)
      x->delegate->FreeBufferHandle(&sg->ctx, x->delegate, &x->buffer_handle);
  }
  for (int i = 0; i < sg->num_nodes; ++i) {
    if (sg->nodes[i].delegate == NULL) continue;
    free(sg->nodes[i].builtin_data); /* the params block (model nodes' data is the model's) */
    sg->nodes[i].builtin_data = NULL;
  }
  if (sg->delegation == NULL) return;
  TfLiteIntArrayFree(sg->delegation->orig_plan);
  free_preview(sg->delegation);
  free(sg->delegation);
  sg->delegation = NULL;
}
