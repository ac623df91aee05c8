/* Graph construction, allocation (prepare + arena plan) and the plan loop.
 * See interpreter.h for the API and DESIGN.md "Life of a model". */
#include "interpreter.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/mediapipe/mediapipe_ops.h"
#include "../ops/ops.h"
#include "alias.h"
#include "delegate.h"
#include "fuse.h"
#include "graph.h"
#include "platform.h"
#include "subgraph.h"
#include "threadpool_internal.h"
#include "window.h"
#include "tflite_fast/builtin_ops.h"

/* ---- error buffer ---- */

static void clear_error(tff_interpreter* it) {
  it->err_len = 0;
  it->err[0] = '\0';
}

static void append_error_v(tff_interpreter* it, const char* fmt, va_list ap) {
  if (it->err_len + 1 >= sizeof(it->err)) return;
  const int n = vsnprintf(it->err + it->err_len, sizeof(it->err) - it->err_len, fmt, ap);
  if (n > 0) {
    it->err_len += (size_t)n;
    if (it->err_len >= sizeof(it->err)) it->err_len = sizeof(it->err) - 1;
  }
}

static void append_error(tff_interpreter* it, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  append_error_v(it, fmt, ap);
  va_end(ap);
}

const char* tff_interpreter_error(const tff_interpreter* it) { return it->err; }

/* ---- context callbacks ---- */

static tff_subgraph* SG(const TfLiteContext* ctx) { return (tff_subgraph*)ctx->impl_; }

int tff_numerics_ref(const TfLiteContext* ctx) {
  return SG(ctx)->it->numerics == TFF_NUMERICS_REF;
}

/* ---- persistent buffers (kernel_util.h) ---- */

/* Smaller blocks stay on the heap: a region's first touch zeroes a whole
 * 2 MiB page, which costs more than a few 4 KiB faults. */
enum { kRegionMin = 64 << 10 };

static size_t converted_bytes(const tff_subgraph* sg); /* below, with prepare_steps */

void* tff_persistent_alloc(TfLiteContext* ctx, size_t bytes) {
  tff_subgraph* sg = SG(ctx);
  if (bytes > SIZE_MAX / 2) return NULL;
  const size_t need = (bytes + TFF_ARENA_ALIGN - 1) & ~(size_t)(TFF_ARENA_ALIGN - 1);
  if (sg->region_open && bytes >= kRegionMin) {
    if (!sg->region_tried) {
      /* Packed weights are about the size of the weights: twice the model
       * and a huge page leave room for padding, plus the constants DEQUANTIZE
       * converts; past that, the heap. */
      const size_t m = sg->it->model_size, extra = converted_bytes(sg);
      sg->region_tried = 1;
      sg->region_size = m < SIZE_MAX / 4 && extra < SIZE_MAX / 4
                            ? 2 * m + extra + TFF_RESERVE_ALIGN
                            : 0;
      sg->region = sg->region_size ? (char*)tff_reserve(&sg->region_size) : NULL;
    }
    if (sg->region != NULL && sg->region_size - sg->region_used >= need) {
      char* p = sg->region + sg->region_used;
      sg->region_used += need;
      return p;
    }
  }
  return tff_aligned_alloc(TFF_ARENA_ALIGN, need ? need : TFF_ARENA_ALIGN);
}

void tff_persistent_free(TfLiteContext* ctx, void* p) {
  const tff_subgraph* sg = SG(ctx);
  /* Region blocks go with the region (a stale one may already be reused). */
  if (sg->region != NULL && (char*)p >= sg->region && (char*)p < sg->region + sg->region_size)
    return;
  tff_aligned_free(p);
}

static void report_error(TfLiteContext* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  append_error_v(SG(ctx)->it, fmt, ap);
  va_end(ap);
}

static size_t tensor_bytes(const TfLiteTensor* t) {
  size_t n = tff_type_size(t->type);
  for (int i = 0; i < t->dims->size; ++i) {
    const int d = t->dims->data[i];
    if (d <= 0) return 0;
    if (n > (SIZE_MAX / 4) / (size_t)d) return (size_t)-1; /* would overflow: refuse */
    n *= (size_t)d;
  }
  return n;
}

/* owns_data values: how a tensor's data was allocated here. */
enum { kOwnsHeap = 1, kOwnsPersistent = 2 /* tff_persistent_alloc */ };

static void free_owned_data(tff_subgraph* sg, int t) {
  if (sg->owns_data[t] == kOwnsHeap) free(sg->tensors[t].data.data);
  if (sg->owns_data[t] == kOwnsPersistent) tff_persistent_free(&sg->ctx, sg->tensors[t].data.data);
  sg->owns_data[t] = 0;
  sg->tensors[t].data.data = NULL;
}

/* Takes ownership of new_size. Persistent tensors (computed at prepare,
 * variables, dynamic) get their memory at once; arena tensors at planning. */
static TfLiteStatus resize_tensor(TfLiteContext* ctx, TfLiteTensor* t, TfLiteIntArray* new_size) {
  tff_subgraph* sg = SG(ctx);
  const int ti = (int)(t - sg->tensors);
  if (new_size == NULL) return kTfLiteError;
  if (ti < 0 || ti >= sg->num_tensors) {
    TfLiteIntArrayFree(new_size);
    report_error(ctx, "ResizeTensor: tensor is not in this context");
    return kTfLiteError;
  }
  if (t->allocation_type == kTfLiteMmapRo) {
    TfLiteIntArrayFree(new_size);
    report_error(ctx, "ResizeTensor: tensor %d is a constant", ti);
    return kTfLiteError;
  }
  for (int i = 0; i < new_size->size; ++i) {
    if (new_size->data[i] < 0) {
      report_error(ctx, "ResizeTensor: tensor %d dim %d is negative (%d)", ti, i, new_size->data[i]);
      TfLiteIntArrayFree(new_size);
      return kTfLiteError;
    }
  }
  TfLiteIntArrayFree(t->dims);
  t->dims = new_size;
  const size_t bytes = tensor_bytes(t);
  if (bytes == (size_t)-1) {
    report_error(ctx, "ResizeTensor: tensor %d is too large", ti);
    t->bytes = 0;
    return kTfLiteError;
  }
  t->bytes = bytes;
  if (t->allocation_type == kTfLitePersistentRo || t->allocation_type == kTfLiteDynamic ||
      t->allocation_type == kTfLiteArenaRwPersistent) {
    free_owned_data(sg, ti);
    /* A constant folded at prepare (kTfLitePersistentRo) is written whole by
     * its op right after, as TFLite's unzeroed realloc: zero-filling it first
     * would double the cost of converting megabytes of float16 weights. */
    /* Folded at allocate_tensors(), it joins the packed weights' region: no
     * heap pages to fault in again on the next construction. */
    const int persistent = t->allocation_type == kTfLitePersistentRo && sg->region_open;
    t->data.data = persistent ? tff_persistent_alloc(ctx, bytes + TFF_ARENA_TAIL)
                   : t->allocation_type == kTfLitePersistentRo ? malloc(bytes + TFF_ARENA_TAIL)
                                                               : calloc(1, bytes + TFF_ARENA_TAIL);
    if (t->data.data == NULL) {
      report_error(ctx, "ResizeTensor: out of memory for tensor %d (%zu bytes)", ti, bytes);
      return kTfLiteError;
    }
    sg->owns_data[ti] = persistent ? kOwnsPersistent : kOwnsHeap;
  }
  return kTfLiteOk;
}

