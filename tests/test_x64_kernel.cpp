// Differential test of the generated x86-64 assembly kernel against the reference kernel.
// SPDX-License-Identifier: Apache-2.0
#include <sys/mman.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>

#include "compress_blake2_x64.hpp"
#include "kernel.hpp"
#include "kernels_check.hpp"

namespace {

using blake2simd::Blake2bState;
using blake2simd::kBlake2bBlockBytes;
using blake2simd::kernels::blake2b_compress_ref;
using blake2simd::kernels::blake2b_compress_x64;

constexpr size_t kMaxBlocks = 20;
constexpr size_t kMaxMisalignment = 15;

using b2kernels_test::Random;

using b2test::Report;

// Counts the failure; the first few also show the state words side by side.
void report_mismatch(Report& report, const char* what, const Blake2bState& expected,
                     const Blake2bState& actual, size_t blocks, uint64_t increment,
                     size_t misalignment) {
    char where[160];
    std::snprintf(where, sizeof where, "%s: blocks=%zu increment=%" PRIu64 " misalignment=%zu",
                  what, blocks, increment, misalignment);
    report.fail(nullptr, 0, nullptr, where);
    if (report.failed() > 5) {
        return;
    }
    const uint64_t* e = &expected.h[0];
    const uint64_t* a = &actual.h[0];
    for (size_t i = 0; i < 12; ++i) {
        std::fprintf(stderr, "  word %2zu expected %016" PRIx64 " got %016" PRIx64 "%s\n", i, e[i],
                     a[i], e[i] == a[i] ? "" : "  <--");
    }
}

// Message bytes end exactly at a PROT_NONE page, so reading past the last block faults.
class GuardedBuffer {
  public:
    GuardedBuffer() noexcept {
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        m_usable = (kMaxBlocks * kBlake2bBlockBytes + kMaxMisalignment + page - 1) / page * page;
        void* mapping = mmap(nullptr, m_usable + page, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping == MAP_FAILED) {
            return;
        }
        m_base = static_cast<uint8_t*>(mapping);
        if (mprotect(m_base + m_usable, page, PROT_NONE) != 0) {
            m_base = nullptr;
        }
    }
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;

    [[nodiscard]] bool ok() const noexcept { return m_base != nullptr; }

    // `bytes` writable bytes ending `tail_gap` bytes before the guard page.
    uint8_t* tail(size_t bytes, size_t tail_gap) noexcept {
        return m_base + m_usable - tail_gap - bytes;
    }

  private:
    uint8_t* m_base = nullptr;
    size_t m_usable = 0;
};

void compare_once(Report& report, GuardedBuffer& buffer, const Blake2bState& start, size_t blocks,
                  uint64_t increment, size_t misalignment, Random& random) {
    // The misalignment is applied at both ends: relative to the page and to the guard.
    uint8_t* message = buffer.tail(blocks * kBlake2bBlockBytes, misalignment);
    for (size_t i = 0; i < blocks * kBlake2bBlockBytes; ++i) {
        message[i] = static_cast<uint8_t>(random.next());
    }
    uint8_t copy[kMaxBlocks * kBlake2bBlockBytes];
    std::memcpy(copy, message, blocks * kBlake2bBlockBytes);

    Blake2bState expected = start;
    Blake2bState actual = start;
    blake2b_compress_ref(&expected, message, blocks, increment);
    blake2b_compress_x64(&actual, message, blocks, increment);
    if (std::memcmp(&expected, &actual, sizeof expected) == 0) {
        report.pass();
    } else {
        report_mismatch(report, "state differs from blake2b_compress_ref", expected, actual, blocks,
                        increment, misalignment);
    }
    B2_CHECK(report, std::memcmp(copy, message, blocks * kBlake2bBlockBytes) == 0,
             "the kernel wrote to its input (blocks=" + std::to_string(blocks) + ")");
}

Blake2bState random_state(Random& random) {
    Blake2bState state{};
    for (auto& word : state.h) {
        word = random.next();
    }
    state.t[0] = random.next();
    state.t[1] = random.next();
    // Real flags are 0 or all ones; random words also prove every bit is used.
    const uint64_t flag_choices[] = {0, ~0ULL, random.next()};
    state.f[0] = flag_choices[random.below(3)];
    state.f[1] = flag_choices[random.below(3)];
    return state;
}

void test_random_states(Report& report, GuardedBuffer& buffer, Random& random) {
    for (uint64_t increment = 0; increment <= kBlake2bBlockBytes; ++increment) {
        for (int repeat = 0; repeat < 3; ++repeat) {
            const size_t blocks = 1 + random.below(kMaxBlocks);
            const size_t misalignment = random.below(kMaxMisalignment + 1);
            compare_once(report, buffer, random_state(random), blocks, increment, misalignment,
                         random);
        }
    }
    for (size_t blocks = 1; blocks <= kMaxBlocks; ++blocks) {
        for (size_t misalignment = 0; misalignment <= kMaxMisalignment; ++misalignment) {
            compare_once(report, buffer, random_state(random), blocks, kBlake2bBlockBytes,
                         misalignment, random);
        }
    }
}

void test_counter_carry(Report& report, GuardedBuffer& buffer, Random& random) {
    // The low word wraps inside a multi-block call; the high word wraps too at the very top.
    const uint64_t highs[] = {0, 1, 0x00000000ffffffffULL, ~0ULL};
    const uint64_t increments[] = {1, 7, 127, 128};
    for (uint64_t high : highs) {
        for (uint64_t increment : increments) {
            for (uint64_t before_wrap = 0; before_wrap < 4 * increment;
                 before_wrap += increment / 2 + 1) {
                Blake2bState state = random_state(random);
                state.t[0] = ~0ULL - before_wrap;
                state.t[1] = high;
                compare_once(report, buffer, state, 1 + random.below(8), increment,
                             random.below(16), random);
            }
        }
    }
}

void test_flags(Report& report, GuardedBuffer& buffer, Random& random) {
    const uint64_t flags[] = {0, ~0ULL};
    for (uint64_t f0 : flags) {
        for (uint64_t f1 : flags) {
            for (uint64_t increment : {uint64_t{0}, uint64_t{1}, uint64_t{77}, uint64_t{128}}) {
                Blake2bState state = random_state(random);
                state.f[0] = f0;
                state.f[1] = f1;
                compare_once(report, buffer, state, 1 + random.below(3), increment,
                             random.below(16), random);
            }
        }
    }
}

void test_zero_blocks(Report& report, Random& random) {
    const Blake2bState start = random_state(random);
    Blake2bState state = start;
    blake2b_compress_x64(&state, nullptr, 0, kBlake2bBlockBytes);
    report.check(std::memcmp(&state, &start, sizeof state) == 0,
                 "block_count 0 leaves the state as it was");
}

}  // namespace

