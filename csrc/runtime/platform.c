/* See platform.h. */
#include "platform.h"

#include "cpu/portable.h"

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <malloc.h>
#include <windows.h>

uint64_t tff_now_ns(void) {
  LARGE_INTEGER freq, t; /* the frequency is fixed at boot and cheap to read */
  QueryPerformanceFrequency(&freq);
  QueryPerformanceCounter(&t);
  /* Seconds and remainder apart: counter * 1e9 overflows after ~15 min at 10 MHz. */
  const uint64_t f = (uint64_t)freq.QuadPart, c = (uint64_t)t.QuadPart;
  return c / f * 1000000000u + c % f * 1000000000u / f;
}

int tff_map_file(const char* path, void** data, size_t* size) {
  *data = NULL;
  *size = 0;
  /* Model paths come from Python as UTF-8; the ANSI API would read them in
   * the system code page. */
  const int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
  wchar_t* wpath = n > 0 ? (wchar_t*)malloc((size_t)n * sizeof(wchar_t)) : NULL;
  if (wpath == NULL) return -1;
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, n);
  HANDLE f = CreateFileW(wpath, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL, NULL);
  free(wpath);
  LARGE_INTEGER len;
  if (f == INVALID_HANDLE_VALUE) return -1;
  if (GetFileType(f) != FILE_TYPE_DISK || !GetFileSizeEx(f, &len) || len.QuadPart <= 0 ||
      (uint64_t)len.QuadPart > SIZE_MAX) {
    CloseHandle(f);
    return -1;
  }
  /* The view keeps the mapping and the file open: both handles can go. */
  HANDLE m = CreateFileMappingW(f, NULL, PAGE_READONLY, 0, 0, NULL);
  CloseHandle(f);
  if (m == NULL) return -2;
  void* p = MapViewOfFile(m, FILE_MAP_READ, 0, 0, 0);
  CloseHandle(m);
  if (p == NULL) return -2;
  *data = p;
  *size = (size_t)len.QuadPart;
  return 0;
}

void tff_unmap_file(void* data, size_t size) {
  (void)size;
  UnmapViewOfFile(data);
}

void* tff_aligned_alloc(size_t align, size_t size) { return _aligned_malloc(size, align); }
void tff_aligned_free(void* p) { _aligned_free(p); }

void* tff_reserve(size_t* size) {
  (void)size;
  return NULL;
}
void tff_unreserve(void* p, size_t size) { (void)p, (void)size; }

uint64_t tff_physical_memory(void) {
  MEMORYSTATUSEX s;
  s.dwLength = sizeof(s);
  return GlobalMemoryStatusEx(&s) ? (uint64_t)s.ullTotalPhys : 0;
}

#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t tff_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A file mapping and the file it maps. The mapping of the last file mapped
 * is released into `kept_map` (up to TFF_RESERVE_KEEP bytes), and mapping
 * the same file again takes it back: mobilenet_v2_float's 14 MB cost ~0.6 ms
 * of page faults (fault-around, 16 pages a fault; MAP_POPULATE and
 * MADV_POPULATE_READ map them page by page, ~1 ms) on every construction,
 * and a kept mapping's pages are mapped already. The same device, inode and
 * size is the same file: the mapping holds the inode, so its number cannot
 * be reused meanwhile, and pages of a private mapping never written show
 * the file's current contents, as a new mapping would. Small files are
 * mapped too: reading them copied the whole file on every construction, a
 * kept mapping costs open and fstat (small_cnn_int16x8, 65 KB: construction
 * 47 -> 40 us between LiteRT's, 22 -> 17 us alone). */
typedef struct {
  void* p;
  size_t size;
  dev_t dev;
  ino_t ino;
} file_map;

static _Atomic(file_map*) last_map, kept_map;

static void drop_map(file_map* m) {
  if (m == NULL) return;
  munmap(m->p, m->size);
  free(m);
}

static void* map_whole(int fd, const struct stat* st) {
  const size_t n = (size_t)st->st_size;
  file_map* m = atomic_exchange(&kept_map, NULL);
  if (m != NULL && (m->dev != st->st_dev || m->ino != st->st_ino || m->size != n)) {
    drop_map(m);
    m = NULL;
  }
  void* p = m != NULL ? m->p : mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) return NULL;
  if (m == NULL && (m = (file_map*)malloc(sizeof(*m))) != NULL)
    *m = (file_map){p, n, st->st_dev, st->st_ino};
  /* The newest mapping's record (none without memory for it: then it is
   * unmapped, not kept); the one it replaces is a record only. */
  free(atomic_exchange(&last_map, m));
  return p;
}

