// SPDX-License-Identifier: Apache-2.0
#include "hash_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>

namespace b2sum {

ReadBuffer::ReadBuffer()
    : bytes(static_cast<unsigned char*>(std::aligned_alloc(4096, kReadSize)), std::free) {}

namespace {

// The whole descriptor through `hashing`; 0 or the errno of the failed read.
int hash_descriptor(int fd, Hashing& hashing, ReadBuffer& buffer) {
    for (;;) {
        const ssize_t got = read(fd, buffer.bytes.get(), kReadSize);
        if (got == 0) {
            return 0;
        }
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        if (!hashing.update(buffer.bytes.get(), static_cast<size_t>(got))) {
            return EIO;
        }
    }
}

}  // namespace

FileDigest hash_file(const std::string& name, const Fetched& fetched, const HashSpec& spec,
                     Hashing& hashing, ReadBuffer& buffer, bool want_kernel) {
    FileDigest result;
    const bool is_stdin = name == "-";
    if (is_stdin) {
        g_read_stdin = true;
    }
    const int fd = is_stdin ? STDIN_FILENO : open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        result.error_number = errno;
        result.missing = errno == ENOENT;
        return result;
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    int error_number = hashing.start(fetched, spec) ? 0 : EIO;
    if (error_number == 0 && !spec.required_kernel.empty() &&
        hashing.kernel() != spec.required_kernel) {
        result.wrong_kernel = hashing.kernel();
        error_number = EIO;
    } else if (error_number == 0) {
        error_number = hash_descriptor(fd, hashing, buffer);
    }
    if (error_number == 0 && !hashing.finish(result.digest, spec.bits / 8)) {
        error_number = EIO;
    }
    if (want_kernel && error_number == 0) {
        result.kernel = hashing.kernel();
    }
    if (!is_stdin && close(fd) != 0 && error_number == 0) {
        error_number = errno;
    }
    result.error_number = error_number;
    result.ok = error_number == 0;
    return result;
}

}  // namespace b2sum