/* Appends n zeroed tensors with NULL dims (the caller sets them). */
static TfLiteStatus grow_tensors(tff_subgraph* sg, int n, int* first) {
  if (n < 0 || sg->num_tensors > (1 << 24) - n) return kTfLiteError;
  const int need = sg->num_tensors + n;
  if (need > sg->cap_tensors) {
    const int cap = need > 2 * sg->cap_tensors ? need : 2 * sg->cap_tensors;
    TfLiteTensor* t = (TfLiteTensor*)realloc(sg->tensors, sizeof(TfLiteTensor) * (size_t)cap);
    if (t == NULL) return kTfLiteError;
    sg->tensors = t;
    uint8_t* o = (uint8_t*)realloc(sg->owns_data, (size_t)cap);
    if (o == NULL) return kTfLiteError;
    sg->owns_data = o;
    sg->cap_tensors = cap;
  }
  memset(&sg->tensors[sg->num_tensors], 0, sizeof(TfLiteTensor) * (size_t)n);
  memset(&sg->owns_data[sg->num_tensors], 0, (size_t)n);
  for (int i = sg->num_tensors; i < need; ++i) {
    sg->tensors[i].buffer_handle = kTfLiteNullBufferHandle;
    sg->tensors[i].name = "";
  }
  if (first) *first = sg->num_tensors;
  sg->num_tensors = need;
  sg->ctx.tensors = sg->tensors;
  sg->ctx.tensors_size = (size_t)need;
  return kTfLiteOk;
}

static TfLiteStatus add_tensors(TfLiteContext* ctx, int n, int* first) {
  int at;
  if (grow_tensors(SG(ctx), n, &at) != kTfLiteOk) return kTfLiteError;
  for (int i = at; i < at + n; ++i) {
    ctx->tensors[i].dims = TfLiteIntArrayCreate(0);
    if (ctx->tensors[i].dims == NULL) return kTfLiteError;
  }
  if (first) *first = at;
  return kTfLiteOk;
}

static TfLiteStatus get_node_and_registration(TfLiteContext* ctx, int node, TfLiteNode** n,
                                              TfLiteRegistration** r) {
  tff_subgraph* sg = SG(ctx);
  if (node < 0 || node >= sg->num_nodes) {
    report_error(ctx, "Node index %d out of range (%d nodes)", node, sg->num_nodes);
    return kTfLiteError;
  }
  *n = &sg->nodes[node];
  *r = &sg->regs[node];
  return kTfLiteOk;
}

static TfLiteExternalContext* get_external_context(TfLiteContext* ctx, TfLiteExternalContextType t) {
  if ((int)t < 0 || t >= kTfLiteMaxExternalContexts) return NULL;
  return SG(ctx)->external[t];
}

static void set_external_context(TfLiteContext* ctx, TfLiteExternalContextType t,
                                 TfLiteExternalContext* c) {
  if ((int)t < 0 || t >= kTfLiteMaxExternalContexts) return;
  SG(ctx)->external[t] = c;
}

static TfLiteStatus get_model_metadata(const TfLiteContext* ctx, const char* name,
                                       const char** ptr, size_t* bytes) {
  const tff_model* m = SG(ctx)->it->model;
  for (int i = 0; i < m->num_metadata; ++i) {
    if (strcmp(m->metadata[i].name, name) == 0) {
      *ptr = (const char*)m->metadata[i].data;
      *bytes = m->metadata[i].size;
      return kTfLiteOk;
    }
  }
  return kTfLiteError;
}

/* ---- construction ---- */

static const char* node_name(const tff_subgraph* sg, int node) {
  const TfLiteRegistration* r = &sg->regs[node];
  if (r->custom_name) return r->custom_name;
  const char* n = tff_builtin_name(r->builtin_code);
  return n ? n : "UNKNOWN";
}

static tff_status init_tensor(tff_subgraph* sg, int i, const tff_tensor_desc* d) {
  TfLiteTensor* t = &sg->tensors[i];
  t->type = d->type;
  t->dims = TfLiteIntArrayCopy(d->dims);
  t->dims_signature = d->dims_signature;
  t->name = d->name;
  t->params = d->params;
  if (d->affine) {
    t->quantization.type = kTfLiteAffineQuantization;
    t->quantization.params = d->affine;
  }
  t->sparsity = d->sparsity;
  t->is_variable = d->is_variable;
  if (t->dims == NULL) return TFF_STATUS_OUT_OF_MEMORY;
  if (d->data != NULL) {
    t->allocation_type = kTfLiteMmapRo;
    t->data.raw_const = (const char*)d->data;
    t->bytes = d->bytes;
  } else if (d->is_variable) {
    t->allocation_type = kTfLiteArenaRwPersistent;
    if (resize_tensor(&sg->ctx, t, TfLiteIntArrayCopy(d->dims)) != kTfLiteOk)
      return TFF_STATUS_INVALID_MODEL;
    if (t->type == kTfLiteInt8) memset(t->data.raw, (int8_t)t->params.zero_point, t->bytes);
  } else {
    t->allocation_type = kTfLiteArenaRw;
    t->bytes = tensor_bytes(t);
    if (t->bytes == (size_t)-1) {
      append_error(sg->it, "tensor %d of subgraph %d is too large", i, sg->index);
      return TFF_STATUS_INVALID_MODEL;
    }
  }
  return TFF_OK;
}

/* A tensor with two producers would be sized by one and written by the
 * other (a corrupted output index does this). */
