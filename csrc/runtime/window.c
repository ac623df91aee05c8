/* Streaming state windows; see window.h. */
#include "window.h"

#include <stdlib.h>
#include <string.h>

#include "alias.h"
#include "graph.h"
#include "planner.h"
#include "platform.h"
#include "tflite_fast/builtin_ops.h"

void tff_windows_release(tff_subgraph* sg) {
  for (int i = 0; i < sg->num_windows; ++i) {
    tff_window* w = &sg->windows[i];
    tff_resource_release(&sg->ctx, w->id, &w->held);
    w->slide = 0;
  }
}

void tff_windows_reset(tff_subgraph* sg) {
  tff_windows_release(sg);
  free(sg->windows);
  sg->windows = NULL;
  sg->num_windows = 0;
}

/* The variable id a VAR_HANDLE put in tensor h, or -1 (any other source). */
static int var_id(const tff_subgraph* sg, const int* producer, int h) {
  if (h < 0 || h >= sg->view_slots || producer[h] < 0 ||
      sg->regs[producer[h]].builtin_code != kTfLiteBuiltinVarHandle ||
      sg->tensors[h].data.i32 == NULL)
    return -1;
  return sg->tensors[h].data.i32[0];
}

static int contains(const TfLiteIntArray* a, int v) {
  for (int i = 0; i < a->size; ++i)
    if (a->data[i] == v) return 1;
  return 0;
}

/* Whether a step strictly between plan steps from and to may read or assign
 * variable id other than through the window's own nodes. */
static int touched_between(const tff_subgraph* sg, const int* producer, int from, int to, int id) {
  for (int s = from + 1; s < to; ++s) {
    const TfLiteNode* n = &sg->nodes[sg->plan->data[s]];
    switch (sg->regs[sg->plan->data[s]].builtin_code) {
      case kTfLiteBuiltinWhile:
      case kTfLiteBuiltinIf:
      case kTfLiteBuiltinCallOnce:
        return 1;
      case kTfLiteBuiltinReadVariable:
      case kTfLiteBuiltinAssignVariable: {
        const int other = n->inputs->size > 0 ? var_id(sg, producer, n->inputs->data[0]) : -1;
        if (other < 0 || other == id) return 1;
        break;
      }
      default:
        break;
    }
  }
  return 0;
}

/* The window of ASSIGN_VARIABLE node a, if its state chain is one (see
 * window.h); pos is each node's plan step. */
static int find(const tff_subgraph* sg, const int* producer, const int* pos, const int* first,
                int a, tff_window* w) {
  const TfLiteNode* an = &sg->nodes[a];
  if (an->inputs->size != 2) return 0;
  const int id = var_id(sg, producer, an->inputs->data[0]), s = an->inputs->data[1];
  if (id < 0 || s < 0 || s >= sg->view_slots || producer[s] < 0) return 0;
  const int sl = producer[s];
  if (sg->regs[sl].builtin_code != kTfLiteBuiltinStridedSlice || !tff_views_noop(sg, sl)) return 0;
  const int o = sg->nodes[sl].inputs->data[0];
  if (sg->view_base[o] >= 0 || producer[o] < 0 || first[o] < 0 || contains(sg->inputs, o) ||
      contains(sg->outputs, o))
    return 0;
  const int c = producer[o];
  if (sg->regs[c].builtin_code != kTfLiteBuiltinConcatenation || !tff_views_noop(sg, c)) return 0;
  const int v = sg->nodes[c].inputs->data[0];
  const int r = v < sg->view_slots ? producer[v] : -1;
  if (r < 0 || sg->regs[r].builtin_code != kTfLiteBuiltinReadVariable ||
      var_id(sg, producer, sg->nodes[r].inputs->data[0]) != id || pos[r] > pos[a])
    return 0;
  const TfLiteTensor *vt = &sg->tensors[v], *ot = &sg->tensors[o], *st = &sg->tensors[s];
  /* s is o without as many leading bytes as the new rows: the next state. */
  if (vt->bytes == 0 || ot->bytes <= vt->bytes || st->bytes != vt->bytes ||
      sg->view_at[s] != ot->bytes - vt->bytes || st->type != vt->type ||
      !TfLiteIntArrayEqual(st->dims, vt->dims) || touched_between(sg, producer, pos[r], pos[a], id))
    return 0;
  for (int k = 0; k < sg->num_windows; ++k)
    if (sg->windows[k].o == o || sg->windows[k].read == r) return 0;
  memset(w, 0, sizeof(*w));
  w->id = id;
  w->read = r;
  w->assign = a;
  w->o = o;
  w->s = s;
  w->state = vt->bytes;
  w->fresh = ot->bytes - vt->bytes;
  return 1;
}

