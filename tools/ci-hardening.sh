#!/bin/sh
# Hardening jobs CI runs after the main suite: ASan+UBSan suite, TSan threading tests, valgrind
# memcheck of the EVP tests, bounded libFuzzer runs. Prints each job's wall time.
# usage: tools/ci-hardening.sh [all|asan|tsan|valgrind|fuzz]...   (default: all)
# Environment: B2_MAIN_BUILD (default build: the main suite's build, used by valgrind),
# B2_BUILD_PREFIX (default build: jobs build in <prefix>-asan, -tsan, -fuzz),
# B2_FUZZ_SECONDS (default 25 per target), B2_JOBS (default 2).
# SPDX-License-Identifier: Apache-2.0
set -eu
cd "$(dirname "$0")/.."

main_build="${B2_MAIN_BUILD:-build}"
prefix="${B2_BUILD_PREFIX:-build}"
fuzz_seconds="${B2_FUZZ_SECONDS:-25}"
jobs="${B2_JOBS:-2}"
summary=""
log_prefix=ci-hardening
# shellcheck source=tools/common.sh
. tools/common.sh

configure_and_build() {
    preset="$1"
    dir="$2"
    shift 2
    # shellcheck disable=SC2046
    cmake --preset "$preset" -B "$dir" $(preset_compiler_override "$preset") >/dev/null
    cmake --build "$dir" -j "$jobs" "$@"
}

# The fuzz preset names clang 14, Debian 12's; where that is absent (Debian 13 has clang 19),
# Debian's default clang builds it, the one whose runtime quickstart installs (libclang-rt-dev).
preset_compiler_override() {
    [ "$1" = fuzz ] || return 0
    command -v clang++-14 >/dev/null && return 0
    echo "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++"
}

# The module and the test executables are instrumented (g++ links libasan into both). Tests
# that load the module into an uninstrumented host (openssl CLI, Python, qemu-user) are left
# out rather than run under LD_PRELOAD; the >4 GiB test runs in the main suite. Four tests
# check what instrumentation changes by design (no load-time constructors in the kernel
# objects: ASan adds one to each; first-use time budgets; the module's dependencies: it needs
# libasan here) and run in the main suite only.
job_asan() {
    dir="$prefix-asan"
    configure_and_build asan-ubsan "$dir"
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
        ctest --test-dir "$dir" --output-on-failure -j "$jobs" --timeout 900 \
        -LE '^(cli|system|qemu|slow)$' -E '^(kernels\.(isa_objects|dispatch)|blake2bp\.lanes4|provider\.module_dependencies)$'
}

job_tsan() {
    dir="$prefix-tsan"
    configure_and_build tsan "$dir" --target blake2simd test_threads test_argon2
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" \
        ctest --test-dir "$dir" --output-on-failure --timeout 900 -L '^threads$'
}

# Definite and indirect leaks and every memory error fail the run; "still reachable" (e.g.
# libstdc++'s emergency pool in the C++ test programs) does not. Argon2 derives at small memcost
# run in test_bad_input, test_direct_dispatch, test_load_unload (three a cycle) and test_argon2's
# semantics.
job_valgrind() {
    [ -x "$main_build/tests/test_bad_input" ] ||
        cmake --build "$main_build" -j "$jobs" --target test_kat test_semantics test_bad_input \
            test_direct_dispatch test_load_unload test_argon2
    for test in "test_kat" "test_semantics" "test_bad_input" "test_direct_dispatch" \
        "test_load_unload 200" "test_argon2 --section semantics"; do
        echo "--- valgrind $test"
        # shellcheck disable=SC2086
        valgrind --tool=memcheck --leak-check=full \
            --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
            --error-exitcode=1 "$main_build"/tests/$test >"$main_build/valgrind.log" 2>&1 || {
            cat "$main_build/valgrind.log"
            echo "valgrind: $test FAILED" >&2
            return 1
        }
        grep -E "ERROR SUMMARY|definitely lost|indirectly lost|All heap blocks|cases tried|passed," \
            "$main_build/valgrind.log" | sed 's/^==[0-9]*== *//'

    done
}

# Each target runs for a bounded time from the committed seed corpus; new inputs go to a
# scratch directory so the committed corpus is never modified.
job_fuzz() {
    dir="$prefix-fuzz"
    configure_and_build fuzz "$dir" --target fuzz_differential fuzz_params fuzz_state \
        fuzz_argon2_params fuzz_check_line
    for target in fuzz_differential fuzz_params fuzz_state fuzz_argon2_params fuzz_check_line; do
        scratch="$dir/corpus-$target"
        mkdir -p "$scratch"
        "$dir/tests/$target" -max_total_time="$fuzz_seconds" -print_final_stats=1 \
            -artifact_prefix="$dir/crash-$target-" "$scratch" "tests/fuzz/corpus/$target" \
            >"$dir/$target.log" 2>&1 || {
            tail -n 60 "$dir/$target.log"
            echo "fuzz: $target FAILED" >&2
            return 1
        }
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$dir/$target.log" |
            sed "s/^/$target: /"
    done
}

[ $# -gt 0 ] || set -- all
for job in "$@"; do
    case "$job" in
    all)
        timed asan job_asan
        timed tsan job_tsan
        timed valgrind job_valgrind
        timed fuzz job_fuzz
        ;;
    asan | tsan | valgrind | fuzz) timed "$job" "job_$job" ;;
    *)
        echo "usage: $0 [all|asan|tsan|valgrind|fuzz]..." >&2
        exit 2
        ;;
    esac
done
echo "ci-hardening: all passed;$summary"
