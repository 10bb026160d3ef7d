// SPDX-License-Identifier: Apache-2.0
#include "generating.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "hash_file.hpp"
#include "messages.hpp"
#include "quoting.hpp"

namespace b2sum {

const Fetched* FetchedAlgorithms::get(const Algorithm& algorithm) {
    std::unique_ptr<Fetched>& slot = fetched_[&algorithm - kAlgorithms];
    if (!slot) {
        slot = std::make_unique<Fetched>(session_, algorithm, keyed_);
        if (!slot->ok()) {
            report(std::string("the blake2simd provider does not offer ") +
                   (keyed_ ? algorithm.mac : algorithm.digest) + " (" + openssl_error_text() + ")");
        }
    }
    return slot->ok() ? slot.get() : nullptr;
}

bool report_wrong_kernel(const Options& options, const Algorithm& algorithm,
                         const FileDigest& digest) {
    if (digest.wrong_kernel.empty()) {
        return false;
    }
    report("kernel " + options.kernel + " was requested but " + digest.wrong_kernel + " serves " +
           algorithm.tag.data() + " (is it built, for this algorithm, and runnable here?)");
    return true;
}

namespace {

// One output line, as b2sum writes it.
std::string sum_line(const Options& o, const std::string& name, const FileDigest& d) {
    const bool escape = o.delimiter == '\n' && name_needs_escape(name);
    const std::string shown = escape ? escape_name(name) : name;
    const std::string hex = to_hex(d.digest.data(), o.bits / 8);
    std::string line = escape ? "\\" : "";
    if (o.tag) {
        line += o.algorithm->tag;
        if (tag_names_length(*o.algorithm, o.bits)) {
            line += '-';
            line += std::to_string(o.bits);
        }
        line += " (" + shown + ") = " + hex;
    } else {
        line += hex + " " + (o.binary == 1 ? "*" : " ") + shown;
    }
    line += o.delimiter;
    return line;
}

Run emit(const Options& o, const std::string& name, const FileDigest& d) {
    if (report_wrong_kernel(o, *o.algorithm, d)) {
        return Run::provider_failed;
    }
    if (!d.ok) {
        report(quote_name(name), d.error_number);
        return Run::failed;
    }
    const std::string line = sum_line(o, name, d);
    std::fwrite(line.data(), 1, line.size(), stdout);
    if (o.show_kernel) {
        report(quote_name(name) + ": kernel " + d.kernel);
    }
    return Run::ok;
}

// The worse of two outcomes.
Run worse(Run a, Run b) {
    return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

// Workers take the next file; the caller prints each result as soon as its turn comes.
Run hash_in_parallel(const Options& o, const Fetched& fetched, const HashSpec& spec) {
    const size_t count = o.files.size();
    std::vector<FileDigest> results(count);
    std::vector<char> done(count, 0);
    std::mutex mutex;
    std::condition_variable finished;
    std::atomic<size_t> next{0};
    auto work = [&] {
        Hashing hashing;
        ReadBuffer buffer;
        for (size_t i; (i = next.fetch_add(1)) < count;) {
            FileDigest d = hash_file(o.files[i], fetched, spec, hashing, buffer, o.show_kernel);
            const std::lock_guard<std::mutex> lock(mutex);
            results[i] = std::move(d);
            done[i] = 1;
            finished.notify_all();
        }
    };
    std::vector<std::thread> workers;
    for (unsigned j = 0; j < std::min<size_t>(o.jobs, count); ++j) {
        workers.emplace_back(work);
    }
    Run outcome = Run::ok;
    for (size_t i = 0; i < count && outcome != Run::provider_failed; ++i) {
        std::unique_lock<std::mutex> lock(mutex);
        finished.wait(lock, [&] { return done[i] != 0; });
        const FileDigest d = std::move(results[i]);
        lock.unlock();
        outcome = worse(outcome, emit(o, o.files[i], d));
    }
    next = count;  // after a refused kernel, no further file starts
    for (std::thread& worker : workers) {
        worker.join();
    }
    return outcome;
}

}  // namespace

Run generate_sums(const Options& o, const ProviderSession& session, const Key& key) {
    FetchedAlgorithms algorithms(session, !key.empty());
    const Fetched* fetched = algorithms.get(*o.algorithm);
    if (fetched == nullptr) {
        return Run::provider_failed;
    }
    const HashSpec spec{o.algorithm, o.bits, &key, o.kernel};
    if (o.jobs > 1 && o.files.size() > 1) {
        return hash_in_parallel(o, *fetched, spec);
    }
    Hashing hashing;
    ReadBuffer buffer(/*read_ahead=*/true);
    Run outcome = Run::ok;
    for (size_t i = 0; i < o.files.size() && outcome != Run::provider_failed; ++i) {
        const std::string& name = o.files[i];
        outcome =
            worse(outcome,
                  emit(o, name, hash_file(name, *fetched, spec, hashing, buffer, o.show_kernel)));
    }
    return outcome;
}

}  // namespace b2sum