static tff_status check_single_producer(tff_subgraph* sg) {
  int* producer = (int*)malloc(sizeof(int) * ((size_t)sg->num_tensors + 1));
  if (producer == NULL) return TFF_STATUS_OUT_OF_MEMORY;
  for (int t = 0; t < sg->num_tensors; ++t) producer[t] = -1;
  /* A subgraph input is produced by the caller: a node writing it would
   * resize it after earlier consumers were prepared for its old shape. */
  for (int i = 0; i < sg->inputs->size; ++i) producer[sg->inputs->data[i]] = -2;
  tff_status st = TFF_OK;
  for (int i = 0; i < sg->num_nodes && st == TFF_OK; ++i) {
    const TfLiteIntArray* out = sg->nodes[i].outputs;
    for (int k = 0; k < out->size; ++k) {
      const int t = out->data[k];
      if (producer[t] == -2) {
        append_error(sg->it, "subgraph %d: tensor %d is an input of the subgraph and the output "
                     "of node %d", sg->index, t, i);
        st = TFF_STATUS_INVALID_MODEL;
        break;
      }
      if (producer[t] >= 0) {
        append_error(sg->it, "subgraph %d: tensor %d is the output of both node %d and node %d",
                     sg->index, t, producer[t], i);
        st = TFF_STATUS_INVALID_MODEL;
        break;
      }
      producer[t] = i;
    }
  }
  free(producer);
  return st;
}

static tff_status init_subgraph(tff_interpreter* it, int s) {
  tff_subgraph* sg = &it->sgs[s];
  const tff_subgraph_desc* d = &it->model->subgraphs[s];
  sg->it = it;
  sg->index = s;
  TfLiteContext* c = &sg->ctx;
  c->impl_ = sg;
  c->ResizeTensor = resize_tensor;
  c->ReportError = report_error;
  c->AddTensors = add_tensors;
  c->recommended_num_threads = it->num_threads;
  c->GetExternalContext = get_external_context;
  c->SetExternalContext = set_external_context;
  c->GetModelMetadata = get_model_metadata;
  tff_delegate_context_init(c);

  if (grow_tensors(sg, d->num_tensors, NULL) != kTfLiteOk) return TFF_STATUS_OUT_OF_MEMORY;
  for (int i = 0; i < d->num_tensors; ++i) {
    const tff_status st = init_tensor(sg, i, &d->tensors[i]);
    if (st != TFF_OK) return st;
  }
  sg->inputs = TfLiteIntArrayCopy(d->inputs);
  sg->outputs = TfLiteIntArrayCopy(d->outputs);
  sg->nodes = (TfLiteNode*)calloc((size_t)(d->num_ops ? d->num_ops : 1), sizeof(TfLiteNode));
  sg->regs = (TfLiteRegistration*)calloc((size_t)(d->num_ops ? d->num_ops : 1), sizeof(TfLiteRegistration));
  sg->plan = TfLiteIntArrayCreate(d->num_ops);
  if (!sg->inputs || !sg->outputs || !sg->nodes || !sg->regs || !sg->plan) return TFF_STATUS_OUT_OF_MEMORY;

  for (int i = 0; i < d->num_ops; ++i) {
    const tff_op_desc* op = &d->ops[i];
    const tff_opcode* oc = &it->model->opcodes[op->opcode_index];
    TfLiteRegistration* r = &sg->regs[i];
    if (oc->builtin_code == kTfLiteBuiltinCustom) {
      /* unresolved until a custom op is registered, unless built in */
      const TfLiteRegistration* b = tff_mediapipe_registration(oc->custom_name, oc->version);
      if (b) *r = *b;
      else memset(r, 0, sizeof(*r));
      r->builtin_code = kTfLiteBuiltinCustom;
      r->custom_name = oc->custom_name ? oc->custom_name : "";
    } else {
      /* An op we lack still gets a node (details and inspection work); it
       * is reported at allocate, as TFLite reports unresolved ops. */
      const TfLiteRegistration* b = tff_builtin_registration(oc->builtin_code);
      if (b) *r = *b;
      else memset(r, 0, sizeof(*r));
      r->builtin_code = oc->builtin_code;
    }
    r->version = oc->version;
    TfLiteNode* n = &sg->nodes[i];
    n->inputs = TfLiteIntArrayCopy(op->inputs);
    n->outputs = TfLiteIntArrayCopy(op->outputs);
    n->intermediates = TfLiteIntArrayCopy(op->intermediates);
    n->temporaries = TfLiteIntArrayCreate(0);
    n->builtin_data = op->builtin_data;
    n->custom_initial_data = op->custom_options;
    n->custom_initial_data_size = (int)op->custom_options_size;
    sg->num_nodes = i + 1;
    if (!n->inputs || !n->outputs || !n->intermediates || !n->temporaries) return TFF_STATUS_OUT_OF_MEMORY;
    /* Kernels write their outputs: a constant there would be read-only memory. */
    for (int k = 0; k < n->outputs->size; ++k) {
      const int t = n->outputs->data[k];
      if (t < 0 || sg->tensors[t].allocation_type == kTfLiteMmapRo) {
        append_error(it, "subgraph %d node %d (%s): output %d is %s", s, i, node_name(sg, i), k,
                     t < 0 ? "omitted" : "a constant tensor");
        return TFF_STATUS_INVALID_MODEL;
      }
    }
    if (r->init) {
      if (r->builtin_code == kTfLiteBuiltinCustom)
        n->user_data = r->init(c, (const char*)op->custom_options, op->custom_options_size);
      else
        n->user_data = r->init(c, (const char*)op->builtin_data, 0);
      if (n->user_data == TfLiteKernelInitFailed()) {
        n->user_data = NULL;
        append_error(it, "Failed to initialize kernel of node %d (%s).", i, node_name(sg, i));
        return TFF_STATUS_INVALID_MODEL;
      }
    }
    sg->plan->data[i] = i;
  }
  return check_single_producer(sg);
}

static void destroy_subgraph(tff_subgraph* sg) {
  tff_windows_reset(sg); /* the variables outlive the windows */
  tff_aligned_free(sg->window_mem);
  for (int i = 0; i < sg->num_nodes; ++i) {
    TfLiteNode* n = &sg->nodes[i];
    if (sg->regs[i].free && n->user_data) sg->regs[i].free(&sg->ctx, n->user_data);
    TfLiteIntArrayFree(n->inputs);
    TfLiteIntArrayFree(n->outputs);
    TfLiteIntArrayFree(n->intermediates);
    TfLiteIntArrayFree(n->temporaries);
  }
  tff_delegation_free(sg); /* delegate nodes' params blocks (builtin_data) */
  for (int i = 0; i < sg->num_tensors; ++i) {
    free_owned_data(sg, i);
    TfLiteIntArrayFree(sg->tensors[i].dims);
  }
  free(sg->tensors);
  free(sg->owns_data);
  free(sg->nodes);
  free(sg->regs);
  TfLiteIntArrayFree(sg->plan);
  free(sg->run);
  TfLiteIntArrayFree(sg->inputs);
  TfLiteIntArrayFree(sg->outputs);
  tff_aligned_free(sg->arena);
  TfLiteIntArrayFree(sg->alias);
  tff_views_free(sg);
  free(sg->entries);
  free(sg->prof_ns);
  free(sg->prof_count);
  tff_unreserve(sg->region, sg->region_size); /* after every node's free */
}

