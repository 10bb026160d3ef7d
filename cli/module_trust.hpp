// Whether anyone but root could replace a module file, judged before root loads it.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace b2sum {

// "" when nobody but root can replace `path`: every directory from / down, the directory of
// every symbolic link on the way and the file itself owned by root and not group/other-writable
// (sshd's StrictModes; blake2simd-config judges openssl.cnf and the module the same way). A path
// that stops existing under trusted directories is "" too: loading it then fails on its own.
// Otherwise the reason, naming the component.
std::string why_others_could_replace(const std::string& path);

}  // namespace b2sum
