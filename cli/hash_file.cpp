// SPDX-License-Identifier: Apache-2.0
#include "hash_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <thread>

namespace b2sum {

namespace {

unsigned char* page_aligned(bool wanted) {
    return wanted ? static_cast<unsigned char*>(std::aligned_alloc(4096, kReadSize)) : nullptr;
}

// Fills `data` up to kReadSize; sets *eof when the end was reached. 0 or an errno.
int fill(int fd, unsigned char* data, size_t* length, bool* eof) {
    *length = 0;
    *eof = false;
    while (*length < kReadSize) {
        const ssize_t got = read(fd, data + *length, kReadSize - *length);
        if (got == 0) {
            *eof = true;
            return 0;
        }
        if (got < 0 && errno != EINTR) {
            return errno;
        }
        *length += got > 0 ? static_cast<size_t>(got) : 0;
    }
    return 0;
}

// Two buffers handed between a reading thread and the hashing one. The lock is held only to
// hand a buffer over, never while reading or hashing.
class ReadAhead {
  public:
    ReadAhead(int fd, ReadBuffer& buffer)
        : fd_(fd), slots_{{buffer.bytes.get()}, {buffer.second.get()}} {}

    int hash_all(Hashing& hashing) {
        std::thread reader([this] { read_all(); });
        int result = 0;
        for (size_t i = 0;; i ^= 1) {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [&] { return slots_[i].full; });
            const Slot slot = slots_[i];
            lock.unlock();
            if (slot.error == 0 && !hashing.update(slot.data, slot.length)) {
                result = EIO;
            }
            result = result != 0 ? result : slot.error;
            lock.lock();
            slots_[i].full = false;
            stop_ = result != 0 || slot.last;
            lock.unlock();
            changed_.notify_all();
            if (stop_) {
                break;
            }
        }
        reader.join();
        return result;
    }

  private:
    struct Slot {
        unsigned char* data;
        size_t length = 0;
        int error = 0;
        bool last = false;
        bool full = false;
    };

    void read_all() {
        for (size_t i = 0;; i ^= 1) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                changed_.wait(lock, [&] { return !slots_[i].full || stop_; });
                if (stop_) {
                    return;
                }
            }
            size_t length = 0;
            bool eof = false;
            const int error = fill(fd_, slots_[i].data, &length, &eof);
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                slots_[i] = Slot{slots_[i].data, length, error, eof || error != 0, true};
            }
            changed_.notify_all();
            if (eof || error != 0) {
                return;
            }
        }
    }

    int fd_;
    Slot slots_[2];
    std::mutex mutex_;
    std::condition_variable changed_;
    bool stop_ = false;
};

// BLAKE2SIMD_SUM_READ_AHEAD=0 turns reading ahead off, for measuring what it brings
// (bench/sum_bench.py).
bool read_ahead_allowed() {
    const char* setting = secure_getenv("BLAKE2SIMD_SUM_READ_AHEAD");
    return setting == nullptr || std::string_view(setting) != "0";
}

bool worth_reading_ahead(int fd, const ReadBuffer& buffer) {
    static const bool allowed = read_ahead_allowed();
    struct stat st {};
    return allowed && buffer.read_ahead && buffer.second && fstat(fd, &st) == 0 &&
           S_ISREG(st.st_mode) && st.st_size >= static_cast<off_t>(4 * kReadSize);
}

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

ReadBuffer::ReadBuffer(bool overlap)
    : bytes(page_aligned(true), std::free),
      second(page_aligned(overlap), std::free),
      read_ahead(overlap) {}

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
    } else if (!buffer.bytes) {
        error_number = ENOMEM;
    } else if (error_number == 0) {
        error_number = worth_reading_ahead(fd, buffer) ? ReadAhead(fd, buffer).hash_all(hashing)
                                                       : hash_descriptor(fd, hashing, buffer);
    }
    result.digest.resize(spec.bits / 8);
    if (error_number == 0 && !hashing.finish(result.digest.data(), result.digest.size())) {
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
