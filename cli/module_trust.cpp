// SPDX-License-Identifier: Apache-2.0
#include "module_trust.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>

namespace b2sum {
namespace {

constexpr int kMaxSymlinkHops = 40;

std::deque<std::string> components(const std::string& path) {
    std::deque<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        const size_t end = std::min(path.find('/', start), path.size());
        if (end > start) {
            parts.push_back(path.substr(start, end - start));
        }
        start = end + 1;
    }
    return parts;
}

std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') {
        return path;
    }
    char cwd[4096];
    return getcwd(cwd, sizeof cwd) != nullptr ? std::string(cwd) + "/" + path : "/" + path;
}

std::string parent_of(const std::string& directory) {
    const size_t slash = directory.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : directory.substr(0, slash);
}

std::string judge(const std::string& component, const struct stat& info) {
    if (info.st_uid != 0) {
        return component + " is owned by uid " + std::to_string(info.st_uid);
    }
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
        return component + " is writable by group or others (mode " + mode + ")";
    }
    return {};
}

std::string link_target(const std::string& link) {
    char target[4096];
    const ssize_t length = readlink(link.c_str(), target, sizeof target - 1);
    return length > 0 ? std::string(target, static_cast<size_t>(length)) : std::string();
}

}  // namespace

std::string why_others_could_replace(const std::string& path) {
    std::deque<std::string> pending = components(absolute(path));
    std::string current = "/";
    struct stat info {};
    std::string problem = lstat("/", &info) == 0 ? judge("/", info) : "cannot examine /";
    int hops = 0;
    while (problem.empty() && !pending.empty()) {
        const std::string name = pending.front();
        pending.pop_front();
        if (name == "." || name == "..") {
            current = name == "." ? current : parent_of(current);
            continue;
        }
        const std::string candidate = (current == "/" ? "" : current) + "/" + name;
        if (lstat(candidate.c_str(), &info) != 0) {
            return errno == ENOENT ? std::string() : candidate + ": " + std::strerror(errno);
        }
        if (S_ISLNK(info.st_mode)) {  // its directory, `current`, was judged already
            const std::string target = link_target(candidate);
            if (++hops > kMaxSymlinkHops || target.empty()) {
                return "cannot follow the symbolic link " + candidate;
            }
            current = target[0] == '/' ? "/" : current;
            const std::deque<std::string> more = components(target);
            pending.insert(pending.begin(), more.begin(), more.end());
            continue;
        }
        problem = judge(candidate, info);
        current = candidate;
    }
    return problem;
}

}  // namespace b2sum
