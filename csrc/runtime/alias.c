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

/* A kernel's declaration of tff_view_strided_reader. */
typedef struct tff_view_reader {
  int node, tensor;
  size_t run, rows;
  size_t* step;
} tff_view_reader;

void tff_view_offer_rows(TfLiteContext* ctx, int view, int base, size_t offset, size_t run,
                         size_t pitch) {
  tff_subgraph* sg = tff_sg(ctx);
  if (run == 0 || run + offset > pitch || sg->view_base == NULL || view < 0 ||
      view >= sg->view_slots || sg->view_base[view] >= 0)
    return;
  tff_view_offer(ctx, view, base, offset);
  if (sg->view_base[view] != base) return;
  sg->view_run[view] = run;
  sg->view_pitch[view] = pitch;
}

void tff_view_strided_reader(TfLiteContext* ctx, const TfLiteNode* node, int tensor, size_t run,
                             size_t rows, size_t* step) {
  tff_subgraph* sg = tff_sg(ctx);
  if (sg->view_base == NULL || sg->allocated || node < sg->nodes ||
      node >= sg->nodes + sg->num_nodes || tensor < 0 || tensor >= sg->view_slots || run == 0)
    return;
  if (sg->num_readers == sg->cap_readers) {
    const int cap = sg->cap_readers ? 2 * sg->cap_readers : 8;
    tff_view_reader* r = (tff_view_reader*)realloc(sg->readers, sizeof(*r) * (size_t)cap);
    if (r == NULL) return; /* undeclared: its input stays dense */
    sg->readers = r;
    sg->cap_readers = cap;
  }
  sg->readers[sg->num_readers++] =
      (tff_view_reader){(int)(node - sg->nodes), tensor, run, rows, step};
}

void tff_views_free(tff_subgraph* sg) {
  free(sg->view_base);
  free(sg->view_at);
  free(sg->view_run);
  free(sg->view_pitch);
  free(sg->readers);
  sg->view_base = NULL;
  sg->view_at = NULL;
  sg->view_run = sg->view_pitch = NULL;
  sg->readers = NULL;
  sg->view_slots = sg->num_readers = sg->cap_readers = 0;
}

