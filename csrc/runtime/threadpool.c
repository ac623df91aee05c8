/* Work splitting; see threadpool.h. One pool per interpreter: num_threads - 1
 * workers plus the calling thread claim chunks from an atomic counter that
 * also carries the task's generation, so a worker that wakes late claims
 * nothing from a finished task and the caller waits only for the chunks, not
 * for every worker (which matters when the machine is oversubscribed).
 * A task is published by bumping `generation`; idle workers spin briefly on
 * it (ops of one invoke follow each other within microseconds) and then
 * sleep on a condition variable, so an idle interpreter costs no CPU. */
#include "threadpool.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "cpu/portable.h"
#include "platform.h"
#include "threadpool_internal.h"

/* The OS threads under the pool: pthreads, or Win32 threads with a slim
 * reader/writer lock and a condition variable (Vista+; MSVC has no pthreads,
 * and mingw's winpthreads would add a DLL to the wheel). */
#if defined(_WIN32)
#include <windows.h>
typedef HANDLE tff_thread;
typedef SRWLOCK tff_mutex;
typedef CONDITION_VARIABLE tff_cond;
static int mutex_init(tff_mutex* m) { InitializeSRWLock(m); return 0; }
static void mutex_destroy(tff_mutex* m) { (void)m; /* SRW locks hold no resources */ }
static void mutex_lock(tff_mutex* m) { AcquireSRWLockExclusive(m); }
static void mutex_unlock(tff_mutex* m) { ReleaseSRWLockExclusive(m); }
static void cond_init(tff_cond* c) { InitializeConditionVariable(c); }
static void cond_destroy(tff_cond* c) { (void)c; }
static void cond_wait(tff_cond* c, tff_mutex* m) { SleepConditionVariableSRW(c, m, INFINITE, 0); }
static void cond_broadcast(tff_cond* c) { WakeAllConditionVariable(c); }
static void thread_yield(void) { SwitchToThread(); }
static void worker_main(void* arg);
static DWORD WINAPI worker_entry(LPVOID arg) {
  worker_main(arg);
  return 0;
}
static int thread_start(tff_thread* t, void* arg) {
  *t = CreateThread(NULL, 0, worker_entry, arg, 0, NULL);
  return *t == NULL ? -1 : 0;
}
static void thread_join(tff_thread t) {
  WaitForSingleObject(t, INFINITE);
  CloseHandle(t);
}
#else
#include <pthread.h>
#include <sched.h>
typedef pthread_t tff_thread;
typedef pthread_mutex_t tff_mutex;
typedef pthread_cond_t tff_cond;
static int mutex_init(tff_mutex* m) { return pthread_mutex_init(m, NULL); }
static void mutex_destroy(tff_mutex* m) { pthread_mutex_destroy(m); }
static void mutex_lock(tff_mutex* m) { pthread_mutex_lock(m); }
static void mutex_unlock(tff_mutex* m) { pthread_mutex_unlock(m); }
static void cond_init(tff_cond* c) { pthread_cond_init(c, NULL); }
static void cond_destroy(tff_cond* c) { pthread_cond_destroy(c); }
static void cond_wait(tff_cond* c, tff_mutex* m) { pthread_cond_wait(c, m); }
static void cond_broadcast(tff_cond* c) { pthread_cond_broadcast(c); }
static void thread_yield(void) { sched_yield(); }
static void worker_main(void* arg);
static void* worker_entry(void* arg) {
  worker_main(arg);
  return NULL;
}
static int thread_start(tff_thread* t, void* arg) { return pthread_create(t, NULL, worker_entry, arg); }
static void thread_join(tff_thread t) { pthread_join(t, NULL); }
#endif

/* How long an idle worker spins before it sleeps: by the clock, not by
 * iterations, because PAUSE takes ~10 to ~140 cycles depending on the CPU
 * (4000 of them were ~10 us on this EPYC: workers slept between the ops of
 * one invoke and every op paid a futex wake-up). 1 ms covers the gaps
 * between ops and between back-to-back invokes; then the worker sleeps, so
 * an idle interpreter still costs no CPU. Also the caller's spins before it
 * starts yielding while it waits for stragglers.
 * Past the first kPauseNs an idle worker spins by yielding, not by PAUSE: on
 * a busy machine the worker often shares a core with the caller (the
 * scheduler balances thread counts: caller and worker on one core, another
 * process on the other), and a PAUSE-spinning worker held that core for
 * most of the millisecond after each task: mobilenet_v2_int8 at 2 threads
 * took 15.5 ms per invoke next to a compiler, against 6.8 ms at 1 thread;
 * yielding, 8.5 ms. A yield with nothing else runnable returns at once, so
 * a worker on a free core still reacts within about a microsecond. */
