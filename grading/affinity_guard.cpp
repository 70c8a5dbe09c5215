// affinity-guard: runs a command so that no thread of it can widen its CPU set.
//
//   affinity-guard [--refuse-all] COMMAND [ARGS...]
//
// grading/sandbox.sh runs every sandboxed command through it, under bubblewrap and under the
// rlimits fallback alike. A CPU part of a lab runs on exactly --threads CPUs: the trusted driver
// pins every thread of the process to them (common/cpu_affinity.hpp). Without this guard a
// submission could undo that with sched_setaffinity, through a raw `syscall` instruction that no
// symbol check sees, and run a timed part on every CPU of the machine.
//
// Why the driver can still pin. The rule a thread's CPU set obeys is "it may narrow, never
// widen": a call whose new set holds a CPU the thread may not use now is refused with EPERM.
// The driver's pinning is a narrowing (the first --threads of the process's CPUs), so it goes
// through, while anything that widens is refused, the driver's own undoing of a pin included
// (its CpuPinning::release then leaves the process on the part's CPUs). That rule cannot be a
// plain seccomp filter, which sees the pointer to the new set, not the set. Nor can the filter
// be installed by the driver after its pinning: the student's code runs in the process before
// it (static initialisers), and could by then have started a thread, or a process, outside any
// filter. So the filter is installed here, before the command's first instruction, and hands
// every sched_setaffinity to this process (SECCOMP_RET_USER_NOTIF): this process, the command's
// parent, which runs none of the command's code, reads the requested set from the caller's
// memory, checks it against the target thread's current set, and makes the call itself with its
// own copy, so no thread can change the set between the check and the call (letting the call
// continue, SECCOMP_USER_NOTIF_FLAG_CONTINUE, would read the caller's memory again). It serves
// one call at a time, so no two checks interleave. It changes threads of the caller's own
// process only.
//
// Also refused, with EPERM: prctl(PR_SET_DUMPABLE), by which a process would stop this one from
// reading its memory (its every call would then be refused, the driver's pinning included); and
// on x86-64 the x32 system calls and the i386 sched_setaffinity (`int $0x80`), other doors to the
// same call. Where the kernel has no user notification (before 5.0), or with --refuse-all (the
// tests), every sched_setaffinity is refused: the CPU set is then the one the sandbox gave
// (taskset), and the driver's pinning is refused too (it says so).
//
// The exit status is the command's; a command killed by a signal kills this process with the
// same signal. 126: the guard could not be installed; 127: the command could not be run.
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

#if defined(__x86_64__)
constexpr unsigned kNativeArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kNativeArch = AUDIT_ARCH_AARCH64;
#else
#error "affinity-guard knows the system calls of x86-64 and aarch64 only"
#endif

// The largest CPU set a call may name that is checked: 8192 CPUs.
constexpr size_t kMaskBytes = 1024;

[[noreturn]] void die(int status, const std::string& what) {
    std::fprintf(stderr, "affinity-guard: %s\n", what.c_str());
    std::exit(status);
}

