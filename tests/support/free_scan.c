/* LD_PRELOAD shim: every block given to free() is searched for the bytes of the file named by
 * B2_FREE_SCAN_KEY before it is released; at exit it prints, on stderr,
 * "free_scan: N blocks freed, K held the key". Used by tests/cli_sum_extras.py to show that
 * blake2simd-sum -k leaves no copy of the key in memory it frees (its own or OpenSSL's or the
 * provider's: all of them free through libc). Not for sanitizer builds (they own free).
 * SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char key[256];
static size_t key_length;
static int key_loaded;
static unsigned long blocks_freed;
static unsigned long blocks_with_key;
static void (*real_free)(void*);

/* Raw system calls only: this runs inside free(), where malloc must not be called. */
static void load_key(void) {
    key_loaded = 1;
    const char* path = getenv("B2_FREE_SCAN_KEY");
    int fd = path != NULL ? open(path, O_RDONLY) : -1;
    if (fd < 0) {
        return;
    }
    ssize_t got = read(fd, key, sizeof key);
    key_length = got > 0 ? (size_t)got : 0;
    close(fd);
}

void free(void* block) {
    if (real_free == NULL) {
        real_free = (void (*)(void*))dlsym(RTLD_NEXT, "free");
    }
    if (block != NULL) {
        if (!key_loaded) {
            load_key();
        }
        ++blocks_freed;
        size_t size = malloc_usable_size(block);
        if (key_length != 0 && size >= key_length && memmem(block, size, key, key_length)) {
            ++blocks_with_key;
        }
    }
    real_free(block);
}

__attribute__((destructor)) static void report(void) {
    char line[96];
    int n = snprintf(line, sizeof line, "free_scan: %lu blocks freed, %lu held the key\n",
                     blocks_freed, blocks_with_key);
    if (n > 0) {
        ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
        (void)ignored;
    }
}