// Calls the kernel with every callee-saved register (and %rsp) holding a sentinel and returns
// a bit mask of the ones that came back different (System V: rbx, rbp, r12-r15 in bits 0-5,
// rsp in bit 6).
extern "C" uint64_t x64_kernel_abi_probe(Blake2bState* state, const uint8_t* blocks,
                                         size_t block_count, uint64_t increment) noexcept;

asm(R"(
    .pushsection .text
    .p2align 4
    .type x64_kernel_abi_probe, @function
x64_kernel_abi_probe:
    pushq %rbx
    pushq %rbp
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    movq %rsp, (%rsp)
    movabsq $0x1b1b1b1b1b1b1b1b, %rbx
    movabsq $0x2b2b2b2b2b2b2b2b, %rbp
    movabsq $0x3c3c3c3c3c3c3c3c, %r12
    movabsq $0x4d4d4d4d4d4d4d4d, %r13
    movabsq $0x5e5e5e5e5e5e5e5e, %r14
    movabsq $0x6f6f6f6f6f6f6f6f, %r15
    call blake2simd_blake2b_compress_x64
    xorl %eax, %eax
    movabsq $0x1b1b1b1b1b1b1b1b, %rcx
    cmpq %rcx, %rbx
    setne %al
    movabsq $0x2b2b2b2b2b2b2b2b, %rcx
    cmpq %rcx, %rbp
    setne %dl
    shlb $1, %dl
    orb %dl, %al
    movabsq $0x3c3c3c3c3c3c3c3c, %rcx
    cmpq %rcx, %r12
    setne %dl
    shlb $2, %dl
    orb %dl, %al
    movabsq $0x4d4d4d4d4d4d4d4d, %rcx
    cmpq %rcx, %r13
    setne %dl
    shlb $3, %dl
    orb %dl, %al
    movabsq $0x5e5e5e5e5e5e5e5e, %rcx
    cmpq %rcx, %r14
    setne %dl
    shlb $4, %dl
    orb %dl, %al
    movabsq $0x6f6f6f6f6f6f6f6f, %rcx
    cmpq %rcx, %r15
    setne %dl
    shlb $5, %dl
    orb %dl, %al
    cmpq %rsp, (%rsp)
    setne %dl
    shlb $6, %dl
    orb %dl, %al
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbp
    popq %rbx
    ret
    .size x64_kernel_abi_probe, .-x64_kernel_abi_probe
    .popsection
)");

namespace {

void test_abi(Report& report, GuardedBuffer& buffer, Random& random) {
    for (size_t blocks : {size_t{0}, size_t{1}, size_t{3}}) {
        Blake2bState expected = random_state(random);
        Blake2bState actual = expected;
        uint8_t* message = buffer.tail(blocks * kBlake2bBlockBytes, 0);
        for (size_t i = 0; i < blocks * kBlake2bBlockBytes; ++i) {
            message[i] = static_cast<uint8_t>(random.next());
        }
        blake2b_compress_ref(&expected, message, blocks, kBlake2bBlockBytes);
        const uint64_t clobbered =
            x64_kernel_abi_probe(&actual, message, blocks, kBlake2bBlockBytes);
        const bool same_state = std::memcmp(&expected, &actual, sizeof expected) == 0;
        char what[96];
        std::snprintf(what, sizeof what, "ABI probe (blocks=%zu): clobbered mask %#" PRIx64 "%s",
                      blocks, clobbered, same_state ? "" : ", wrong state");
        report.check(clobbered == 0 && same_state, what);
    }
}

}  // namespace

int main() {
    GuardedBuffer buffer;
    if (!buffer.ok()) {
        std::fprintf(stderr, "cannot map the guarded test buffer\n");
        return 1;
    }
    Report report("test_x64_kernel");
    Random random{0x243f6a8885a308d3ULL};
    test_zero_blocks(report, random);
    test_random_states(report, buffer, random);
    test_counter_carry(report, buffer, random);
    test_flags(report, buffer, random);
    test_abi(report, buffer, random);
    return report.finish();
}
