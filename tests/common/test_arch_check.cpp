// The pieces of the architecture check (tests/scripts/arch.sh runs the whole of it): each
// architecture's launch limits, the most threads a kernel's registers allow, and the reading of
// the PTX and of ptxas's report, on texts shaped like what nvcc 13 writes.
#include "arch_limits.hpp"
#include "catch.hpp"
#include "launch_limits.hpp"
#include "ptxas_report.hpp"

TEST_CASE("architecture limits: the Programming Guide's numbers", "[arch]") {
    const cudaDeviceProp turing = architecture_limits(75);
    CHECK(turing.sharedMemPerBlockOptin == 64 * 1024);  // no reserved kilobyte before sm_80
    CHECK(turing.maxThreadsPerMultiProcessor == 1024);
    CHECK(architecture_limits(80).sharedMemPerBlockOptin == 163 * 1024);
    CHECK(architecture_limits(86).sharedMemPerBlockOptin == 99 * 1024);
    CHECK(architecture_limits(89).sharedMemPerBlockOptin == 99 * 1024);
    CHECK(architecture_limits(90).sharedMemPerBlockOptin == 227 * 1024);
    CHECK(architecture_limits(100).sharedMemPerBlockOptin == 227 * 1024);
    CHECK(architecture_limits(120).sharedMemPerBlockOptin == 99 * 1024);
    CHECK(architecture_limits(120).maxThreadsPerMultiProcessor == 1536);
    for (int sm : known_architectures()) {
        const cudaDeviceProp p = architecture_limits(sm);
        CHECK(p.maxThreadsPerBlock == 1024);
        CHECK(p.regsPerBlock == 65536);
        CHECK(p.sharedMemPerBlock == 48 * 1024);
        CHECK(p.major * 10 + p.minor == sm);
    }
    CHECK(known_architectures() == std::vector<int>{75, 80, 86, 89, 90, 100, 120});  // mk/cuda.mk's list
    CHECK_THROWS_AS(architecture_limits(70), std::invalid_argument);
}

TEST_CASE("architecture limits: threads a block may have for a kernel's registers", "[arch]") {
    const cudaDeviceProp gpu = architecture_limits(75);
    CHECK(max_threads_for_registers(gpu, 32, 0) == 1024);
    CHECK(max_threads_for_registers(gpu, 64, 0) == 1024);   // 64 x 1024 = 65536 exactly
    CHECK(max_threads_for_registers(gpu, 65, 0) == 896);    // 72 a thread as allocated: 28 warps
    CHECK(max_threads_for_registers(gpu, 128, 0) == 512);
    CHECK(max_threads_for_registers(gpu, 255, 0) == 256);
    CHECK(max_threads_for_registers(gpu, 128, 256) == 256);  // __launch_bounds__ caps it
    CHECK(max_threads_for_registers(gpu, 0, 0) == 1024);
}

TEST_CASE("architecture limits: the launcher's check refuses what sm_75 lacks, not what sm_86 has", "[arch]") {
    LaunchConfig launch{dim3(1), dim3(1024), 72 * 1024};
    KernelResources kernel{28, 0, 1024};
    CHECK_THROWS_WITH(check_launch_limits(architecture_limits(75), kernel, launch),
                      LAB_CONTAINS("more than this GPU's 65536 bytes per block"));
    CHECK(check_launch_limits(architecture_limits(86), kernel, launch));  // fits, with the opt-in
}

namespace {
// Two kernels and a device function, as cicc writes them: the second kernel reaches the extern
// array only through the function, and its name is in an anonymous namespace and a template.
const char* ptx = R"(.version 9.0
.target sm_75
.address_size 64

.extern .shared .align 16 .b8 shared[];

.func  (.param .b32 func_retval0) _Z5stagePfi(
	.param .b64 _Z5stagePfi_param_0,
	.param .b32 _Z5stagePfi_param_1
)
{
	.reg .b32 	%r<3>;
	mov.u32 	%r1, shared;
	st.shared.u32 	[%r1], %r2;
	ret;
}
.visible .entry _Z12plain_kernelPf(
	.param .u64 _Z12plain_kernelPf_param_0
)
.maxntid 256, 1, 1
{
	.reg .b32 	%r<3>;
	ld.shared.u32 	%r1, [%r2];
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	}
	ret;
}
.entry _ZN43_GLOBAL__N__b857c250_10_stencil_cu_fe944ca818conv_shared_kernelILi8ELb1EEEvPKfPfii(
	.param .u64 p0,
	.param .u32 p1
)
{
	call.uni (retval0), _Z5stagePfi, (param0, param1);
	ret;
}
)";

const char* report = R"(ptxas info    : 0 bytes gmem
ptxas info    : Function properties for _Z5stagePfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z12plain_kernelPf' for 'sm_75'
ptxas info    : Function properties for _Z12plain_kernelPf
    56 bytes stack frame, 52 bytes spill stores, 68 bytes spill loads
ptxas info    : Used 128 registers, used 1 barriers, 56 bytes cumulative stack size, 33280 bytes smem, 388 bytes cmem[0]
ptxas info    : Compiling entry function '_ZN43_GLOBAL__N__b857c250_10_stencil_cu_fe944ca818conv_shared_kernelILi8ELb1EEEvPKfPfii' for 'sm_75'
ptxas info    : Function properties for _ZN43_GLOBAL__N__b857c250_10_stencil_cu_fe944ca818conv_shared_kernelILi8ELb1EEEvPKfPfii
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 376 bytes cmem[0]
)";
}  // namespace

TEST_CASE("ptxas report: each kernel's resources, bounds and dynamic shared memory", "[arch]") {
    std::vector<CompiledKernel> kernels = read_compiled_kernels(ptx, report);
    REQUIRE(kernels.size() == 2);  // the device function is no kernel
    const CompiledKernel& plain = kernels[0];
    CHECK(plain.name == "plain_kernel");
    CHECK(plain.registers == 128);
    CHECK(plain.static_shared_bytes == 33280);
    CHECK(plain.stack_frame_bytes == 56);
    CHECK(plain.spill_store_bytes == 52);
    CHECK(plain.spill_load_bytes == 68);
    CHECK(plain.launch_bound == 256);
    CHECK_FALSE(plain.uses_dynamic_shared);  // ld.shared is an opcode, not the array `shared`
    const CompiledKernel& templated = kernels[1];
    CHECK(templated.name == "conv_shared_kernel<8,true>");
    CHECK(templated.registers == 10);
    CHECK(templated.static_shared_bytes == 0);
    CHECK(templated.launch_bound == 0);
    CHECK(templated.uses_dynamic_shared);  // through the device function it calls
}

TEST_CASE("ptxas report: a report of another PTX is refused", "[arch]") {
    CHECK_THROWS_AS(read_compiled_kernels(ptx, "ptxas info    : 0 bytes gmem\n"), PtxasReportError);
}

TEST_CASE("kernel names: as the source spells them", "[arch]") {
    CHECK(kernel_name("_Z12naive_kernelPKfS0_Pfiii") == "naive_kernel");
    CHECK(kernel_name("_Z14dynamic_kernelILi32EEvPKfS1_Pfiiii") == "dynamic_kernel<32>");
    CHECK(kernel_name("_Z15regblock_kernelILb1EEvPKfS1_Pfiii") == "regblock_kernel<true>");
    CHECK(kernel_name("_ZN40_GLOBAL__N__b535b0ac_8_floyd_cu_6a13294213phase1_kernelEPiii") == "phase1_kernel");
    CHECK(kernel_name("plain_c_name") == "plain_c_name");
}
