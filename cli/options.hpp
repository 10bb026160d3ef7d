// The command line of blake2simd-sum: coreutils b2sum's options plus ours.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "algorithms.hpp"

namespace b2sum {

struct Options {
    const Algorithm* algorithm = &kDefaultAlgorithm;
    bool algorithm_given = false;  // -a: checksum lines are read for that algorithm only
    unsigned bits = 0;             // 0: the algorithm's full length
    std::string length_text;       // -l as written, for messages
    int binary = -1;               // -b 1, -t 0, neither -1
    bool tag = false;
    char delimiter = '\n';
    bool check = false;
    bool ignore_missing = false;
    bool quiet = false;
    bool status = false;
    bool strict = false;
    bool warn = false;
    std::string key_path;
    std::string kernel;
    bool show_kernel = false;
    unsigned jobs = 1;
    std::string provider_path;
    std::vector<std::string> files;
};

// Parses argv into `options`. Returns -1 to go on, else the exit status (after --help,
// --version or a usage error, whose message it printed).
int parse_options(int argc, char** argv, Options& options);

}  // namespace b2sum
