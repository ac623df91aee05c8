/* Streaming state windows. A streaming model keeps each state variable as
 *   v = READ_VARIABLE(h); o = CONCATENATION(v, x); s = STRIDED_SLICE(o)
 *   (o without as many leading bytes as x has); ASSIGN_VARIABLE(h, s)
 * and its layers read o. With views (alias.h) v, x and s already lie in o,
 * so what remains is copying the state out of the variable and back in. A
 * window instead gives o a buffer of its own that outlives the invoke and
 * holds the variable there: the next invoke starts by sliding this one's s
 * to the front of the buffer, where its v lies, so READ_VARIABLE and
 * ASSIGN_VARIABLE drop out of the plan loop and one copy of the state
 * remains. o never moves, so kernels keeping pointers into their input (the
 * convolutions' indirection) stay valid. (A buffer of several invokes' rows,
 * o sliding along it and the state copied back once per fill, measured
 * slower on okay_nabu: every move makes the convolutions rebuild their
 * indirection.)
 *
 * The variable stays in the resource table (resources.c), held by the
 * window (tff_held): a read anywhere else copies the window's bytes, an
 * assign anywhere else or a reset takes it back, and the window's next load
 * reads it with the READ_VARIABLE kernel (which also reports its errors).
 * Taken only when nothing between the READ and the ASSIGN can reach the
 * variable (no other READ/ASSIGN of it, no control flow), o is no subgraph
 * input or output, every step is prepared before planning and views are on
 * (not with preserve_all_tensors or a delegate). The plan loop calls the
 * load in place of the READ_VARIABLE and leaves the ASSIGN_VARIABLE out;
 * the timed and lazy loops give the variables back and run the plain ops,
 * which stay correct on the window's buffer. */
#ifndef TFLITE_FAST_RUNTIME_WINDOW_H_
#define TFLITE_FAST_RUNTIME_WINDOW_H_

#include <stddef.h>

#include "subgraph.h"
#include "tflite_fast/common.h"

struct tff_subgraph;

typedef struct tff_window {
  tff_held held;          /* cur: the variable's bytes in buf */
  int id;                 /* the resource variable */
  int read, assign;       /* READ_VARIABLE and ASSIGN_VARIABLE nodes */
  int o, s;               /* the concatenation and the next state */
  int assign_at;          /* run-list position of the ASSIGN: a failure before it keeps the state */
  int slide;              /* the last invoke loaded: its s goes to the front */
  size_t state, fresh;    /* bytes of the state (v, s) and of the new rows (x) */
  char* buf;              /* o's bytes */
} tff_window;

/* Gives every window's variable back (its bytes copied into the resource
 * table). */
void tff_windows_release(struct tff_subgraph* sg);
/* allocate_subgraph before prepare, and destroy: gives the variables back
 * and forgets the windows (their buffers go at the next bind). */
void tff_windows_reset(struct tff_subgraph* sg);
/* plan_memory, after the views' lifetimes: finds the windows; their o get
 * no arena entry (first = -1). */
void tff_windows_plan(struct tff_subgraph* sg, int* first);
/* plan_memory, before the views are bound: each o gets its buffer. 0 when
 * out of memory. */
int tff_windows_bind(struct tff_subgraph* sg);
/* allocate_subgraph: the plan loop's steps into sg->run: the plan without
 * the views' no-ops, VAR_HANDLEs and the windows' ASSIGN_VARIABLEs, each window's
 * READ_VARIABLE as ~w (its load). 0 when out of memory. */
int tff_windows_run_list(struct tff_subgraph* sg);
/* The plan loop, before its first step: each window loaded by the last
 * invoke slides its state to the front. */
void tff_windows_slide(struct tff_subgraph* sg);
/* The plan loop's step ~w: unless the window still holds its variable, the
 * READ_VARIABLE reads it into v and the window takes it. */
TfLiteStatus tff_window_load(struct tff_subgraph* sg, int w);
/* The plan loop failed at run step `step`: windows whose ASSIGN would have
 * come later keep their state. */
void tff_windows_failed(struct tff_subgraph* sg, int step);

#endif /* TFLITE_FAST_RUNTIME_WINDOW_H_ */
