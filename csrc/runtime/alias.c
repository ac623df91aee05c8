/* Views inside another tensor's buffer; see alias.h. */
#include "alias.h"

#include <stdlib.h>

#include "graph.h"
#include "tflite_fast/builtin_ops.h"

void tff_view_offer(TfLiteContext* ctx, int view, int base, size_t offset) {
  tff_subgraph* sg = tff_sg(ctx);
  if (sg->view_base == NULL || sg->allocated || view < 0 || base < 0 ||
      view >= sg->view_slots || base >= sg->view_slots || sg->view_base[view] >= 0)
    return;
  sg->view_base[view] = base;
  sg->view_at[view] = offset;
}

void tff_views_reset(tff_subgraph* sg) {
  free(sg->view_base);
  free(sg->view_at);
  sg->view_base = NULL;
  sg->view_at = NULL;
  sg->view_slots = 0;
  /* Every tensor stays observable with preserve_all_tensors; a delegate
   * owns its own graph. Out of memory: no views, still correct. */
  if (sg->it->preserve_all_tensors || sg->delegation != NULL || sg->num_tensors == 0) return;
  const size_t n = (size_t)sg->num_tensors;
  sg->view_base = (int*)malloc(sizeof(int) * n);
  sg->view_at = (size_t*)malloc(sizeof(size_t) * n);
  if (sg->view_base == NULL || sg->view_at == NULL) {
    free(sg->view_base);
    free(sg->view_at);
    sg->view_base = NULL;
    sg->view_at = NULL;
    return;
  }
  for (size_t t = 0; t < n; ++t) sg->view_base[t] = -1;
  sg->view_slots = sg->num_tensors;
}

static int contains(const TfLiteIntArray* a, int v) {
  for (int i = 0; i < a->size; ++i)
    if (a->data[i] == v) return 1;
  return 0;
}

/* Whether fusion shares t's buffer (as the RELU output or its op's). */
static int fused(const tff_subgraph* sg, int t) {
  if (sg->alias == NULL) return 0;
  for (int r = 0; r < sg->alias->size; ++r)
    if (r == t ? sg->alias->data[r] >= 0 : sg->alias->data[r] == t) return 1;
  return 0;
}

/* The offer of view t, checked against everything but cycles. */
static int safe(const tff_subgraph* sg, int t, const int* first, const int* last) {
  const int b = sg->view_base[t];
  const TfLiteTensor *v = &sg->tensors[t], *bt = &sg->tensors[b];
  return t != b && v->allocation_type == kTfLiteArenaRw && bt->allocation_type == kTfLiteArenaRw &&
         first[t] >= 0 && first[b] >= 0 && last[t] < sg->lazy_from && last[b] < sg->lazy_from &&
         sg->view_at[t] <= bt->bytes && v->bytes <= bt->bytes - sg->view_at[t] &&
         !contains(sg->inputs, t) && !contains(sg->outputs, t) && !fused(sg, t) && !fused(sg, b);
}

/* The end of t's chain of bases, or -1 when the chain comes back to t. */
static int root_of(const tff_subgraph* sg, int t) {
  int r = t;
  for (int hops = 0; sg->view_base[r] >= 0; ++hops) {
    r = sg->view_base[r];
    if (r == t || hops > sg->view_slots) return -1;
  }
  return r;
}

void tff_views_lifetimes(tff_subgraph* sg, int* first, int* last) {
  if (sg->view_base == NULL) return;
  for (int t = 0; t < sg->view_slots; ++t)
    if (sg->view_base[t] >= 0 && !safe(sg, t, first, last)) sg->view_base[t] = -1;
  for (int t = 0; t < sg->view_slots; ++t)
    if (sg->view_base[t] >= 0 && root_of(sg, t) < 0) sg->view_base[t] = -1; /* breaks the cycle */
  for (int t = 0; t < sg->view_slots; ++t) {
    if (sg->view_base[t] < 0) continue;
    const int r = root_of(sg, t);
    if (first[t] < first[r]) first[r] = first[t];
    if (last[t] > last[r]) last[r] = last[t];
  }
  for (int t = 0; t < sg->view_slots; ++t)
    if (sg->view_base[t] >= 0) first[t] = -1; /* no entry of its own */
}

void tff_views_bind(tff_subgraph* sg) {
  if (sg->view_base == NULL) return;
  for (int t = 0; t < sg->view_slots; ++t) {
    if (sg->view_base[t] < 0) continue;
    size_t at = 0;
    int r = t;
    for (; sg->view_base[r] >= 0; r = sg->view_base[r]) at += sg->view_at[r];
    sg->tensors[t].data.raw = sg->tensors[r].data.raw + at;
  }
}

static int in_place(const tff_subgraph* sg, int t, int base, size_t at) {
  return t >= 0 && t < sg->view_slots && sg->view_base[t] == base && sg->view_at[t] == at;
}

int tff_views_noop(const tff_subgraph* sg, int ni) {
  if (sg->view_base == NULL) return 0;
  const TfLiteNode* n = &sg->nodes[ni];
  if (n->outputs->size != 1) return 0;
  const int out = n->outputs->data[0];
  switch (sg->regs[ni].builtin_code) {
    case kTfLiteBuiltinConcatenation: {
      size_t at = 0;
      for (int i = 0; i < n->inputs->size; ++i) {
        const int t = n->inputs->data[i];
        if (!in_place(sg, t, out, at)) return 0;
        at += sg->tensors[t].bytes;
      }
      return 1;
    }
    case kTfLiteBuiltinStridedSlice: /* only the slice offers its output to its input */
      return n->inputs->size > 0 && out >= 0 && out < sg->view_slots &&
             sg->view_base[out] == n->inputs->data[0];
    default:
      return 0;
  }
}