tff_status tff_interpreter_create(const uint8_t* buf, size_t size, int numerics, int num_threads,
                                  int preserve_all_tensors, tff_interpreter** out, char* err,
                                  size_t err_size) {
  *out = NULL;
  tff_interpreter* it = (tff_interpreter*)calloc(1, sizeof(*it));
  if (it == NULL) return TFF_STATUS_OUT_OF_MEMORY;
  atomic_init(&it->claimed, 0);
  it->numerics = numerics;
  it->num_threads = num_threads;
  it->preserve_all_tensors = preserve_all_tensors;
  it->model_size = size;
  tff_status st = tff_model_parse(buf, size, &it->model, err, err_size);
  if (st != TFF_OK) {
    free(it);
    return st;
  }
  it->num_subgraphs = it->model->num_subgraphs;
  it->sgs = (tff_subgraph*)calloc((size_t)(it->num_subgraphs ? it->num_subgraphs : 1), sizeof(tff_subgraph));
  if (it->sgs == NULL) {
    tff_interpreter_destroy(it);
    return TFF_STATUS_OUT_OF_MEMORY;
  }
  if (it->num_subgraphs == 0) {
    snprintf(err, err_size, "The model has no subgraphs");
    tff_interpreter_destroy(it);
    return TFF_STATUS_INVALID_MODEL;
  }
  for (int s = 0; s < it->num_subgraphs; ++s) {
    st = init_subgraph(it, s);
    if (st != TFF_OK) {
      snprintf(err, err_size, "%s", it->err[0] ? it->err : "out of memory");
      tff_interpreter_destroy(it);
      return st;
    }
  }
  *out = it;
  return TFF_OK;
}

tff_status tff_interpreter_create_from_file(const char* path, int numerics, int num_threads,
                                            int preserve_all_tensors, tff_interpreter** out,
                                            char* err, size_t err_size) {
  *out = NULL;
  void* map;
  size_t size;
  const int mapped = tff_map_file(path, &map, &size);
  if (mapped != 0) {
    snprintf(err, err_size, mapped == -1 ? "Could not open '%s'." : "Could not map '%s'.", path);
    return TFF_STATUS_IO_ERROR;
  }
  const tff_status s = tff_interpreter_create((const uint8_t*)map, size, numerics, num_threads,
                                              preserve_all_tensors, out, err, err_size);
  if (s != TFF_OK) {
    tff_unmap_file(map, size);
    return s;
  }
  (*out)->map = map;
  (*out)->map_size = size;
  return TFF_OK;
}

void tff_interpreter_destroy(tff_interpreter* it) {
  if (it == NULL) return;
  if (it->sgs)
    for (int s = 0; s < it->num_subgraphs; ++s) destroy_subgraph(&it->sgs[s]);
  free(it->sgs);
  tff_threadpool_destroy(it->pool);
  tff_resources_free(it->resources);
  tff_model_free(it->model);
  if (it->map) tff_unmap_file(it->map, it->map_size);
  free(it);
}

/* ---- accessors ---- */

const tff_model* tff_interpreter_model(const tff_interpreter* it) { return it->model; }
int tff_interpreter_num_subgraphs(const tff_interpreter* it) { return it->num_subgraphs; }
TfLiteContext* tff_interpreter_context(tff_interpreter* it, int s) { return &it->sgs[s].ctx; }
int tff_subgraph_num_nodes(tff_interpreter* it, int s) { return it->sgs[s].num_nodes; }
TfLiteStatus tff_subgraph_node(tff_interpreter* it, int s, int node, TfLiteNode** n,
                               TfLiteRegistration** r) {
  return get_node_and_registration(&it->sgs[s].ctx, node, n, r);
}
const TfLiteIntArray* tff_subgraph_inputs(tff_interpreter* it, int s) { return it->sgs[s].inputs; }
const TfLiteIntArray* tff_subgraph_outputs(tff_interpreter* it, int s) { return it->sgs[s].outputs; }
const TfLiteIntArray* tff_subgraph_execution_plan(tff_interpreter* it, int s) { return it->sgs[s].plan; }
int tff_interpreter_is_allocated(tff_interpreter* it, int s) { return it->sgs[s].allocated; }
size_t tff_interpreter_arena_bytes(tff_interpreter* it, int s) { return it->sgs[s].arena_bytes; }
const tff_plan_entry* tff_interpreter_memory_plan(tff_interpreter* it, int s, int* n) {
  *n = it->sgs[s].num_entries;
  return it->sgs[s].entries;
}

/* ---- allocation ---- */

static int contains(const TfLiteIntArray* a, int v) {
  for (int i = 0; i < a->size; ++i)
    if (a->data[i] == v) return 1;
  return 0;
}

/* Lifetimes from execution order (TFLite's rules: graph inputs live from the
 * first step, graph outputs to the last; temporaries only during their node),
 * then the greedy plan and one arena allocation. */
static tff_status plan_memory(tff_subgraph* sg) {
  const int n = sg->num_tensors, steps = sg->plan->size;
  int* first = (int*)malloc(sizeof(int) * (size_t)(n ? n : 1));
  int* last = (int*)malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!first || !last) {
    free(first);
    free(last);
    return TFF_STATUS_OUT_OF_MEMORY;
  }
  for (int i = 0; i < n; ++i) first[i] = last[i] = -1;
  const int end = steps > 0 ? steps - 1 : 0;