enum { kSpinNsBeforeSleep = 1000000, kPauseNs = 20000, kSpinsBeforeYield = 1000 };
/* Guided chunks: a claim takes 1/kGuide of the items a thread has left
 * (remaining / (threads · kGuide), at least the grain), so chunks shrink
 * toward the end and the threads finish within about one grain of each
 * other, in O(threads · log n) claims. 4 equal chunks a thread left a thread
 * idle for up to a chunk (7x7 layers on 2 threads: 3 chunks against 2). */
enum { kGuide = 2 };

struct tff_threadpool {
  int num_workers;
  tff_thread* threads;
  tff_mutex mutex;
  tff_cond wake;
  atomic_uint generation;     /* bumped once per task (and at shutdown) */
  atomic_int sleepers;        /* workers blocked on `wake` */
  atomic_int busy;            /* a task is running: nested calls go inline */
  int stop;
  /* The current task, written before `generation` is bumped and read only
   * after claiming one of its chunks (the task cannot end before then). */
  tff_task_fn fn;
  void* arg;
  /* n and grain of task `generation`, in slot generation & 1: a worker that
   * loaded a stale claim word of task g reads task g's n (the next task
   * writes the other slot), so it never claims items past task g's end; the
   * task after next rewrites the slot only after its own claim word moved on,
   * and then the stale CAS fails. (With one n, a stale worker could read the
   * next task's n before the next claim word was stored, claim items of
   * task g that do not exist, and count them into the next task's `done`.) */
  struct { atomic_int n, grain; } size[2];
  _Atomic uint64_t claim;     /* generation << 32 | next item */
  atomic_int done;            /* items finished */
};

/* Runs chunks of task `gen` until none is left (or the task is over). n and
 * grain may belong to the task after next when v is stale; the CAS then
 * fails (see `size`). */
static void run_chunks(struct tff_threadpool* p, unsigned gen) {
  const int parts = (p->num_workers + 1) * kGuide;
  uint64_t v = atomic_load_explicit(&p->claim, memory_order_acquire);
  for (;;) {
    if ((unsigned)(v >> 32) != gen) return;
    const int begin = (int)(uint32_t)v;
    const int n = atomic_load_explicit(&p->size[gen & 1].n, memory_order_acquire);
    if (begin >= n) return;
    int size = (n - begin) / parts;
    const int grain = atomic_load_explicit(&p->size[gen & 1].grain, memory_order_relaxed);
    if (size < grain) size = grain;
    if (size > n - begin) size = n - begin;
    if (!atomic_compare_exchange_weak_explicit(&p->claim, &v, v + (uint64_t)size,
                                               memory_order_acq_rel, memory_order_acquire))
      continue;
    p->fn(p->arg, begin, begin + size);
    atomic_fetch_add_explicit(&p->done, size, memory_order_release);
    v = atomic_load_explicit(&p->claim, memory_order_acquire);
  }
}

/* Waits until `generation` moves past `seen`; returns the new value. */
static unsigned wait_for_task(struct tff_threadpool* p, unsigned seen) {
  const uint64_t start = tff_now_ns();
  for (unsigned i = 1, yielding = 0;; ++i) {
    const unsigned g = atomic_load_explicit(&p->generation, memory_order_acquire);
    if (g != seen) return g;
    if (yielding)
      thread_yield();
    else
      tff_cpu_relax();
    if (i % 64 != 0) continue; /* the clock read is ~20 ns */
    const uint64_t spent = tff_now_ns() - start;
    if (spent >= kSpinNsBeforeSleep) break;
    yielding = spent >= kPauseNs;
  }
  mutex_lock(&p->mutex);
  /* sleepers++ before re-reading generation pairs with the publisher's
   * generation++ before reading sleepers (both seq_cst): one of the two sees
   * the other, so a wakeup is never lost. */
  atomic_fetch_add(&p->sleepers, 1);
  unsigned g;
  while ((g = atomic_load(&p->generation)) == seen) cond_wait(&p->wake, &p->mutex);
  atomic_fetch_sub(&p->sleepers, 1);
  mutex_unlock(&p->mutex);
  return g;
}