void tff_views_reset(tff_subgraph* sg) {
  tff_views_free(sg);
  /* Every tensor stays observable with preserve_all_tensors; a delegate
   * owns its own graph. Out of memory: no views, still correct. */
  if (sg->it->preserve_all_tensors || sg->delegation != NULL || sg->num_tensors == 0) return;
  const size_t n = (size_t)sg->num_tensors;
  sg->view_base = (int*)malloc(sizeof(int) * n);
  sg->view_at = (size_t*)malloc(sizeof(size_t) * n);
  sg->view_run = (size_t*)calloc(n, sizeof(size_t));
  sg->view_pitch = (size_t*)calloc(n, sizeof(size_t));
  if (sg->view_base == NULL || sg->view_at == NULL || sg->view_run == NULL || sg->view_pitch == NULL) {
    tff_views_free(sg);
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

/* Whether view t lies inside its base: contiguous, or as strided rows. */
static int inside(const tff_subgraph* sg, int t) {
  const size_t at = sg->view_at[t], vb = sg->tensors[t].bytes, bb = sg->tensors[sg->view_base[t]].bytes;
  const size_t run = sg->view_run[t], pitch = sg->view_pitch[t];
  if (run == 0) return at <= bb && vb <= bb - at;
  return vb > 0 && vb % run == 0 && vb / run <= bb / pitch && at + run <= pitch &&
         (vb / run - 1) * pitch + at + run <= bb;
}

/* The offer of view t, checked against everything but cycles and readers. */
static int safe(const tff_subgraph* sg, int t, const int* first, const int* last) {
  const int b = sg->view_base[t];
  const TfLiteTensor *v = &sg->tensors[t], *bt = &sg->tensors[b];
  return t != b && v->allocation_type == kTfLiteArenaRw && bt->allocation_type == kTfLiteArenaRw &&
         first[t] >= 0 && first[b] >= 0 && last[t] < sg->lazy_from && last[b] < sg->lazy_from &&
         inside(sg, t) && !contains(sg->inputs, t) && !contains(sg->outputs, t) && !fused(sg, t) &&
         !fused(sg, b);
}

static void drop(tff_subgraph* sg, int t) {
  sg->view_base[t] = -1;
  sg->view_run[t] = sg->view_pitch[t] = 0;
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

/* The strided view in x's chain of bases (x included), or -1. */
static int strided_link(const tff_subgraph* sg, int x) {
  for (; sg->view_base[x] >= 0; x = sg->view_base[x])
    if (sg->view_pitch[x]) return x;
  return -1;
}

/* Whether node ni reads x (a strided tensor of rows of `run` bytes) as it
 * lies: a declared reader, or a STRIDED_SLICE of whole rows whose output is
 * a view of x. */
static int reads_strided(const tff_subgraph* sg, int ni, int x, size_t run) {
  for (int r = 0; r < sg->num_readers; ++r)
    if (sg->readers[r].node == ni && sg->readers[r].tensor == x && sg->readers[r].run == run) return 1;
  const TfLiteNode* n = &sg->nodes[ni];
  if (sg->regs[ni].builtin_code != kTfLiteBuiltinStridedSlice || n->outputs->size != 1 ||
      n->inputs->size < 1 || n->inputs->data[0] != x)
    return 0;
  const int o = n->outputs->data[0];
  return o >= 0 && o < sg->view_slots && sg->view_base[o] == x && sg->view_pitch[o] == 0 &&
         sg->view_at[o] % run == 0 && sg->tensors[o].bytes % run == 0;
}

/* Whether strided view t may stay: no other strided link in its chain, and
 * every node touching t or a view through it reads it as it lies and writes
 * none of it but t's SPLIT_V and the slices that view it. */
static int strided_ok(const tff_subgraph* sg, int t) {
  if (strided_link(sg, sg->view_base[t]) >= 0) return 0;
  for (int s = 0; s < sg->plan->size; ++s) {
    const int ni = sg->plan->data[s];
    const TfLiteNode* n = &sg->nodes[ni];
    for (int k = 0; k < n->inputs->size; ++k) {
      const int x = n->inputs->data[k];
      if (x >= 0 && x < sg->view_slots && strided_link(sg, x) == t &&
          !reads_strided(sg, ni, x, sg->view_run[t]))
        return 0;
    }
    for (int k = 0; k < n->outputs->size; ++k) {
      const int o = n->outputs->data[k];
      if (o < 0 || o >= sg->view_slots || o == t || strided_link(sg, o) != t) continue;
      if (sg->regs[ni].builtin_code != kTfLiteBuiltinStridedSlice || n->inputs->size < 1 ||
          n->inputs->data[0] != sg->view_base[o])
        return 0;
    }
  }
  return 1;
}

/* A SPLIT_V whose outputs are not all strided views of its input copies
 * into all of them: none stays a view. */
static void split_all_or_none(tff_subgraph* sg) {
  for (int ni = 0; ni < sg->num_nodes; ++ni) {
    const TfLiteNode* n = &sg->nodes[ni];
    if (sg->regs[ni].builtin_code != kTfLiteBuiltinSplitV || n->inputs->size < 1) continue;
    int views = 0;
    for (int k = 0; k < n->outputs->size; ++k) {
      const int o = n->outputs->data[k];
      views += o >= 0 && o < sg->view_slots && sg->view_base[o] == n->inputs->data[0] &&
               sg->view_pitch[o] != 0;
    }
    if (views == 0 || views == n->outputs->size) continue;
    for (int k = 0; k < n->outputs->size; ++k) {
      const int o = n->outputs->data[k];
      if (o >= 0 && o < sg->view_slots && sg->view_pitch[o] != 0) drop(sg, o);
    }
  }
}

void tff_views_lifetimes(tff_subgraph* sg, int* first, int* last) {
  if (sg->view_base == NULL) return;
  for (int t = 0; t < sg->view_slots; ++t)
    if (sg->view_base[t] >= 0 && !safe(sg, t, first, last)) drop(sg, t);
  for (int t = 0; t < sg->view_slots; ++t)
    if (sg->view_base[t] >= 0 && root_of(sg, t) < 0) drop(sg, t); /* breaks the cycle */
  for (int t = 0; t < sg->view_slots; ++t)
    if (sg->view_base[t] >= 0 && sg->view_pitch[t] && !strided_ok(sg, t)) drop(sg, t);
  split_all_or_none(sg);
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
    for (; sg->view_base[r] >= 0; r = sg->view_base[r]) {
      /* Whole rows of a strided view: row i lies i pitches into its base. */
      if (sg->view_pitch[r]) at = at / sg->view_run[r] * sg->view_pitch[r];
      at += sg->view_at[r];
    }
    sg->tensors[t].data.raw = sg->tensors[r].data.raw + at;
  }
  for (int i = 0; i < sg->num_readers; ++i) {
    const tff_view_reader* rd = &sg->readers[i];
    const int l = strided_link(sg, rd->tensor);
    if (l >= 0) *rd->step = rd->rows * sg->view_pitch[l];
  }
}

static int in_place(const tff_subgraph* sg, int t, int base, size_t at) {
  return t >= 0 && t < sg->view_slots && sg->view_base[t] == base && sg->view_at[t] == at &&
         sg->view_pitch[t] == 0;
}

int tff_views_noop(const tff_subgraph* sg, int ni) {
  if (sg->view_base == NULL) return 0;
  const TfLiteNode* n = &sg->nodes[ni];
  if (n->outputs->size < 1 || n->inputs->size < 1) return 0;
  const int out = n->outputs->data[0];
  switch (sg->regs[ni].builtin_code) {
    case kTfLiteBuiltinConcatenation: {
      if (n->outputs->size != 1) return 0;
      size_t at = 0;
      for (int i = 0; i < n->inputs->size; ++i) {
        const int t = n->inputs->data[i];
        if (!in_place(sg, t, out, at)) return 0;
        at += sg->tensors[t].bytes;
      }
      return 1;
    }
    case kTfLiteBuiltinStridedSlice: /* only the slice offers its output to its input */
      return n->outputs->size == 1 && out >= 0 && out < sg->view_slots &&
             sg->view_base[out] == n->inputs->data[0];
    case kTfLiteBuiltinSplitV: /* all or none (split_all_or_none) */
      return out >= 0 && out < sg->view_slots && sg->view_base[out] == n->inputs->data[0] &&
             sg->view_pitch[out] != 0;
    default:
      return 0;
  }
}
