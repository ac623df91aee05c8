/* Work splitting; see threadpool.h. One pool per interpreter: num_threads - 1
 * workers plus the calling thread (thread 0). Each task gives every thread
 * an equal contiguous range of the items; a thread claims chunks from the
 * front of its own range and, when that is empty, steals chunks from the
 * back of the others' (as XNNPACK's pthreadpool). Thread t thus gets the
 * same part of every layer's output (the same image rows, for the row-major
 * splits of the conv and elementwise ops), so most of what a layer reads is
 * still in the private cache of the core that wrote it; shared guided
 * chunks interleaved the rows of the two threads, and the 112x112 and 56x56
 * depthwise layers read half their input from the other core.
 * A range word carries the task's generation, so a worker that wakes late
 * claims nothing from a finished task, and the caller waits only for the
 * chunks, not for every worker (which matters when the machine is
 * oversubscribed: the caller steals a sleeping worker's range).
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
/* A range word is generation << 32 | begin << 16 | end, so a task has at
 * most kMaxItems items; a bigger n is cut into kMaxItems-or-fewer runs of
 * consecutive items ("units"), still thousands a thread. */
enum { kMaxItems = 0xffff };

/* One thread's range, on its own cache line: the owner's claims do not
 * invalidate the line the other threads' claims use. */
typedef struct {
  _Atomic uint64_t range;
  char pad[64 - sizeof(uint64_t)];
} tff_range;

struct tff_threadpool {
  int num_workers;
  tff_thread* threads;
  tff_range* ranges;          /* [num_workers + 1], 64-byte aligned */
  tff_mutex mutex;
  tff_cond wake;
  atomic_uint generation;     /* bumped once per task (and at shutdown) */
  atomic_int sleepers;        /* workers blocked on `wake` */
  atomic_int busy;            /* a task is running: nested calls go inline */
  atomic_int next_worker;     /* a starting worker's index - 1 */
  int stop;
  /* The current task, written before its range words are stored and read
   * only after claiming one of its chunks (the task cannot end before
   * then). An item (unit) is `unit` items of fn's range [0, n). */
  tff_task_fn fn;
  void* arg;
  int n, unit;
  /* The claim size in units, read before a claim: a stale value only
   * changes the size of a chunk the range word still holds. */
  atomic_int grain;
  atomic_int done;            /* units finished */
};

static uint64_t range_word(unsigned gen, int begin, int end) {
  return (uint64_t)gen << 32 | (uint64_t)begin << 16 | (uint64_t)end;
}

/* A claim takes 1/kGuide of what is left in a range, at least the grain:
 * few claims (a 1x1 conv tile is ~80 ns of work, a claim ~20 ns), and the
 * chunks shrink toward the end, so threads finish within about a grain of
 * each other, and a thread that sleeps or is preempted holds back at most
 * a quarter of its range. */
enum { kGuide = 4 };

/* Claims units of task `gen` from the front (own range) or the back
 * (another's) of *r: 0 when the range is empty or of another task, else the
 * claimed units, first at *first. */
static int claim(_Atomic uint64_t* r, unsigned gen, int grain, int front, int* first) {
  uint64_t v = atomic_load_explicit(r, memory_order_acquire);
  for (;;) {
    if ((unsigned)(v >> 32) != gen) return 0;
    const int begin = (int)(v >> 16 & 0xffff), end = (int)(v & 0xffff);
    if (begin >= end) return 0;
    int size = (end - begin) / kGuide;
    if (size < grain) size = grain;
    if (size > end - begin) size = end - begin;
    const uint64_t next = front ? v + ((uint64_t)size << 16) : v - (uint64_t)size;
    if (atomic_compare_exchange_weak_explicit(r, &v, next, memory_order_acq_rel,
                                              memory_order_acquire)) {
      *first = front ? begin : end - size;
      return size;
    }
  }
}

/* Runs units [first, first + size) of the current task. */
static void run_units(const struct tff_threadpool* p, int first, int size) {
  const int64_t begin = (int64_t)first * p->unit, end = (int64_t)(first + size) * p->unit;
  p->fn(p->arg, (int)begin, end < p->n ? (int)end : p->n);
}

/* Thread `self` runs chunks of task `gen`, its own range first, then the
 * others' from the back, until none is left (or the task is over); returns
 * the units it ran. */
static int run_chunks(struct tff_threadpool* p, unsigned gen, int self) {
  const int threads = p->num_workers + 1;
  const int grain = atomic_load_explicit(&p->grain, memory_order_relaxed);
  int ran = 0, first, size;
  while ((size = claim(&p->ranges[self].range, gen, grain, 1, &first)) > 0) {
    run_units(p, first, size);
    ran += size;
  }
  for (int k = 1; k < threads; ++k) {
    _Atomic uint64_t* r = &p->ranges[(self + k) % threads].range;
    while ((size = claim(r, gen, grain, 0, &first)) > 0) {
      run_units(p, first, size);
      ran += size;
    }
  }
  return ran;
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
  const int self = atomic_fetch_add(&p->next_worker, 1) + 1;
  /* The generation at creation, not at thread start: a task may be published
   * before this thread first runs. */
  unsigned seen = 0;
  for (;;) {
    seen = wait_for_task(p, seen);
    if (p->stop) return;
    /* One count per task: the caller waits for these units only. */
    const int ran = run_chunks(p, seen, self);
    if (ran > 0) atomic_fetch_add_explicit(&p->done, ran, memory_order_release);
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
  p->ranges = (tff_range*)tff_aligned_alloc(64, (size_t)num_threads * sizeof(tff_range));
  if (p->threads == NULL || p->ranges == NULL || mutex_init(&p->mutex) != 0) {
    tff_aligned_free(p->ranges);
    free(p->threads);
    free(p);
    return NULL;
  }
  cond_init(&p->wake);
  atomic_init(&p->generation, 0);
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->busy, 0);
  atomic_init(&p->next_worker, 0);
  atomic_init(&p->grain, 1);
  atomic_init(&p->done, 0);
  for (int i = 0; i < num_threads; ++i) atomic_init(&p->ranges[i].range, 0);
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
  tff_aligned_free(p->ranges);
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
  p->n = n;
  p->unit = n <= kMaxItems ? 1 : (n + kMaxItems - 1) / kMaxItems;
  const int units = (n + p->unit - 1) / p->unit, parts = p->num_workers + 1;
  atomic_store_explicit(&p->grain, (grain + p->unit - 1) / p->unit, memory_order_relaxed);
  atomic_store_explicit(&p->done, 0, memory_order_relaxed);
  const unsigned gen = atomic_load_explicit(&p->generation, memory_order_relaxed) + 1;
  for (int t = 0; t < parts; ++t)
    atomic_store_explicit(&p->ranges[t].range,
                          range_word(gen, (int)((int64_t)units * t / parts),
                                     (int)((int64_t)units * (t + 1) / parts)),
                          memory_order_release);
  publish(p, gen);
  const int mine = run_chunks(p, gen, 0);
  /* Chunks claimed by workers may still run: wait for all of them. */
  for (int i = 0; atomic_load_explicit(&p->done, memory_order_acquire) != units - mine; ++i) {
    if (i < kSpinsBeforeYield) tff_cpu_relax();
    else thread_yield();
  }
  atomic_store_explicit(&p->busy, 0, memory_order_release);
}

int tff_num_threads(const TfLiteContext* ctx) {
  return ctx->recommended_num_threads > 1 ? ctx->recommended_num_threads : 1;
}
