/* Preloaded (LD_PRELOAD) by argon2.threads_fail_to_start: every pthread_create fails with
 * EAGAIN, as under a thread limit, so the module's Argon2 must still derive the right answer
 * on the threads it has (provider/argon2.cpp: start_helpers).
 * SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <pthread.h>

int pthread_create(pthread_t* thread, const pthread_attr_t* attributes, void* (*start)(void*),
                   void* argument) {
    (void)thread;
    (void)attributes;
    (void)start;
    (void)argument;
    return EAGAIN;
}