#define TOUCH(t, a, b)                                   \
  do {                                                   \
    if (first[t] < 0 || (a) < first[t]) first[t] = (a);  \
    if ((b) > last[t]) last[t] = (b);                    \
  } while (0)
  for (int i = 0; i < sg->inputs->size; ++i) TOUCH(sg->inputs->data[i], 0, end);
  for (int s = 0; s < steps; ++s) {
    const TfLiteNode* node = &sg->nodes[sg->plan->data[s]];
    for (int k = 0; k < node->outputs->size; ++k) /* WHILE drops unread outputs (-1) */
      if (node->outputs->data[k] >= 0) TOUCH(node->outputs->data[k], s, s);
    for (int k = 0; k < node->inputs->size; ++k)
      if (node->inputs->data[k] >= 0) TOUCH(node->inputs->data[k], s, s);
    for (int k = 0; k < node->temporaries->size; ++k)
      if (node->temporaries->data[k] >= 0) TOUCH(node->temporaries->data[k], s, s);
    for (int k = 0; k < node->intermediates->size; ++k)
      if (node->intermediates->data[k] >= 0) TOUCH(node->intermediates->data[k], s, s);
  }
  for (int i = 0; i < sg->outputs->size; ++i) {
    const int t = sg->outputs->data[i];
    TOUCH(t, first[t] < 0 ? 0 : first[t], end);
  }
#undef TOUCH
  tff_fuse_lifetimes(sg, first, last);
  tff_views_lifetimes(sg, first, last);
  tff_windows_plan(sg, first);
  free(sg->entries);
  sg->entries = (tff_plan_entry*)malloc(sizeof(tff_plan_entry) * (size_t)(n ? n : 1));
  if (sg->entries == NULL) {
    free(first);
    free(last);
    return TFF_STATUS_OUT_OF_MEMORY;
  }
  int m = 0;
  for (int i = 0; i < n; ++i) {
    TfLiteTensor* t = &sg->tensors[i];
    if (t->allocation_type != kTfLiteArenaRw) continue;
    t->data.data = NULL;
    if (first[i] < 0) continue; /* never used: no memory */
    tff_plan_entry* e = &sg->entries[m++];
    e->tensor = i;
    e->size = (t->bytes + TFF_ARENA_ALIGN - 1) & ~(size_t)(TFF_ARENA_ALIGN - 1);
    e->first_step = first[i];
    e->last_step = sg->it->preserve_all_tensors ? end : last[i];
  }
  free(first);
  free(last);
  sg->num_entries = m;
  const size_t total = tff_plan_arena(sg->entries, m);
  if (total == (size_t)-1) return TFF_STATUS_OUT_OF_MEMORY;
  tff_aligned_free(sg->arena);
  sg->arena = NULL;
  sg->arena_bytes = total;
  /* A corrupted shape can ask for more than the machine has; with memory
   * overcommit the allocation would succeed and invoke would then thrash or
   * be killed, so refuse it here. */
  const uint64_t phys = tff_physical_memory();
  if (!(phys > 0 && total >= phys)) sg->arena = tff_aligned_alloc(TFF_ARENA_ALIGN, total + TFF_ARENA_TAIL);
  if (sg->arena == NULL) {
    append_error(sg->it, "Failed to allocate an arena of %zu bytes for subgraph %d", total, sg->index);
    return TFF_STATUS_PREPARE_FAILED;
  }
  for (int i = 0; i < m; ++i) sg->tensors[sg->entries[i].tensor].data.raw = (char*)sg->arena + sg->entries[i].offset;
  tff_fuse_bind(sg);
  if (!tff_windows_bind(sg)) return TFF_STATUS_OUT_OF_MEMORY;
  tff_views_bind(sg);
  return TFF_OK;
}

static int has_dynamic_output(const tff_subgraph* sg, const TfLiteNode* node) {
  for (int k = 0; k < node->outputs->size; ++k) {
    const int t = node->outputs->data[k];
    if (t >= 0 && sg->tensors[t].allocation_type == kTfLiteDynamic) return 1;
  }
  return 0;
}

/* Steps after a node with a dynamic output (shaped by its invoke: SLICE with
 * computed bounds, WHILE with a dynamic body, READ_VARIABLE of unknown shape)
 * are prepared at invoke, once their input shapes exist (TFLite does the
 * same). The arena was planned before their shapes were known, so their
 * arena outputs and temporaries become dynamic: heap memory of the size
 * prepare chose. */
static tff_status prepare_lazily(tff_subgraph* sg, int ni) {
  TfLiteRegistration* r = &sg->regs[ni];
  if (r->prepare && r->prepare(&sg->ctx, &sg->nodes[ni]) != kTfLiteOk) {
    append_error(sg->it, "Node number %d (%s) failed to prepare.", ni, node_name(sg, ni));
    return TFF_STATUS_INVOKE_FAILED;
  }
  const TfLiteNode* node = &sg->nodes[ni];
  for (int pass = 0; pass < 2; ++pass) {
    const TfLiteIntArray* ts = pass ? node->temporaries : node->outputs;
    for (int k = 0; k < ts->size; ++k) {
      TfLiteTensor* t = ts->data[k] >= 0 ? &sg->tensors[ts->data[k]] : NULL;
      if (t == NULL || (t->allocation_type != kTfLiteArenaRw && t->allocation_type != kTfLiteDynamic))
        continue;
      if (t->allocation_type == kTfLiteArenaRw) {
        t->allocation_type = kTfLiteDynamic;
        t->data.data = NULL; /* its arena slot */
      }
      if (t->data.data == NULL && resize_tensor(&sg->ctx, t, TfLiteIntArrayCopy(t->dims)) != kTfLiteOk) {
        append_error(sg->it, "Node number %d (%s) failed to prepare.", ni, node_name(sg, ni));
        return TFF_STATUS_INVOKE_FAILED;
      }
    }
  }
  return TFF_OK;
}

/* Every input must exist before its consumer runs: a constant, a variable,
 * a subgraph input, or the output of an earlier step. A corrupted model can
 * break this (an output index rewritten), and the consumer would read a
 * buffer no kernel ever sized for it. */
static tff_status check_dataflow(tff_subgraph* sg) {
  uint8_t* ready = (uint8_t*)calloc((size_t)sg->num_tensors + 1, 1);
  if (ready == NULL) return TFF_STATUS_OUT_OF_MEMORY;
  for (int i = 0; i < sg->num_tensors; ++i)
    ready[i] = sg->tensors[i].allocation_type != kTfLiteArenaRw;
  for (int i = 0; i < sg->inputs->size; ++i) ready[sg->inputs->data[i]] = 1;
  tff_status st = TFF_OK;
  for (int step = 0; step < sg->plan->size && st == TFF_OK; ++step) {
    const TfLiteNode* node = &sg->nodes[sg->plan->data[step]];
    for (int k = 0; k < node->inputs->size; ++k) {
      const int t = node->inputs->data[k];
      if (t >= 0 && !ready[t]) {
        append_error(sg->it, "Input tensor %d lacks data (node %d reads it before any step "
                     "writes it)", t, sg->plan->data[step]);
        st = TFF_STATUS_PREPARE_FAILED;
        break;
      }
    }
    for (int k = 0; k < node->outputs->size; ++k)
      if (node->outputs->data[k] >= 0) ready[node->outputs->data[k]] = 1; /* WHILE drops some */
  }
  free(ready);
  return st;
}

