// Prints what this CPU offers and which kernel serves: raw CPUID readings, usable features,
// per form every candidate's support/self-test/speed, and the automatic choice.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: kernels_info [--expect=FEATURES]
//   FEATURES is a comma-separated list of exactly the usable features expected (from ssse3, avx,
//   avx2, avx512f, avx512vl; "none" for none); exits 1 when detection disagrees. The qemu tests
//   use it to confirm each emulated CPU model really has and lacks what they assume.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "forms.hpp"

namespace {

// A feature is printed as its CpuFeatures field is named (the vocabulary of tests/qemu.cmake), so
// the name is spelled once, as the field.
#define B2_FEATURE(field) add(f.field, #field)

std::string feature_list(const blake2simd::cpu::CpuFeatures& f) {
    std::string list;
    const auto add = [&](bool on, const char* name) {
        if (on) {
            list += list.empty() ? "" : ",";
            list += name;
        }
    };
    B2_FEATURE(ssse3);
    B2_FEATURE(avx);
    B2_FEATURE(avx2);
    B2_FEATURE(avx512f);
    B2_FEATURE(avx512vl);
    return list.empty() ? "none" : list;
}

#undef B2_FEATURE

void print_form(const blake2simd::dispatch::FormRow& form) {
    namespace dispatch = blake2simd::dispatch;
    const auto candidates = dispatch::candidates(form.form);
    const auto measurements = dispatch::measurements(form.form);
    const size_t block = form.member == blake2simd::Member::blake2b   ? 128
                         : form.member == blake2simd::Member::blake2s ? 64
                                                                      : 1024;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const bool supported =
            dispatch::cpu_can_run(candidates[i].id, blake2simd::cpu::detected_features());
        std::printf("%-8s %-7s %-13s cpu=%-3s self-test=%-4s", form.label,
                    blake2simd::registry::row_of(candidates[i].id).name,
                    candidates[i].lane_by_lane ? "lane by lane" : "native",
                    supported ? "yes" : "no",
                    !supported ? "-" : (measurements[i].usable ? "pass" : "FAIL"));
        if (measurements[i].usable) {
            std::printf(" %7.1f ns/unit %6.0f MB/s", measurements[i].nanoseconds_per_unit,
                        static_cast<double>(form.lanes * block) * 1000.0 /
                            measurements[i].nanoseconds_per_unit);
        }
        std::printf("\n");
    }
}

}  // namespace

int main(int argc, char** argv) {
    namespace dispatch = blake2simd::dispatch;
    const blake2simd::cpu::CpuidReadings r = blake2simd::cpu::read_cpuid();
    std::printf("cpuid: max_leaf=0x%" PRIx32 " leaf1.ecx=0x%08" PRIx32 " leaf7.ebx=0x%08" PRIx32
                " xcr0=0x%" PRIx64 "\n",
                r.max_basic_leaf, r.leaf1_ecx, r.leaf7_ebx, r.xcr0);
    const std::string features = feature_list(blake2simd::cpu::detected_features());
    std::printf("features: %s\n", features.c_str());

    const dispatch::Servings automatic = dispatch::serve(dispatch::parse_request("auto"));
    for (const dispatch::FormRow& form : dispatch::kForms) {
        print_form(form);
        std::printf("selected: %s %s\n", form.label,
                    automatic[dispatch::index_of(form.form)].description);
        std::printf("calibration: %.1f us\n", dispatch::calibration_microseconds(form.form));
    }

    for (int i = 1; i < argc; ++i) {
        constexpr const char* kExpect = "--expect=";
        if (std::strncmp(argv[i], kExpect, std::strlen(kExpect)) != 0) {
            std::fprintf(stderr, "unknown argument: %s\n", argv[i]);
            return 2;
        }
        const char* expected = argv[i] + std::strlen(kExpect);
        if (features != expected) {
            std::fprintf(stderr, "FAIL: expected features '%s', detected '%s'\n", expected,
                         features.c_str());
            return 1;
        }
        std::printf("features match the expectation\n");
    }
    for (const dispatch::Serving& serving : automatic) {
        if (!serving.served) {
            return 1;
        }
    }
    return 0;
}
