/* Resource variables (VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE) and the
 * CALL_ONCE bookkeeping: one table per interpreter, shared by its subgraphs,
 * created on first use.
 *
 * A variable is named by (container, shared_name); its id is its index here,
 * dense and stable for the interpreter's life (TFLite numbers them the same
 * way, in VAR_HANDLE order). Its value is a private dynamic tensor: the last
 * ASSIGN_VARIABLE's type, shape, quantization params and bytes.
 *
 * Reset (reset_all_variables) forgets every value and every CALL_ONCE, so the
 * next invoke re-runs the init subgraphs and starts from the model's initial
 * state. TFLite keeps both, so its reset does not restore such models.
 *
 * A streaming window (window.h) may hold a variable: its bytes are then the
 * window's (owner->cur), and value.data.raw is refreshed from them on read. */
#include <stdlib.h>
#include <string.h>

#include "subgraph.h"

typedef struct tff_variable {
  char* container;
  char* shared_name;
  int assigned;
  TfLiteTensor value; /* dims and data.raw malloc'd here */
  tff_held* owner;    /* the window holding the current bytes, or NULL */
} tff_variable;

struct tff_resources {
  int count, cap;
  tff_variable* vars;
  int num_subgraphs;
  unsigned char* init_done; /* per subgraph index: its CALL_ONCE ran */
};

/* The window gives the bytes back: value is the variable's own again. */
static void detach(tff_variable* v) {
  if (v->owner == NULL) return;
  memcpy(v->value.data.raw, v->owner->cur, v->value.bytes);
  v->owner->held = 0;
  v->owner = NULL;
}

static void drop_value(tff_variable* v) {
  if (v->owner) v->owner->held = 0;
  v->owner = NULL;
  free(v->value.data.raw);
  TfLiteIntArrayFree(v->value.dims);
  memset(&v->value, 0, sizeof(v->value));
  v->assigned = 0;
}

void tff_resources_free(struct tff_resources* r) {
  if (r == NULL) return;
  for (int i = 0; i < r->count; ++i) {
    drop_value(&r->vars[i]);
    free(r->vars[i].container);
    free(r->vars[i].shared_name);
  }
  free(r->vars);
  free(r->init_done);
  free(r);
}

void tff_resources_reset(struct tff_resources* r) {
  if (r == NULL) return;
  for (int i = 0; i < r->count; ++i) drop_value(&r->vars[i]);
  memset(r->init_done, 0, (size_t)r->num_subgraphs);
}

/* The table of ctx's interpreter, created on first use; NULL when out of memory. */
static struct tff_resources* table(const TfLiteContext* ctx) {
  struct tff_resources** slot = tff_context_resources(ctx);
  if (*slot == NULL) {
    struct tff_resources* r = (struct tff_resources*)calloc(1, sizeof(*r));
    const int n = tff_num_subgraphs(ctx);
    if (r == NULL) return NULL;
    r->init_done = (unsigned char*)calloc((size_t)(n > 0 ? n : 1), 1);
    if (r->init_done == NULL) {
      free(r);
      return NULL;
    }
    r->num_subgraphs = n;
    *slot = r;
  }
  return *slot;
}

