// Hashing one file (or standard input) in large reads.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "evp_hash.hpp"

namespace b2sum {

// Set once standard input has been read (coreutils then checks that it closes).
inline std::atomic<bool> g_read_stdin{false};

inline constexpr size_t kReadSize = size_t{1} << 20;

// The buffers of one hashing thread. With `read_ahead`, a large regular file is read by a
// thread of its own into one buffer while the other is hashed (the copy out of the page cache
// then costs no time on the hashing core); -j leaves that off, its cores being busy already.
struct ReadBuffer {
    explicit ReadBuffer(bool read_ahead = false);
    std::unique_ptr<unsigned char, void (*)(void*)> bytes;
    std::unique_ptr<unsigned char, void (*)(void*)> second;
    bool read_ahead;
};

struct FileDigest {
    bool ok = false;
    bool missing = false;               // ENOENT, when the caller tolerates it
    int error_number = 0;               // errno of the failed open or read
    std::vector<unsigned char> digest;  // spec.bits / 8 bytes once ok
    std::string kernel;                 // with -v
    std::string wrong_kernel;           // the kernel that served instead of spec.required_kernel
};

// `name` "-" is standard input. The digest is spec.bits / 8 bytes.
FileDigest hash_file(const std::string& name, const Fetched& fetched, const HashSpec& spec,
                     Hashing& hashing, ReadBuffer& buffer, bool want_kernel);

}  // namespace b2sum