static tff_status prepare_step(tff_subgraph* sg, int step) {
  const int ni = sg->plan->data[step];
  TfLiteRegistration* r = &sg->regs[ni];
  sg->running = 1;
  const TfLiteStatus ps = r->prepare ? r->prepare(&sg->ctx, &sg->nodes[ni]) : kTfLiteOk;
  sg->running = 0;
  if (ps != kTfLiteOk) {
    append_error(sg->it, "Node number %d (%s) failed to prepare.", ni, node_name(sg, ni));
    return TFF_STATUS_PREPARE_FAILED;
  }
  if (has_dynamic_output(sg, &sg->nodes[ni])) sg->lazy_from = step + 1;
  return TFF_OK;
}

/* A DEQUANTIZE of a constant (float16 or int8 weights) converts it whole at
 * prepare. Prepared just before the first step that reads its output, the
 * converted weights are still in cache when that step packs them; prepared
 * in plan order (all of a converted model's DEQUANTIZEs come first), every
 * layer's would be back in DRAM by then. Only the prepare order moves. */
static int deferrable(const tff_subgraph* sg, int ni) {
  const TfLiteNode* node = &sg->nodes[ni];
  if (sg->regs[ni].builtin_code != kTfLiteBuiltinDequantize || node->inputs->size != 1 ||
      node->outputs->size != 1 || node->outputs->data[0] < 0)
    return 0;
  const int t = node->inputs->data[0];
  return t >= 0 && sg->tensors[t].allocation_type == kTfLiteMmapRo;
}

/* Region room for the constants DEQUANTIZE converts: each one's float32
 * output (resize_tensor puts it in the region) and its reader's packing. */
static size_t converted_bytes(const tff_subgraph* sg) {
  size_t bytes = 0;
  for (int step = 0; step < sg->plan->size; ++step) {
    const int ni = sg->plan->data[step];
    if (deferrable(sg, ni) && bytes < SIZE_MAX / 16)
      bytes += 8 * tff_num_elements(sg->tensors[sg->nodes[ni].inputs->data[0]].dims);
  }
  return bytes;
}

/* Prepares the steps in order up to the first one with a dynamic output
 * (lazy_from: the rest prepare at invoke), constant DEQUANTIZEs deferred to
 * their first reader among those. */
static tff_status prepare_steps(tff_subgraph* sg) {
  tff_interpreter* it = sg->it;
  /* deferred[t]: 1 + the step of the deferred DEQUANTIZE writing tensor t. */
  int* deferred = (int*)calloc((size_t)sg->num_tensors + 1, sizeof(int));
  if (deferred == NULL) return TFF_STATUS_OUT_OF_MEMORY;
  tff_status st = TFF_OK;
  for (int step = 0; step < sg->plan->size && st == TFF_OK; ++step) {
    const int ni = sg->plan->data[step];
    TfLiteRegistration* r = &sg->regs[ni];
    if (r->invoke == NULL) {
      if (r->builtin_code == kTfLiteBuiltinCustom)
        append_error(it, "Encountered unresolved custom op: %s.\n", r->custom_name);
      else
        append_error(it, "Didn't find op for builtin opcode '%s' version '%d': tflite_fast does "
                     "not implement it yet.\n", node_name(sg, ni), r->version);
      append_error(it, "Node number %d (%s) failed to prepare.", ni, node_name(sg, ni));
      st = TFF_STATUS_UNSUPPORTED;
      break;
    }
    if (step >= sg->lazy_from) continue;
    if (deferrable(sg, ni)) {
      deferred[sg->nodes[ni].outputs->data[0]] = step + 1;
      continue;
    }
    const TfLiteIntArray* ins = sg->nodes[ni].inputs;
    for (int k = 0; k < ins->size && st == TFF_OK; ++k) {
      const int t = ins->data[k];
      if (t < 0 || deferred[t] == 0) continue;
      st = prepare_step(sg, deferred[t] - 1);
      deferred[t] = 0;
    }
    if (st == TFF_OK) st = prepare_step(sg, step);
  }
  for (int step = 0; step < sg->plan->size && st == TFF_OK; ++step) { /* read by no prepared step */
    const TfLiteNode* node = &sg->nodes[sg->plan->data[step]];
    if (node->outputs->size == 1 && node->outputs->data[0] >= 0 &&
        deferred[node->outputs->data[0]] == step + 1)
      st = prepare_step(sg, step);
  }
  free(deferred);
  return st;
}

static tff_status allocate_subgraph(tff_subgraph* sg) {
  tff_interpreter* it = sg->it;
  if (sg->allocated) return TFF_OK;
  if (sg->running) { /* a cycle of control-flow ops preparing each other */
    append_error(it, "Subgraph %d is prepared recursively.", sg->index);
    return TFF_STATUS_PREPARE_FAILED;
  }
  if (check_dataflow(sg) != TFF_OK) return TFF_STATUS_PREPARE_FAILED;
  /* Activation fusion is a plan-level optimization (fuse.h): it must see the
   * graph as delegates left it and set the ops' activations before prepare. */
  tff_fuse_activations(sg);
  tff_windows_reset(sg);
  tff_views_reset(sg);
  sg->lazy_from = sg->plan->size;
  /* Every step up to lazy_from prepares again and drops what its last
   * prepare took from the region; later (lazy) steps prepare at invoke, on
   * the heap, before they read their buffers. So the region restarts. */
  sg->region_used = 0;
  sg->region_open = 1;
  const tff_status st = prepare_steps(sg);
  sg->region_open = 0;
  if (st != TFF_OK) return st;
  const tff_status planned = plan_memory(sg);
  if (planned != TFF_OK) return planned;
  if (!tff_windows_run_list(sg)) return TFF_STATUS_OUT_OF_MEMORY;
  sg->allocated = 1;
  return TFF_OK;
}

tff_status tff_interpreter_allocate(tff_interpreter* it, int s) {
  if (it->sgs[s].allocated) return TFF_OK;
  clear_error(it);
  const tff_status redo = tff_delegation_before_allocate(it); /* delegates undone by a resize */
  if (redo != TFF_OK) return redo;
  return allocate_subgraph(&it->sgs[s]);
}