static char* dup_string(const char* s) {
  const size_t n = strlen(s) + 1;
  char* d = (char*)malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

int tff_resource_id(TfLiteContext* ctx, const char* container, const char* shared_name) {
  struct tff_resources* r = table(ctx);
  if (container == NULL) container = "";
  if (shared_name == NULL) shared_name = "";
  if (r == NULL) return -1;
  for (int i = 0; i < r->count; ++i)
    if (strcmp(r->vars[i].container, container) == 0 &&
        strcmp(r->vars[i].shared_name, shared_name) == 0)
      return i;
  if (r->count == r->cap) {
    const int cap = r->cap ? 2 * r->cap : 8;
    tff_variable* v = (tff_variable*)realloc(r->vars, sizeof(tff_variable) * (size_t)cap);
    if (v == NULL) return -1;
    r->vars = v;
    r->cap = cap;
  }
  tff_variable* v = &r->vars[r->count];
  memset(v, 0, sizeof(*v));
  v->container = dup_string(container);
  v->shared_name = dup_string(shared_name);
  if (v->container == NULL || v->shared_name == NULL) {
    free(v->container);
    free(v->shared_name);
    return -1;
  }
  return r->count++;
}

const TfLiteTensor* tff_resource_value(const TfLiteContext* ctx, int id) {
  const struct tff_resources* r = *tff_context_resources(ctx);
  if (r == NULL || id < 0 || id >= r->count || !r->vars[id].assigned) return NULL;
  tff_variable* v = &r->vars[id];
  if (v->owner) memcpy(v->value.data.raw, v->owner->cur, v->value.bytes);
  return &v->value;
}

TfLiteStatus tff_resource_assign(TfLiteContext* ctx, int id, const TfLiteTensor* value) {
  struct tff_resources* r = *tff_context_resources(ctx);
  if (r == NULL || id < 0 || id >= r->count) {
    ctx->ReportError(ctx, "ASSIGN_VARIABLE: resource id %d is not a variable of this interpreter",
                     id);
    return kTfLiteError;
  }
  tff_variable* v = &r->vars[id];
  detach(v); /* keeps the old value if this assign fails */
  /* Only the bytes the shape covers: a constant's buffer may be longer. */
  size_t bytes = tff_type_size(value->type);
  for (int i = 0; i < value->dims->size; ++i) bytes *= (size_t)value->dims->data[i];
  if (bytes > value->bytes || (bytes > 0 && value->data.raw_const == NULL)) {
    ctx->ReportError(ctx, "ASSIGN_VARIABLE: the value of variable '%s' has no data",
                     v->shared_name);
    return kTfLiteError;
  }
  if (!TfLiteIntArrayEqual(v->value.dims, value->dims)) {
    TfLiteIntArray* dims = TfLiteIntArrayCopy(value->dims);
    if (dims == NULL) goto oom;
    TfLiteIntArrayFree(v->value.dims);
    v->value.dims = dims;
  }
  if (v->value.data.raw == NULL || v->value.bytes != bytes) {
    /* At least one byte, so an empty value still has storage. */
    char* data = (char*)realloc(v->value.data.raw, bytes ? bytes : 1);
    if (data == NULL) goto oom;
    v->value.data.raw = data;
  }
  memcpy(v->value.data.raw, value->data.raw_const, bytes);
  v->value.bytes = bytes;
  v->value.type = value->type;
  v->value.params = value->params;
  v->value.allocation_type = kTfLiteDynamic;
  v->value.name = v->shared_name;
  v->assigned = 1;
  return kTfLiteOk;
oom:
  ctx->ReportError(ctx, "ASSIGN_VARIABLE: out of memory for variable '%s' (%zu bytes)",
                   v->shared_name, bytes);
  return kTfLiteError;
}

void tff_resource_hold(TfLiteContext* ctx, int id, tff_held* h, const TfLiteTensor* like) {
  tff_variable* v = &(*tff_context_resources(ctx))->vars[id];
  if (v->owner && v->owner != h) v->owner->held = 0;
  v->owner = h;
  h->held = 1;
  v->value.params = like->params; /* as ASSIGN_VARIABLE of `like` would leave it */
}

void tff_resource_release(TfLiteContext* ctx, int id, tff_held* h) {
  struct tff_resources* r = *tff_context_resources(ctx);
  if (r != NULL && id >= 0 && id < r->count && r->vars[id].owner == h) detach(&r->vars[id]);
  h->held = 0;
}

int tff_resource_init_done(const TfLiteContext* ctx, int index) {
  const struct tff_resources* r = *tff_context_resources(ctx);
  return r != NULL && index >= 0 && index < r->num_subgraphs && r->init_done[index];
}

TfLiteStatus tff_resource_set_init_done(TfLiteContext* ctx, int index) {
  struct tff_resources* r = table(ctx);
  if (r == NULL || index < 0 || index >= r->num_subgraphs) {
    ctx->ReportError(ctx, "CALL_ONCE: out of memory");
    return kTfLiteError;
  }
  r->init_done[index] = 1;
  return kTfLiteOk;
}
