// The OpenSSL error queue as text, for the EVP tests: in every failure message of check.hpp,
// and the reason a rejection test compares with the documented one.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/err.h>

#include <string>

#include "b2test/check.hpp"

namespace b2test {

// Everything on the OpenSSL error queue as text (and the queue emptied), for failure messages.
inline std::string drain_openssl_errors() {
    std::string text;
    const char* file = nullptr;
    int line = 0;
    unsigned long code = 0;
    while ((code = ERR_get_error_all(&file, &line, nullptr, nullptr, nullptr)) != 0) {
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        if (!text.empty()) {
            text += "; ";
        }
        text += buffer;
    }
    return text;
}

// The reason text of the newest error on the queue (queue emptied), or "": what a rejection
// test compares with the documented reason.
inline std::string last_reason() {
    unsigned long code = 0;
    unsigned long last = 0;
    while ((code = ERR_get_error()) != 0) {
        last = code;
    }
    const char* reason = last != 0 ? ERR_reason_error_string(last) : nullptr;
    return reason != nullptr ? reason : "";
}

inline std::string openssl_failure_note() {
    const std::string errors = drain_openssl_errors();
    return errors.empty() ? errors : "openssl: " + errors;
}

// Every failure message of a program that includes this header carries the queue.
inline const bool kOpensslErrorsInFailures = (failure_note = &openssl_failure_note, true);

}  // namespace b2test