static void worker_main(void* arg) {
  struct tff_threadpool* p = (struct tff_threadpool*)arg;
  /* The generation at creation, not at thread start: a task may be published
   * before this thread first runs. */
  unsigned seen = 0;
  for (;;) {
    seen = wait_for_task(p, seen);
    if (p->stop) return;
    run_chunks(p, seen);
  }
}

static void publish(struct tff_threadpool* p, unsigned gen) {
  atomic_store(&p->generation, gen);
  if (atomic_load(&p->sleepers) > 0) {
    mutex_lock(&p->mutex);
    cond_broadcast(&p->wake);
    mutex_unlock(&p->mutex);
  }
}

/* A pool of num_threads - 1 workers; fewer when thread creation fails (with
 * none the pool is never used). */
static struct tff_threadpool* pool_create(int num_threads) {
  struct tff_threadpool* p = (struct tff_threadpool*)calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->threads = (tff_thread*)calloc((size_t)(num_threads - 1), sizeof(tff_thread));
  if (p->threads == NULL || mutex_init(&p->mutex) != 0) {
    free(p->threads);
    free(p);
    return NULL;
  }
  cond_init(&p->wake);
  atomic_init(&p->generation, 0);
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->busy, 0);
  atomic_init(&p->claim, 0);
  atomic_init(&p->done, 0);
  for (int i = 0; i < 2; ++i) {
    atomic_init(&p->size[i].n, 0);
    atomic_init(&p->size[i].grain, 1);
  }
  for (int i = 0; i < num_threads - 1; ++i) {
    if (thread_start(&p->threads[i], p) != 0) break;
    p->num_workers++;
  }
  return p;
}

void tff_threadpool_destroy(struct tff_threadpool* p) {
  if (p == NULL) return;
  mutex_lock(&p->mutex);
  p->stop = 1;
  atomic_fetch_add(&p->generation, 1);
  cond_broadcast(&p->wake);
  mutex_unlock(&p->mutex);
  for (int i = 0; i < p->num_workers; ++i) thread_join(p->threads[i]);
  cond_destroy(&p->wake);
  mutex_destroy(&p->mutex);
  free(p->threads);
  free(p);
}

void tff_parallel_for(TfLiteContext* ctx, int n, int grain, tff_task_fn fn, void* arg) {
  if (n <= 0) return;
  const int threads = tff_num_threads(ctx);
  if (grain < 1) grain = 1;
  if (threads == 1 || n < 2 * grain) {
    fn(arg, 0, n);
    return;
  }
  struct tff_threadpool** slot = tff_context_pool(ctx);
  if (*slot == NULL) *slot = pool_create(threads);
  struct tff_threadpool* p = *slot;
  int expected = 0;
  /* No pool, no workers, or a nested call from inside a task: run inline. */
  if (p == NULL || p->num_workers == 0 ||
      !atomic_compare_exchange_strong(&p->busy, &expected, 1)) {
    fn(arg, 0, n);
    return;
  }
  p->fn = fn;
  p->arg = arg;
  const unsigned gen = atomic_load_explicit(&p->generation, memory_order_relaxed) + 1;
  atomic_store_explicit(&p->size[gen & 1].grain, grain, memory_order_relaxed);
  atomic_store_explicit(&p->size[gen & 1].n, n, memory_order_release);
  atomic_store_explicit(&p->done, 0, memory_order_relaxed);
  atomic_store_explicit(&p->claim, (uint64_t)gen << 32, memory_order_release);
  publish(p, gen);
  run_chunks(p, gen);
  /* Chunks claimed by workers may still run: wait for all of them. */
  for (int i = 0; atomic_load_explicit(&p->done, memory_order_acquire) != n; ++i) {
    if (i < kSpinsBeforeYield) tff_cpu_relax();
    else thread_yield();
  }
  atomic_store_explicit(&p->busy, 0, memory_order_release);
}

int tff_num_threads(const TfLiteContext* ctx) {
  return ctx->recommended_num_threads > 1 ? ctx->recommended_num_threads : 1;
}