static tff_status invoke_failed(tff_subgraph* sg, int ni) {
  append_error(sg->it, "Node number %d (%s) failed to invoke.", ni, node_name(sg, ni));
  sg->running = 0;
  return TFF_STATUS_INVOKE_FAILED;
}

static tff_status invoke_subgraph(tff_subgraph* sg) {
  tff_interpreter* it = sg->it;
  if (!sg->allocated) {
    append_error(it, "Invoke called on model that is not ready.");
    return TFF_STATUS_NOT_READY;
  }
  if (sg->running) {
    append_error(it, "Subgraph %d is invoked recursively.", sg->index);
    return TFF_STATUS_INVOKE_FAILED;
  }
  TfLiteContext* ctx = &sg->ctx;
  const int* plan = sg->plan->data;
  const int steps = sg->plan->size;
  const int profiling = it->profiling && sg->prof_ns != NULL;
  TfLiteNode* nodes = sg->nodes;
  const TfLiteRegistration* regs = sg->regs;
  sg->running = 1;
  if (!profiling && sg->delegation == NULL && sg->lazy_from >= steps) {
    /* Every step prepared, no delegate to sync, no timer: the loop is the
     * calls alone (TFLite Micro's), nothing reloaded per step, the nodes
     * that views made no-ops left out and the streaming windows' loads in
     * place of their READ_VARIABLEs. */
    tff_windows_slide(sg);
    const tff_run_step* run = sg->run;
    for (int step = 0; step < sg->run_size; ++step) {
      const int ni = run[step].ni;
      /* The next step's node and state, from L2 while this one computes
       * (other interpreters between invokes evict them from L1). */
      const tff_run_step* next = &run[step + 1];
      __builtin_prefetch(next->node);
      __builtin_prefetch(next->user_data);
      if (next->in0 >= 0) __builtin_prefetch(&ctx->tensors[next->in0]);
      if (next->out0 >= 0) __builtin_prefetch(&ctx->tensors[next->out0]);
      const TfLiteStatus ok = run[step].invoke ? run[step].invoke(ctx, run[step].node)
                                               : tff_window_load(sg, ~ni);
      if (ok != kTfLiteOk) {
        tff_windows_failed(sg, step);
        return invoke_failed(sg, ni >= 0 ? ni : sg->windows[~ni].read);
      }
    }
    sg->running = 0;
    return TFF_OK;
  }
  tff_windows_release(sg);
  for (int step = 0; step < steps; ++step) {
    const int ni = plan[step];
    if (step >= sg->lazy_from && prepare_lazily(sg, ni) != TFF_OK) {
      sg->running = 0;
      return TFF_STATUS_INVOKE_FAILED;
    }
    if (sg->delegation != NULL && tff_delegation_read_inputs(sg, &nodes[ni]) != kTfLiteOk) {
      sg->running = 0;
      return TFF_STATUS_INVOKE_FAILED;
    }
    const uint64_t t0 = profiling ? tff_now_ns() : 0;
    /* A no-op's kernel cannot tell a strided view from a misplaced output. */
    const TfLiteStatus ok = tff_views_noop(sg, ni) ? kTfLiteOk : regs[ni].invoke(ctx, &nodes[ni]);
    if (profiling) {
      sg->prof_ns[ni] += tff_now_ns() - t0;
      sg->prof_count[ni] += 1;
    }
    if (ok != kTfLiteOk) return invoke_failed(sg, ni);
  }
  sg->running = 0;
  return TFF_OK;
}

tff_status tff_interpreter_set_profiling(tff_interpreter* it, int on) {
  it->profiling = on;
  for (int s = 0; s < it->num_subgraphs; ++s) {
    tff_subgraph* sg = &it->sgs[s];
    free(sg->prof_ns);
    free(sg->prof_count);
    sg->prof_ns = sg->prof_count = NULL;
    if (!on) continue;
    sg->prof_ns = (uint64_t*)calloc((size_t)sg->num_nodes + 1, sizeof(uint64_t));
    sg->prof_count = (uint64_t*)calloc((size_t)sg->num_nodes + 1, sizeof(uint64_t));
    if (!sg->prof_ns || !sg->prof_count) return TFF_STATUS_OUT_OF_MEMORY;
  }
  return TFF_OK;
}

int tff_interpreter_profile(tff_interpreter* it, int s, const uint64_t** ns, const uint64_t** count) {
  *ns = it->sgs[s].prof_ns;
  *count = it->sgs[s].prof_count;
  return it->sgs[s].prof_ns ? it->sgs[s].num_nodes : 0;
}

/* Custom ops resolve before delegates see the graph and before any prepare,
 * as TFLite's op resolver does at construction; a user op replaces a
 * built-in MediaPipe op of its name (ops/mediapipe/mediapipe_ops.h). Only
 * the registration's V1 fields are read (a library built against any TFLite
 * version has them). */
int tff_interpreter_register_custom(tff_interpreter* it, const char* name,
                                    const TfLiteRegistration* reg) {
  clear_error(it);
  if (!name || !reg || !reg->invoke) {
    append_error(it, "custom op %s: the registration has no invoke function", name ? name : "?");
    return -1;
  }
  for (int s = 0; s < it->num_subgraphs; ++s) {
    if (it->sgs[s].delegation || it->sgs[s].allocated) {
      append_error(it, "custom op %s: register custom ops before delegates are applied and "
                   "tensors are allocated", name);
      return -1;
    }
  }
  int resolved = 0;
  for (int s = 0; s < it->num_subgraphs; ++s) {
    tff_subgraph* sg = &it->sgs[s];
    for (int i = 0; i < sg->num_nodes; ++i) {
      TfLiteRegistration* r = &sg->regs[i];
      if (r->builtin_code != kTfLiteBuiltinCustom || strcmp(r->custom_name, name)) continue;
      const TfLiteRegistration* b = tff_mediapipe_registration(name, r->version);
      if (r->invoke && !(b && r->invoke == b->invoke)) continue; /* the first user one stays */
      TfLiteNode* n = &sg->nodes[i];
      if (r->invoke && r->free) r->free(&sg->ctx, n->user_data); /* replacing a built-in */
      n->user_data = NULL;
      r->init = reg->init;
      r->free = reg->free;
      r->prepare = reg->prepare;
      r->invoke = reg->invoke;
      r->profiling_string = reg->profiling_string;
      if (r->init) {
        n->user_data = r->init(&sg->ctx, (const char*)n->custom_initial_data,
                               (size_t)n->custom_initial_data_size);
        if (n->user_data == TfLiteKernelInitFailed()) {
          n->user_data = NULL;
          r->invoke = NULL; /* unresolved again: allocate reports it */
          append_error(it, "Failed to initialize kernel of node %d (%s).", i, name);
          return -1;
        }
      }
      ++resolved;
    }
  }
  return resolved;
}