void tff_windows_plan(tff_subgraph* sg, int* first) {
  if (sg->view_base == NULL || sg->lazy_from < sg->plan->size) return;
  const int nt = sg->view_slots, steps = sg->plan->size;
  int* producer = (int*)malloc(sizeof(int) * (size_t)nt);
  int* pos = (int*)malloc(sizeof(int) * (size_t)(sg->num_nodes ? sg->num_nodes : 1));
  sg->windows = (tff_window*)malloc(sizeof(tff_window) * (size_t)(steps ? steps : 1));
  if (producer == NULL || pos == NULL || sg->windows == NULL) goto done; /* no windows: correct */
  for (int t = 0; t < nt; ++t) producer[t] = -1;
  for (int s = 0; s < steps; ++s) {
    const TfLiteNode* n = &sg->nodes[sg->plan->data[s]];
    pos[sg->plan->data[s]] = s;
    for (int k = 0; k < n->outputs->size; ++k)
      if (n->outputs->data[k] >= 0 && n->outputs->data[k] < nt)
        producer[n->outputs->data[k]] = sg->plan->data[s];
  }
  for (int s = 0; s < steps; ++s) {
    const int a = sg->plan->data[s];
    tff_window* w = &sg->windows[sg->num_windows];
    if (sg->regs[a].builtin_code != kTfLiteBuiltinAssignVariable ||
        !find(sg, producer, pos, first, a, w))
      continue;
    first[w->o] = -1; /* its buffer is the window's */
    sg->num_windows++;
  }
done:
  if (sg->num_windows == 0) {
    free(sg->windows);
    sg->windows = NULL;
  }
  free(producer);
  free(pos);
}

/* o's bytes and the tail kernels may over-read. */
static size_t buffer_bytes(const tff_window* w) {
  return (w->state + w->fresh + TFF_ARENA_TAIL + TFF_ARENA_ALIGN - 1) & ~(size_t)(TFF_ARENA_ALIGN - 1);
}

int tff_windows_bind(tff_subgraph* sg) {
  tff_aligned_free(sg->window_mem);
  sg->window_mem = NULL;
  size_t total = 0;
  for (int i = 0; i < sg->num_windows; ++i) total += buffer_bytes(&sg->windows[i]);
  if (total == 0) return 1;
  sg->window_mem = tff_aligned_alloc(TFF_ARENA_ALIGN, total);
  if (sg->window_mem == NULL) return 0;
  memset(sg->window_mem, 0, total);
  char* p = (char*)sg->window_mem;
  for (int i = 0; i < sg->num_windows; ++i) {
    tff_window* w = &sg->windows[i];
    w->buf = p;
    w->held.cur = p;
    sg->tensors[w->o].data.raw = p; /* tff_views_bind places its views */
    p += buffer_bytes(w);
  }
  return 1;
}

int tff_windows_run_list(tff_subgraph* sg) {
  free(sg->run);
  /* One more than the steps: the loop prefetches from the step after the last. */
  sg->run = (tff_run_step*)calloc((size_t)sg->plan->size + 1, sizeof(tff_run_step));
  if (sg->run == NULL) return 0;
  for (int i = 0; i <= sg->plan->size; ++i) sg->run[i].in0 = sg->run[i].out0 = -1;
  sg->run_size = 0;
  for (int step = 0; step < sg->plan->size; ++step) {
    const int ni = sg->plan->data[step];
    /* VAR_HANDLE wrote its output at prepare (var_handle.c). */
    int entry = ni, skip = tff_views_noop(sg, ni) || sg->regs[ni].builtin_code == kTfLiteBuiltinVarHandle;
    for (int i = 0; i < sg->num_windows; ++i) {
      if (sg->windows[i].read == ni) entry = ~i;
      if (sg->windows[i].assign == ni) {
        sg->windows[i].assign_at = sg->run_size;
        skip = 1;
      }
    }
    if (skip) continue;
    const TfLiteNode* n = &sg->nodes[ni];
    const int in0 = entry >= 0 && n->inputs->size > 0 ? n->inputs->data[0] : -1;
    const int out0 = entry >= 0 && n->outputs->size > 0 ? n->outputs->data[0] : -1;
    sg->run[sg->run_size++] =
        entry < 0 ? (tff_run_step){NULL, NULL, NULL, -1, -1, entry}
                  : (tff_run_step){sg->regs[ni].invoke, &sg->nodes[ni], n->user_data, in0, out0, ni};
  }
  return 1;
}

void tff_windows_slide(tff_subgraph* sg) {
  for (int i = 0; i < sg->num_windows; ++i) {
    tff_window* w = &sg->windows[i];
    if (!w->slide) continue;
    memmove(w->buf, w->buf + w->fresh, w->state);
    w->held.cur = w->buf;
    w->slide = 0;
  }
}

TfLiteStatus tff_window_load(tff_subgraph* sg, int i) {
  tff_window* w = &sg->windows[i];
  if (!w->held.held) {
    if (sg->regs[w->read].invoke(&sg->ctx, &sg->nodes[w->read]) != kTfLiteOk) return kTfLiteError;
    tff_resource_hold(&sg->ctx, w->id, &w->held, &sg->tensors[w->s]);
  }
  /* What the ASSIGN will leave: nothing reads the variable before it. */
  w->held.cur = w->buf + w->fresh;
  w->slide = 1;
  return kTfLiteOk;
}

void tff_windows_failed(tff_subgraph* sg, int step) {
  for (int i = 0; i < sg->num_windows; ++i) {
    tff_window* w = &sg->windows[i];
    if (w->assign_at <= step || !w->slide) continue;
    w->slide = 0;
    w->held.cur = w->buf;
  }
}