// A seccomp program with forward jumps to named ends: `jump_if` takes the targets as absolute
// positions in the program, which BPF wants as offsets from the next instruction.
struct Program {
    std::vector<sock_filter> code;
    size_t here() const { return code.size(); }
    void load(uint32_t offset) { code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
    void jump_if(uint16_t test, uint32_t value, size_t if_true, size_t if_false) {
        const size_t next = here() + 1;
        code.push_back(BPF_JUMP(BPF_JMP | test | BPF_K, value, uint8_t(if_true - next), uint8_t(if_false - next)));
    }
    void give(uint32_t action) { code.push_back(BPF_STMT(BPF_RET | BPF_K, action)); }
};

// The filter: sched_setaffinity goes to `affinity_action`, the calls above are refused, every
// other call is allowed. The three ends are the program's last three instructions.
std::vector<sock_filter> filter(uint32_t affinity_action) {
    const uint32_t arch = offsetof(seccomp_data, arch), nr = offsetof(seccomp_data, nr);
    const uint32_t first_argument = offsetof(seccomp_data, args[0]);  // its low 32 bits: the
                                                                       // machines here are little-endian
#if defined(__x86_64__)
    const size_t size = 17;
#else
    const size_t size = 10;
#endif
    const size_t allow = size - 3, refuse = size - 2, affinity = size - 1;
    Program p;
    p.load(arch);                                                              // 0
#if defined(__x86_64__)
    p.jump_if(BPF_JEQ, kNativeArch, p.here() + 1, 8);                          // 1
    p.load(nr);                                                                // 2
    p.jump_if(BPF_JGE, 0x40000000u, refuse, p.here() + 1);                     // 3: x32
    p.jump_if(BPF_JEQ, __NR_sched_setaffinity, affinity, p.here() + 1);        // 4
    p.jump_if(BPF_JEQ, __NR_prctl, p.here() + 1, allow);                       // 5
    p.load(first_argument);                                                    // 6
    p.jump_if(BPF_JEQ, PR_SET_DUMPABLE, refuse, allow);                        // 7
    p.jump_if(BPF_JEQ, AUDIT_ARCH_I386, p.here() + 1, allow);                  // 8: int $0x80
    p.load(nr);                                                                // 9
    p.jump_if(BPF_JEQ, 241, refuse, p.here() + 1);                             // 10: i386 sched_setaffinity
    p.jump_if(BPF_JEQ, 172, p.here() + 1, allow);                              // 11: i386 prctl
    p.load(first_argument);                                                    // 12
    p.jump_if(BPF_JEQ, PR_SET_DUMPABLE, refuse, allow);                        // 13
#else
    p.jump_if(BPF_JEQ, kNativeArch, p.here() + 1, allow);                      // 1
    p.load(nr);                                                                // 2
    p.jump_if(BPF_JEQ, __NR_sched_setaffinity, affinity, p.here() + 1);        // 3
    p.jump_if(BPF_JEQ, __NR_prctl, p.here() + 1, allow);                       // 4
    p.load(first_argument);                                                    // 5
    p.jump_if(BPF_JEQ, PR_SET_DUMPABLE, refuse, allow);                        // 6
#endif
    if (p.here() != allow) die(126, "the filter's program is miscounted (a bug in the guard)");
    p.give(SECCOMP_RET_ALLOW);
    p.give(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
    p.give(affinity_action);
    return p.code;
}

// Installs the filter in this process (the child, before exec); returns the notification
// descriptor, or -1 when every sched_setaffinity is refused instead.
int install_filter(bool refuse_all) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die(126, std::string("cannot set no_new_privs: ") + std::strerror(errno));
    if (!refuse_all) {
        std::vector<sock_filter> code = filter(SECCOMP_RET_USER_NOTIF);
        sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
        long fd = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &program);
        if (fd >= 0) return int(fd);
        if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
            die(126, std::string("cannot install the seccomp filter: ") + std::strerror(errno));
    }
    std::vector<sock_filter> code = filter(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
    sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
    if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0)
        die(126, std::string("cannot install the seccomp filter (this kernel has no seccomp filters?): ") + std::strerror(errno));
    return -1;
}

// The descriptor `fd` to the parent over `channel`, or none (-1): one byte, with the descriptor
// as ancillary data when there is one.
void send_descriptor(int channel, int fd) {
    char byte = fd >= 0 ? 'y' : 'n';
    iovec data{&byte, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    if (fd >= 0) {
        message.msg_control = control;
        message.msg_controllen = sizeof control;
        cmsghdr* header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    if (sendmsg(channel, &message, 0) != 1) die(126, std::string("cannot hand the filter to the guard: ") + std::strerror(errno));
}

// -2: the child ended before it sent anything.
int receive_descriptor(int channel) {
    char byte = 0;
    iovec data{&byte, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t got;
    do got = recvmsg(channel, &message, MSG_CMSG_CLOEXEC);
    while (got < 0 && errno == EINTR);
    if (got != 1) return -2;
    if (byte != 'y') return -1;
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    if (!header || header->cmsg_type != SCM_RIGHTS) return -2;
    int fd;
    std::memcpy(&fd, CMSG_DATA(header), sizeof(int));
    return fd;
}

// The process (thread group) a thread belongs to, from /proc; -1 when it is gone.
pid_t process_of(pid_t thread) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/status", int(thread));
    FILE* status = std::fopen(path, "re");
    if (!status) return -1;
    pid_t process = -1;
    char line[256];
    while (std::fgets(line, sizeof line, status))
        if (std::sscanf(line, "Tgid: %d", &process) == 1) break;
    std::fclose(status);
    return process;
}

// The answer to one sched_setaffinity(pid, len, mask) of a guarded thread: 0 or -errno.
int serve_affinity_call(int listener, const seccomp_notif& call) {
    const pid_t caller = pid_t(call.pid);
    const pid_t target = call.data.args[0] == 0 ? caller : pid_t(call.data.args[0]);
    const size_t length = std::min<size_t>(size_t(uint32_t(call.data.args[1])), kMaskBytes);
    const pid_t process = process_of(caller);
    if (process < 0 || process_of(target) != process) return -EPERM;  // its own process's threads only
    unsigned char wanted[kMaskBytes] = {}, now[kMaskBytes] = {};
    iovec local{wanted, length}, remote{reinterpret_cast<void*>(call.data.args[2]), length};
    if (length > 0 && process_vm_readv(caller, &local, 1, &remote, 1, 0) != ssize_t(length))
        return errno == EFAULT ? -EFAULT : -EPERM;
    // The memory read was the caller's, not a later process's with its number.
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &call.id) != 0) return -ESRCH;
    if (syscall(SYS_sched_getaffinity, target, kMaskBytes, now) < 0) return -errno;
    for (size_t i = 0; i < length; ++i)
        if (wanted[i] & ~now[i]) return -EPERM;  // a CPU the thread may not use now: a widening
    if (syscall(SYS_sched_setaffinity, target, length, wanted) != 0) return -errno;
    return 0;
}

