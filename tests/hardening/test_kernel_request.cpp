// The kernel request (BLAKE2SIMD_KERNEL, else the config's `kernel`) is never echoed raw and is
// ignored from the environment of a setuid/setgid process.
//
//   test_kernel_request            requests with escape sequences and control bytes, from the
//                                  environment and from the config: buildinfo holds printable
//                                  ASCII only and none of the request; kernel-name requests are
//                                  still honoured and named.
//   test_kernel_request --setuid   (root only) runs a copy of this program that is setuid to
//                                  nobody, so the kernel sets AT_SECURE, with
//                                  BLAKE2SIMD_KERNEL=ref: the copy must serve the automatic
//                                  choice. Exits 77 where it cannot (not root, nosuid mount).
// SPDX-License-Identifier: Apache-2.0
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "b2test/check.hpp"
#include "direct_module.hpp"
#include "registry.hpp"

namespace {

// The reference kernel's name, from the registry: a kernel every CPU runs.
const char* const kReference = blake2simd::registry::kKernelRows[0].name;

// Every failure printed: each names a different request.
b2test::Report& checks() {
    static b2test::Report report("test_kernel_request", std::numeric_limits<int>::max());
    return report;
}

void expect(bool condition, const std::string& what) {
    checks().check(condition, what);
}

bool printable_ascii(const std::string& text) {
    for (const char c : text) {
        if (c < 0x20 || c > 0x7e) {
            return false;
        }
    }
    return true;
}

struct Served {
    std::string kernel;
    std::string buildinfo;
};

// A fresh provider instance with this environment request (nullptr: unset) and config request.
Served serve(const char* environment, const char* config) {
    if (environment != nullptr) {
        setenv("BLAKE2SIMD_KERNEL", environment, 1);
    } else {
        unsetenv("BLAKE2SIMD_KERNEL");
    }
    direct_module::Instance instance;
    Served served;
    if (instance.open(config)) {
        served.kernel = instance.param("kernel");
        served.buildinfo = instance.param("buildinfo");
        instance.close();
    }
    unsetenv("BLAKE2SIMD_KERNEL");
    return served;
}

void check_not_echoed(const char* what, const char* environment, const char* config,
                      const Served& automatic) {
    const Served served = serve(environment, config);
    const std::string label = std::string(what) + ": ";
    expect(!served.buildinfo.empty(), label + "buildinfo present");
    expect(printable_ascii(served.buildinfo),
           label + "buildinfo holds only printable ASCII (no escape or control byte)");
    expect(served.buildinfo.find("FIPS") == std::string::npos &&
               served.buildinfo.find("[31m") == std::string::npos,
           label + "no part of the request appears in buildinfo: " + served.buildinfo);
    expect(served.buildinfo.find("not a kernel name") != std::string::npos,
           label + "buildinfo says the request was no kernel name");
    expect(served.kernel == automatic.kernel, label + "the automatic kernel serves");
}

int check_requests() {
    const Served automatic = serve(nullptr, "");
    expect(!automatic.kernel.empty() && automatic.kernel != "none", "a kernel serves");
    const char* const kColoured = "\x1b[31mFIPS-validated\x1b[0m";
    check_not_echoed("escape sequence from the environment", kColoured, "", automatic);
    check_not_echoed("escape sequence from the config", nullptr, kColoured, automatic);
    const std::string name = kReference;
    check_not_echoed("newline after a kernel name", (name + "\n").c_str(), "", automatic);
    check_not_echoed("bell and tab", "a\x07\tb", "", automatic);
    check_not_echoed("a byte above 0x7f", (name + "\xc2\x9b").c_str(), "", automatic);
    check_not_echoed("a space", (name + " FIPS").c_str(), "", automatic);

    const Served unknown = serve("nonesuch", "");
    expect(unknown.buildinfo.find("'nonesuch'") != std::string::npos,
           "a kernel-name request is named in buildinfo: " + unknown.buildinfo);
    const Served by_name = serve(kReference, "");
    expect(by_name.kernel == kReference && by_name.buildinfo.find("requested") != std::string::npos,
           "BLAKE2SIMD_KERNEL=<the reference kernel> is honoured in an ordinary process");
    const Served by_config = serve(nullptr, kReference);
    expect(by_config.kernel == kReference,
           "kernel = <the reference kernel> from the config is honoured");
    return checks().finish();
}

// The setuid copy: reports what served; exit status 0 if the environment was ignored, 1 if it
// was honoured, 77 without AT_SECURE. _exit: LeakSanitizer cannot run in a setuid process.
[[noreturn]] void secure_child() {
    const unsigned long secure = getauxval(AT_SECURE);
    const Served served = serve(kReference, "");
    unsetenv("BLAKE2SIMD_KERNEL");
    std::printf("setuid copy: AT_SECURE=%lu euid=%d: kernel %s; %s\n", secure,
                static_cast<int>(geteuid()), served.kernel.c_str(), served.buildinfo.c_str());
    std::fflush(stdout);
    if (secure != 1) {
        _exit(77);
    }
    // serve() set the variable itself; what counts is that the module's read ignored it.
    if (served.kernel.empty()) {
        _exit(2);
    }
    _exit(served.buildinfo.find("requested") != std::string::npos ? 1 : 0);
}

int check_setuid() {
    if (geteuid() != 0) {
        std::printf("SKIP: needs root to make a setuid copy owned by another user\n");
        return 77;
    }
    char directory[] = "/tmp/b2-setuid-XXXXXX";
    if (mkdtemp(directory) == nullptr) {
        return 77;
    }
    const std::string copy = std::string(directory) + "/test_kernel_request";
    char self[4096] = {};
    if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) {
        return 77;
    }
    // The module beside the copy: nobody may not be able to read the build tree.
    const std::string command =
        "cp '" + std::string(self) + "' '" + B2_MODULE_DIR + "/blake2simd.so' '" + directory + "/'";
    const uid_t nobody = 65534;
    const bool made = chmod(directory, 0755) == 0 && std::system(command.c_str()) == 0 &&
                      chown(copy.c_str(), nobody, nobody) == 0 && chmod(copy.c_str(), 04755) == 0;
    int status = -1;
    if (made) {
        std::fflush(stdout);
        const pid_t pid = fork();
        if (pid == 0) {
            setenv("BLAKE2SIMD_KERNEL", kReference, 1);
            execl(copy.c_str(), copy.c_str(), "--secure-child", directory,
                  static_cast<char*>(nullptr));
            _exit(126);
        }
        waitpid(pid, &status, 0);
    }
    unlink(copy.c_str());
    unlink((std::string(directory) + "/blake2simd.so").c_str());
    rmdir(directory);
    if (!made || !WIFEXITED(status) || WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 77) {
        std::printf("SKIP: could not run a setuid copy (status %d): nosuid mount or no chown\n",
                    status);
        return 77;
    }
    if (WEXITSTATUS(status) > 1) {
        std::printf("FAIL: the setuid copy could not serve a kernel (status %d)\n", status);
        return 1;
    }
    const bool ignored = WEXITSTATUS(status) == 0;
    std::printf("%s: BLAKE2SIMD_KERNEL=%s in a setuid process is %s\n", ignored ? "ok" : "FAIL",
                kReference, ignored ? "ignored" : "HONOURED");
    return ignored ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--secure-child" && argc > 2) {
        direct_module::g_module_dir = argv[2];
        secure_child();
    }
    if (mode == "--setuid") {
        return check_setuid();
    }
    return check_requests();
}
