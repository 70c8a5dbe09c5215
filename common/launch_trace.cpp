#include "launch_trace.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <cstdint>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <vector>

#include "fail.hpp"

namespace {

// CUPTI's types and constants, as cupti_callbacks.h and cupti_result.h declare them: the headers
// may be missing where the library is (and the library where the headers are).
using CuptiResult = int;
using CallbackDomain = int;
using CallbackId = uint32_t;
using Subscriber = void*;
using CallbackFunction = void (*)(void* userdata, CallbackDomain, CallbackId, const void* data);
constexpr CuptiResult kSuccess = 0;
constexpr CallbackDomain kDriverApi = 1, kRuntimeApi = 2;
constexpr uint32_t kApiEnter = 0;  // CUPTI_API_ENTER; CUPTI_API_EXIT is 1
// The first field of CUpti_CallbackData, the data of both API domains: where in the call the
// callback is issued.
struct CallbackSite {
    uint32_t site;
};
// The callback ids looked at in each domain (CUDA 13 has about 900 driver and 500 runtime ones).
constexpr CallbackId kLastId = 4096;

enum Kind : uint8_t { not_a_launch, kernel_launch, host_function_launch };
std::vector<uint8_t> kind_of[3];  // by domain (1, 2), then callback id: filled before subscribing
std::atomic<uint64_t> kernels{0}, host_functions{0};
// Per thread: how deep in launch calls it is (a runtime launch may call a driver one, counted
// once), and whether the trusted driver is launching.
thread_local int launch_depth = 0, trusted_depth = 0;

void on_api_call(void*, CallbackDomain domain, CallbackId id, const void* data) {
    if (domain != kDriverApi && domain != kRuntimeApi) return;
    const std::vector<uint8_t>& kinds = kind_of[domain];
    if (id >= kinds.size() || kinds[id] == not_a_launch || !data) return;
    if (static_cast<const CallbackSite*>(data)->site == kApiEnter) {
        if (launch_depth++ == 0 && trusted_depth == 0) ++(kinds[id] == kernel_launch ? kernels : host_functions);
    } else if (launch_depth > 0) {
        --launch_depth;
    }
}

struct TraceState {
    bool started = false, running = false;
    std::string off_reason = "the trace was not started";
};
TraceState& state() {
    static TraceState s;
    return s;
}

// CUPTI from the toolkit the driver was built with first (LAB_CUDA_HOME, the Makefile's), then
// wherever the dynamic loader finds it. Returns the handle, or null with the loader's reasons.
void* open_cupti(std::string& why) {
    std::vector<std::string> candidates;
#ifdef LAB_CUDA_HOME
    for (const char* dir : {"/lib64/", "/extras/CUPTI/lib64/", "/targets/x86_64-linux/lib/", "/targets/sbsa-linux/lib/"})
        candidates.push_back(std::string(LAB_CUDA_HOME) + dir + "libcupti.so");
#endif
    for (const char* name : {"libcupti.so", "libcupti.so.13", "libcupti.so.12"}) candidates.push_back(name);
    for (const std::string& path : candidates) {
        if (void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return library;
        const char* error = dlerror();
        if (why.empty())
            why = std::string("libcupti.so (CUPTI, the CUDA toolkit's profiling interface) cannot be loaded (") +
                  (error ? error : path.c_str()) + ")";
    }
    return nullptr;
}

// Whether this process runs under compute-sanitizer, which holds CUPTI: its parent is the tool's
// launcher (compute-sanitizer/TreeLauncherSubreaper in CUDA 12 and 13; the tool itself before).
// Read from /proc, never from the environment: the program's own code runs before main (static
// initialisers) and may set LD_PRELOAD or CUDA_INJECTION64_PATH, while its parent is the one
// that started it.
bool under_compute_sanitizer() {
    char exe[PATH_MAX];
    const std::string link = "/proc/" + std::to_string(getppid()) + "/exe";
    const ssize_t n = readlink(link.c_str(), exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = '\0';
    return std::strstr(exe, "/compute-sanitizer/") != nullptr;
}

template <class F>
F symbol(void* library, const char* name) {
    return reinterpret_cast<F>(dlsym(library, name));
}

// Subscribes to every launch callback of both API domains; "" when it did, else why not.
std::string subscribe() {
    // No CUDA driver, no launch: nothing to trace (a machine without a GPU runs the CPU parts).
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) {
        state().off_reason = "no CUDA driver here: nothing can be launched";
        return "";
    }
    dlclose(driver);
    std::string why;
    void* library = open_cupti(why);
    if (!library) return why + ": install the toolkit's CUPTI (on Debian and Ubuntu, its libcupti package)";
    auto subscribe_to = symbol<CuptiResult (*)(Subscriber*, CallbackFunction, void*)>(library, "cuptiSubscribe");
    auto enable = symbol<CuptiResult (*)(uint32_t, Subscriber, CallbackDomain, CallbackId)>(library, "cuptiEnableCallback");
    auto name_of = symbol<CuptiResult (*)(CallbackDomain, uint32_t, const char**)>(library, "cuptiGetCallbackName");
    auto result_text = symbol<CuptiResult (*)(CuptiResult, const char**)>(library, "cuptiGetResultString");
    if (!subscribe_to || !enable || !name_of) return "this CUPTI lacks cuptiSubscribe, cuptiEnableCallback or cuptiGetCallbackName";
    auto said = [&](CuptiResult result) {
        const char* text = nullptr;
        if (result_text) result_text(result, &text);
        return std::string(text ? text : "CUPTI error " + std::to_string(result));
    };
    // Which callbacks are launches, by their names ("cudaLaunchKernel_v7000", "cuLaunchKernelEx",
    // "cudaGraphLaunch_v10000", "cuLaunchHostFunc"), filled before any callback can come.
    std::vector<std::pair<CallbackDomain, CallbackId>> launches;
    for (CallbackDomain domain : {kDriverApi, kRuntimeApi}) {
        kind_of[domain].assign(kLastId + 1, not_a_launch);
        for (CallbackId id = 1; id <= kLastId; ++id) {
            const char* name = nullptr;
            if (name_of(domain, id, &name) != kSuccess || !name || !std::strstr(name, "Launch")) continue;
            kind_of[domain][id] = std::strstr(name, "HostFunc") ? host_function_launch : kernel_launch;
            launches.emplace_back(domain, id);
        }
    }
    if (launches.empty()) return "this CUPTI names no launch callback";
    Subscriber subscriber = nullptr;
    if (CuptiResult r = subscribe_to(&subscriber, on_api_call, nullptr); r != kSuccess)
        return "CUPTI refused the subscription (" + said(r) + "; is a profiler attached?)";
    for (const auto& [domain, id] : launches)
        if (CuptiResult r = enable(1, subscriber, domain, id); r != kSuccess)
            return "CUPTI refused the launch callback " + std::to_string(id) + " (" + said(r) + ")";
    state().running = true;
    state().off_reason.clear();
    return "";
}

}  // namespace

bool parse_launch_trace_mode(const std::string& text, LaunchTraceMode& mode) {
    if (text == "off") mode = LaunchTraceMode::off;
    else if (text == "auto") mode = LaunchTraceMode::automatic;
    else if (text == "required") mode = LaunchTraceMode::required;
    else return false;
    return true;
}

bool start_launch_trace(LaunchTraceMode mode) {
    TraceState& s = state();
    if (s.started) return s.running;
    s.started = true;
    if (mode == LaunchTraceMode::off) {
        s.off_reason = "--launch-trace off";
        return false;
    }
    // compute-sanitizer holds CUPTI; its runs are judged by the tool's findings, and earn nothing.
    if (under_compute_sanitizer()) {
        s.off_reason = "compute-sanitizer is attached (it holds CUPTI)";
        return false;
    }
    std::string problem = subscribe();
    if (problem.empty()) return s.running;
    s.off_reason = problem;
    if (mode == LaunchTraceMode::required)
        fail(exit_code::io_error, "--launch-trace required: every launch must be seen, but " + problem);
    return false;
}

const std::string& launch_trace_off_reason() { return state().off_reason; }

LaunchCounts counted_launches() { return LaunchCounts{kernels.load(), host_functions.load()}; }

TrustedLaunches::TrustedLaunches() { ++trusted_depth; }
TrustedLaunches::~TrustedLaunches() { --trusted_depth; }