volatile sig_atomic_t forwarded_child = 0;
int child_ended_pipe[2] = {-1, -1};

void forward_signal(int number) {
    if (forwarded_child > 0) kill(forwarded_child, number);
}
void note_child_ended(int) {
    const int saved = errno;
    char byte = 0;
    if (write(child_ended_pipe[1], &byte, 1) < 0) {}  // full: a wake-up is already pending
    errno = saved;
}

// Leaves as the child did: its exit status, or death by its signal.
[[noreturn]] void leave_as(int status) {
    if (WIFEXITED(status)) std::exit(WEXITSTATUS(status));
    const int number = WTERMSIG(status);
    ::signal(number, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, number);
    sigprocmask(SIG_UNBLOCK, &only, nullptr);
    kill(getpid(), number);
    std::_Exit(128 + number);
}

// Serves the child's sched_setaffinity calls until it ends; returns its wait status.
int supervise(pid_t child, int listener) {
    seccomp_notif_sizes sizes{};
    if (listener >= 0 && syscall(__NR_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
        die(126, std::string("cannot size the filter's notifications: ") + std::strerror(errno));
    // The kernel's structures may be larger than this program's headers know.
    std::vector<unsigned char> call_buffer(std::max<size_t>(sizes.seccomp_notif, sizeof(seccomp_notif)));
    std::vector<unsigned char> answer_buffer(std::max<size_t>(sizes.seccomp_notif_resp, sizeof(seccomp_notif_resp)));
    for (;;) {
        int status = 0;
        pid_t ended = waitpid(child, &status, WNOHANG);
        if (ended == child) return status;
        if (ended < 0 && errno != EINTR) die(126, std::string("cannot wait for the command: ") + std::strerror(errno));
        pollfd watched[2] = {{child_ended_pipe[0], POLLIN, 0}, {listener, POLLIN, 0}};
        if (poll(watched, listener >= 0 ? 2 : 1, -1) < 0) {
            if (errno == EINTR) continue;
            die(126, std::string("poll: ") + std::strerror(errno));
        }
        if (watched[0].revents) {
            char drained[64];
            if (read(child_ended_pipe[0], drained, sizeof drained) < 0) {}
        }
        if (listener < 0 || !(watched[1].revents & POLLIN)) continue;
        std::fill(call_buffer.begin(), call_buffer.end(), 0);  // the kernel wants it zeroed
        auto* call = reinterpret_cast<seccomp_notif*>(call_buffer.data());
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, call) != 0) continue;  // ENOENT: the caller went away
        std::fill(answer_buffer.begin(), answer_buffer.end(), 0);
        auto* answer = reinterpret_cast<seccomp_notif_resp*>(answer_buffer.data());
        answer->id = call->id;
        answer->error = call->data.nr == __NR_sched_setaffinity ? serve_affinity_call(listener, *call) : -ENOSYS;
        answer->val = 0;
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, answer) != 0) continue;  // ENOENT: it went away
    }
}

}  // namespace

int main(int argc, char** argv) {
    int first = 1;
    bool refuse_all = false;
    if (first < argc && std::strcmp(argv[first], "--refuse-all") == 0) refuse_all = true, ++first;
    if (first < argc && std::strcmp(argv[first], "--") == 0) ++first;
    if (first >= argc) die(2, "usage: affinity-guard [--refuse-all] COMMAND [ARGS...]");

    int channel[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) != 0 || pipe2(child_ended_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        die(126, std::string("cannot make the guard's channels: ") + std::strerror(errno));
    // SIGCHLD wakes the wait below; installed before the fork, so no end of the child is missed.
    struct sigaction on_child{};
    on_child.sa_handler = note_child_ended;
    on_child.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &on_child, nullptr);
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child < 0) die(126, std::string("fork: ") + std::strerror(errno));
    if (child == 0) {
        // The command must not outlive the guard that serves its calls.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) std::_Exit(126);
        ::signal(SIGCHLD, SIG_DFL);
        close(channel[0]);
        close(child_ended_pipe[0]);
        close(child_ended_pipe[1]);
        int listener = install_filter(refuse_all);
        send_descriptor(channel[1], listener);
        if (listener >= 0) close(listener);
        close(channel[1]);
        execvp(argv[first], argv + first);
        std::fprintf(stderr, "affinity-guard: cannot run %s: %s\n", argv[first], std::strerror(errno));
        std::_Exit(127);
    }
    close(channel[1]);
    forwarded_child = child;
    for (int number : {SIGTERM, SIGINT, SIGHUP, SIGQUIT}) ::signal(number, forward_signal);
    const int listener = receive_descriptor(channel[0]);
    close(channel[0]);
    if (listener == -2) {  // the child ended (it said why) before it could be guarded
        int status = 0;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        leave_as(status);
    }
    leave_as(supervise(child, listener));
}
