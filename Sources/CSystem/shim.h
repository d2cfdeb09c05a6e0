#ifndef REFUND_COST_CSYSTEM_SHIM_H
#define REFUND_COST_CSYSTEM_SHIM_H
// Linux calls the Swift Glibc module does not expose. Header only: nothing to link.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// Swaps two existing paths in one step (renameat2 with RENAME_EXCHANGE, Linux 3.15 and later),
// so a reader of either path sees the old or the new entry, never nothing. Returns -1 with
// errno (ENOSYS, EINVAL on file systems without it) when the swap is not possible.
static inline int refund_cost_exchange_paths(const char *a, const char *b) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// Opens a new file with no name in the folder `folder`, for reading and appending, readable by
// its owner alone (O_TMPFILE, Linux 3.11 and later): nothing is left behind however the process
// ends. Returns -1 with errno (EOPNOTSUPP, EISDIR on file systems without it) when it cannot.
static inline int refund_cost_open_unnamed(const char *folder) {
#ifdef O_TMPFILE
    return open(folder, O_TMPFILE | O_RDWR | O_APPEND | O_CLOEXEC, 0600);
#else
    errno = EOPNOTSUPP;
    return -1;
#endif
}

// Asks the processor to bring the cache line at `address` in for writing: a hint, never a
// fault, whatever the address (x86 PREFETCHW / ARM PRFM both ignore an unmapped one).
static inline void refund_cost_prefetch_for_writing(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

// True when every one of the `count` bytes is a character of base64url or base64 (A-Z, a-z,
// 0-9, '-', '_', '+', '/'). Written with comparisons and no table or branch, so that the
// compiler checks 16 bytes or more an instruction: an App Store JWS header is kilobytes of
// certificate chain checked this way on every line.
static inline int refund_cost_base64_alphabet_only(const unsigned char *bytes, size_t count) {
    unsigned char outside = 0;
    for (size_t index = 0; index < count; index++) {
        unsigned char c = bytes[index];
        unsigned char inside = (unsigned char)((unsigned char)(c - 'A') < 26) | (unsigned char)((unsigned char)(c - 'a') < 26)
            | (unsigned char)((unsigned char)(c - '0') < 10) | (unsigned char)(c == '-') | (unsigned char)(c == '_')
            | (unsigned char)(c == '+') | (unsigned char)(c == '/');
        outside |= (unsigned char)(inside ^ 1);
    }
    return outside == 0;
}

// Tells malloc how to keep what the process frees. A block of 1 MB or more gets a mapping of
// its own, given back to the system when it is freed: an array or a table that doubles, or a
// buffer of rows, left in the heap, leaves a hole that the small blocks allocated after it keep
// from being given back, and the next stage's blocks rarely fit: with a 64 MB threshold a
// report held a tenth more memory in the same time (docs/performance.md, "Freed memory given
// back"). Up to 256 MB free at the heap's top stays mapped for the next requests; between
// stages, `refund_cost_give_back_freed_memory` hands every free page back.
static inline void refund_cost_set_freed_memory_policy(int own_mapping_bytes) {
    mallopt(M_MMAP_THRESHOLD, own_mapping_bytes);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

// Gives the pages of every free block in the heap back to the system (malloc_trim).
static inline void refund_cost_give_back_freed_memory(void) {
    malloc_trim(0);
}

// Where `needle` first occurs in `haystack` (GNU memmem), or NULL.
static inline const void *refund_cost_find_bytes(const void *haystack, size_t count, const void *needle, size_t length) {
    return memmem(haystack, count, needle, length);
}

// When the file at `path` was made (statx's birth time, in nanoseconds since 1970), or -1 when
// the file system does not keep it: an inode number can be reused by a file made after another
// was removed, its birth time cannot.
static inline long long refund_cost_birth_time(const char *path) {
    struct statx info;
    if (statx(AT_FDCWD, path, 0, STATX_BTIME, &info) != 0 || !(info.stx_mask & STATX_BTIME)) return -1;
    return (long long)info.stx_btime.tv_sec * 1000000000LL + info.stx_btime.tv_nsec;
}
#endif
