// tests/support/ckt_process.hpp: runs a shell command (the ckernel program, in the CLI
// suites) and captures its exit status and output.
#ifndef CK_TEST_CKT_PROCESS_HPP
#define CK_TEST_CKT_PROCESS_HPP

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ckt {

struct Result {
    int status;       // exit status; -1 when the command did not exit normally
    std::string out;  // stdout and stderr together
};

// `sh -c CMD 2>&1`, feeding nothing on standard input.
inline Result run_shell(const std::string &cmd) {
    Result r{-1, ""};
    FILE *p = popen((cmd + " 2>&1").c_str(), "r");
    if (p == nullptr) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace ckt

#endif