tff_status tff_interpreter_invoke(tff_interpreter* it, int s) {
  clear_error(it);
  const tff_status st = invoke_subgraph(&it->sgs[s]);
  if (st == TFF_OK) tff_delegation_read_outputs(&it->sgs[s]);
  return st;
}

int tff_interpreter_claim(tff_interpreter* it) {
  int idle = 0;
  return atomic_compare_exchange_strong_explicit(&it->claimed, &idle, 1, memory_order_acquire,
                                                 memory_order_relaxed);
}

void tff_interpreter_release(tff_interpreter* it) {
  atomic_store_explicit(&it->claimed, 0, memory_order_release);
}

int tff_interpreter_busy(const tff_interpreter* it) {
  return atomic_load_explicit(&((tff_interpreter*)it)->claimed, memory_order_acquire);
}

/* ---- subgraph.h: the runtime as control-flow kernels see it ---- */

int tff_num_subgraphs(const TfLiteContext* ctx) { return SG(ctx)->it->num_subgraphs; }

TfLiteContext* tff_subgraph_context(const TfLiteContext* ctx, int index) {
  tff_interpreter* it = SG(ctx)->it;
  return index >= 0 && index < it->num_subgraphs ? &it->sgs[index].ctx : NULL;
}

const TfLiteIntArray* tff_subgraph_input_indices(const TfLiteContext* sub) { return SG(sub)->inputs; }
const TfLiteIntArray* tff_subgraph_output_indices(const TfLiteContext* sub) { return SG(sub)->outputs; }
const TfLiteIntArray* tff_subgraph_plan(const TfLiteContext* sub) { return SG(sub)->plan; }
const TfLiteNode* tff_subgraph_plan_node(const TfLiteContext* sub, int step) {
  return &SG(sub)->nodes[SG(sub)->plan->data[step]];
}

TfLiteStatus tff_subgraph_resize(TfLiteContext* sub, int tensor, const TfLiteIntArray* dims) {
  tff_subgraph* sg = SG(sub);
  if (tensor < 0 || tensor >= sg->num_tensors) return kTfLiteError;
  if (TfLiteIntArrayEqual(sg->tensors[tensor].dims, dims)) return kTfLiteOk;
  if (resize_tensor(sub, &sg->tensors[tensor], TfLiteIntArrayCopy(dims)) != kTfLiteOk) return kTfLiteError;
  sg->allocated = 0;
  return kTfLiteOk;
}

TfLiteStatus tff_subgraph_allocate(TfLiteContext* sub) {
  tff_subgraph* sg = SG(sub);
  if (sg->running) {
    append_error(sg->it, "Subgraph %d is prepared while it runs.", sg->index);
    return kTfLiteError;
  }
  return allocate_subgraph(sg) == TFF_OK ? kTfLiteOk : kTfLiteError;
}

TfLiteStatus tff_subgraph_invoke(TfLiteContext* sub) {
  if (invoke_subgraph(SG(sub)) != TFF_OK) return kTfLiteError;
  tff_delegation_read_outputs(SG(sub));
  return kTfLiteOk;
}

struct tff_resources** tff_context_resources(const TfLiteContext* ctx) { return &SG(ctx)->it->resources; }
struct tff_threadpool** tff_context_pool(const TfLiteContext* ctx) { return &SG(ctx)->it->pool; }

tff_status tff_interpreter_resize_input(tff_interpreter* it, int s, int ti, const int* dims,
                                        int rank, int strict) {
  tff_subgraph* sg = &it->sgs[s];
  clear_error(it);
  if (ti < 0 || ti >= sg->num_tensors) {
    append_error(it, "Invalid tensor index %d exceeds max tensor index %d", ti, sg->num_tensors);
    return TFF_STATUS_INVALID_ARGUMENT;
  }
  TfLiteTensor* t = &sg->tensors[ti];
  if (TfLiteIntArrayEqualsArray(t->dims, rank, dims)) return TFF_OK;
  if (strict) {
    /* Without a signature every dim is fixed. */
    const TfLiteIntArray* sig = t->dims_signature ? t->dims_signature : t->dims;
    if (sig->size != rank) {
      append_error(it, "ResizeInputTensorStrict: tensor %d has rank %d, got %d dims.", ti,
                   sig->size, rank);
      return TFF_STATUS_INVALID_ARGUMENT;
    }
    for (int i = 0; i < rank; ++i) {
      if (sig->data[i] != -1 && dims[i] != t->dims->data[i]) {
        append_error(it, "Attempting to resize dimension %d of tensor %d with value %d to %d. "
                     "ResizeInputTensorStrict only allows mutating unknown dimensions identified by -1.",
                     i, ti, t->dims->data[i], dims[i]);
        return TFF_STATUS_INVALID_ARGUMENT;
      }
    }
  }
  for (int i = 0; i < rank; ++i) {
    if (dims[i] < 0) {
      append_error(it, "Cannot resize tensor %d: dimension %d is negative (%d)", ti, i, dims[i]);
      return TFF_STATUS_INVALID_ARGUMENT;
    }
  }
  TfLiteIntArray* a = TfLiteIntArrayCreate(rank);
  if (a == NULL) return TFF_STATUS_OUT_OF_MEMORY;
  memcpy(a->data, dims, sizeof(int) * (size_t)rank);
  tff_delegation_before_resize(sg); /* static delegates are undone, redone at allocate */
  if (resize_tensor(&sg->ctx, t, a) != kTfLiteOk) return TFF_STATUS_INVALID_ARGUMENT;
  sg->allocated = 0;
  return TFF_OK;
}

tff_status tff_interpreter_reset_variables(tff_interpreter* it) {
  tff_resources_reset(it->resources);
  for (int s = 0; s < it->num_subgraphs; ++s) {
    tff_subgraph* sg = &it->sgs[s];
    for (int i = 0; i < sg->num_tensors; ++i) {
      TfLiteTensor* t = &sg->tensors[i];
      if (!t->is_variable || t->data.raw == NULL) continue;
      memset(t->data.raw, t->type == kTfLiteInt8 ? (int8_t)t->params.zero_point : 0, t->bytes);
    }
  }
  return TFF_OK;
}