int tff_map_file(const char* path, void** data, size_t* size) {
  *data = NULL;
  *size = 0;
  const int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  const size_t n = (size_t)st.st_size;
  void* p = map_whole(fd, &st);
  close(fd);
  if (p == NULL) return -2;
  *data = p;
  *size = n;
  return 0;
}

void tff_unmap_file(void* data, size_t size) {
  /* Taken out to be read (a concurrent map_whole may free what it swaps
   * out); another file's record goes back unless a newer one came. */
  file_map* m = atomic_exchange(&last_map, NULL);
  if (m != NULL && m->p == data && size <= TFF_RESERVE_KEEP) {
    drop_map(atomic_exchange(&kept_map, m));
    return;
  }
  file_map* none = NULL;
  if (m != NULL && (m->p == data || !atomic_compare_exchange_strong(&last_map, &none, m)))
    free(m);
  munmap(data, size);
}

void* tff_aligned_alloc(size_t align, size_t size) {
  void* p;
  return posix_memalign(&p, align, size) == 0 ? p : NULL;
}
void tff_aligned_free(void* p) { free(p); }

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFF_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TFF_ASAN 1
#endif

/* The region kept by tff_unreserve, its size in its first bytes. */
static _Atomic(char*) kept_region;

static size_t region_size(const char* p) {
  size_t size;
  memcpy(&size, p, sizeof(size));
  return size;
}

void* tff_reserve(size_t* size) {
#if defined(TFF_ASAN) || UINTPTR_MAX <= 0xffffffffu
  (void)size;
  return NULL;
#else
  const size_t a = TFF_RESERVE_ALIGN;
  if (*size == 0 || *size > SIZE_MAX / 2) return NULL;
  *size = (*size + a - 1) / a * a;
  char* kept = atomic_exchange(&kept_region, NULL);
  if (kept != NULL) {
    if (region_size(kept) >= *size) {
      *size = region_size(kept);
      return kept;
    }
    munmap(kept, region_size(kept));
  }
  /* Mapped one alignment unit longer, then trimmed to an aligned start: huge
   * pages need 2 MiB-aligned virtual ranges. MAP_NORESERVE: only touched
   * pages count against the commit limit. */
  int flags = MAP_PRIVATE | MAP_ANON;
#ifdef MAP_NORESERVE
  flags |= MAP_NORESERVE;
#endif
  char* raw = (char*)mmap(NULL, *size + a, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (raw == (char*)MAP_FAILED) return NULL;
  char* p = (char*)(((uintptr_t)raw + a - 1) & ~(uintptr_t)(a - 1));
  if (p > raw) munmap(raw, (size_t)(p - raw));
  munmap(p + *size, (size_t)(raw + a - p)); /* at least a page: p < raw + a */
#ifdef MADV_HUGEPAGE
  madvise(p, *size, MADV_HUGEPAGE); /* advice only: 4 KiB pages if refused */
#endif
  return p;
#endif
}

void tff_unreserve(void* p, size_t size) {
  if (p == NULL) return;
  if (size > TFF_RESERVE_KEEP) {
    munmap(p, size);
    return;
  }
  memcpy(p, &size, sizeof(size));
  char* old = atomic_exchange(&kept_region, (char*)p);
  if (old != NULL) munmap(old, region_size(old));
}

/* Read once: on Linux each sysconf(_SC_PHYS_PAGES) is a sysinfo() system
 * call, and every allocate_tensors() asks. */
static _Atomic uint64_t physical_memory;

uint64_t tff_physical_memory(void) {
  uint64_t bytes = atomic_load_explicit(&physical_memory, memory_order_relaxed);
  if (bytes != 0) return bytes;
  /* _SC_PHYS_PAGES: Linux and macOS alike (not in POSIX proper). */
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
  atomic_store_explicit(&physical_memory, bytes, memory_order_relaxed);
  return bytes;
}
#endif

enum { kOnceIdle = 0, kOnceRunning = 1, kOnceDone = 2 };

void tff_once(tff_once_flag* flag, void (*init)(void)) {
  if (atomic_load_explicit(flag, memory_order_acquire) == kOnceDone) return;
  int idle = kOnceIdle;
  if (atomic_compare_exchange_strong_explicit(flag, &idle, kOnceRunning, memory_order_acq_rel,
                                              memory_order_acquire)) {
    init();
    atomic_store_explicit(flag, kOnceDone, memory_order_release);
    return;
  }
  while (atomic_load_explicit(flag, memory_order_acquire) != kOnceDone) tff_cpu_relax();
}
