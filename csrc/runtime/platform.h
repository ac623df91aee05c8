/* The operating-system services the runtime needs, behind one small API:
 * POSIX (Linux, macOS) and Win32. Nothing else in csrc/ includes an OS
 * header, except the thread pool for its threads. */
#ifndef TFLITE_FAST_RUNTIME_PLATFORM_H_
#define TFLITE_FAST_RUNTIME_PLATFORM_H_

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* A monotonic clock in nanoseconds (profiling, the pool's spin budget). */
uint64_t tff_now_ns(void);

/* Maps the regular, non-empty file at `path` (UTF-8) read-only. Returns 0,
 * or -1 when it cannot be opened (missing, not a regular file, empty) and
 * -2 when it cannot be mapped. Released by tff_unmap_file with the same
 * size. */
int tff_map_file(const char* path, void** data, size_t* size);
void tff_unmap_file(void* data, size_t size);

/* `size` bytes aligned to `align` (a power of two, a multiple of
 * sizeof(void*)), or NULL; freed only by tff_aligned_free. */
void* tff_aligned_alloc(size_t align, size_t size);
void tff_aligned_free(void* p);

/* At least *size bytes (set to the size obtained, a multiple of
 * TFF_RESERVE_ALIGN) of address space, TFF_RESERVE_ALIGN-aligned, whose
 * pages the OS backs on first touch: on Linux as transparent huge pages,
 * where one fault maps and zeroes 2 MiB (~0.15 ms for 4 MiB here, against
 * ~2 ms in 4 KiB faults). The contents are undefined: the last region
 * released (up to TFF_RESERVE_KEEP bytes) stays mapped, its pages already
 * touched, for the next request it can hold, so building an interpreter
 * after destroying one faults and zeroes nothing. NULL where this build has
 * no such mapping (Win32, 32-bit address spaces, AddressSanitizer builds:
 * ASan must see each buffer on its own); callers then use the heap.
 * Released whole by tff_unreserve with the size obtained. */
enum { TFF_RESERVE_ALIGN = 2 << 20 };
#define TFF_RESERVE_KEEP ((size_t)64 << 20)
void* tff_reserve(size_t* size);
void tff_unreserve(void* p, size_t size);

/* Runs init() once per process however many threads arrive together; the
 * others wait until it has returned. A flag is a zero-initialised static.
 * C11 atomics, not pthread_once: the same code on Win32, and no glibc 2.34
 * symbol in the manylinux2014 wheels. */
typedef atomic_int tff_once_flag;
void tff_once(tff_once_flag* flag, void (*init)(void));

/* Physical memory in bytes, or 0 when unknown. */
uint64_t tff_physical_memory(void);

#endif /* TFLITE_FAST_RUNTIME_PLATFORM_H_ */
