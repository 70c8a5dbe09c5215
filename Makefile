# CUDA lab course. `make help` lists the targets.
#
# Every lab is a folder labs/labN with a manifest; the rules below are generated for each
# one from its manifest, so adding a lab adds no line here (README.md, "Adding a lab").
# Objects mirror their sources under build/obj, so one pattern rule compiles every file.

SHELL := bash
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

include mk/cuda.mk mk/catch2.mk

LABS  := $(sort $(patsubst labs/%/manifest,%,$(wildcard labs/*/manifest)))
IMPL  ?= student
BUILD ?= build
ARGS  ?=
# Builds (make labN, make test) compile on every CPU unless make was given -j itself: a plain
# `make test` compiled one file at a time, on a 16-core H200 machine too.
BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))

include mk/manifest.mk

ifeq ($(filter $(IMPL),student solution),)
$(error IMPL must be student or solution, not '$(IMPL)')
endif

CXX      ?= g++
WARNINGS := -Wall -Wextra
CXXFLAGS ?= -O2 -g
NVCCFLAGS ?= -O3 -lineinfo
CPPFLAGS += -Icommon -I$(CUDA_HOME)/include
# Sources of a lab, its solution and its tests also see the lab's own headers, and the lab's
# name (its folder) as LAB_NAME; tests see tests/.
lab_of_source = $(if $(filter labs solutions tests,$(firstword $(subst /, ,$<))),$(word 2,$(subst /, ,$<)))
lab_include = $(if $(lab_of_source),-Ilabs/$(lab_of_source) -DLAB_NAME=\"$(lab_of_source)\") \
              $(if $(filter tests,$(firstword $(subst /, ,$<))),-Itests)
# A lab's host-compiler flags (manifest key host_flags, lab7: -fopenmp), for its driver, its
# solution and its tests; nvcc passes them to the host compiler.
lab_host_flags = $(if $(wildcard labs/$(lab_of_source)/manifest),$(call manifest,$(lab_of_source),host_flags))

# What nvcc needs to compile a source, beside the architectures (mk/arch.mk compiles the same
# sources for one architecture at a time).
nvcc_source_flags = $(NVCCFLAGS) $(CPPFLAGS) $(lab_include) -Xcompiler "$(WARNINGS)" $(addprefix -Xcompiler ,$(lab_host_flags))
compile_cu = $(NVCC) -std=c++17 $(GENCODE) $(nvcc_source_flags) -MMD -MP -c $< -o $@
compile_cpp = $(CXX) -std=c++17 $(CXXFLAGS) $(WARNINGS) $(CPPFLAGS) $(lab_include) $(lab_host_flags) -MMD -MP -c $< -o $@
# Each object's command is kept beside it (OBJECT.cmd): grade.sh takes an object of this build
# into a lab's trusted objects only where its own make would run that very command
# (grading/lib/workfolders.sh, seed_objects).
record_command = printf '%s\n' '$(subst ','\'',$(1))' >$@.cmd
$(BUILD)/obj/%.cu.o: %.cu
	@mkdir -p $(@D) && rm -f $@.cmd
	$(compile_cu)
	@$(call record_command,$(compile_cu))

$(BUILD)/obj/%.cpp.o: %.cpp
	@mkdir -p $(@D) && rm -f $@.cmd
	$(compile_cpp)
	@$(call record_command,$(compile_cpp))

objects = $(patsubst %,$(BUILD)/obj/%.o,$(1))
link = $(NVCC) $(GENCODE) $(1) -o $@ -L$(CUDA_HOME)/lib64

# The helpers, without the main() of the tools built from them (make limits, mk/arch.mk), and
# without the manifest reader: the grader, the architecture check and the tests read manifests,
# a lab's program never does (make passes it what the manifest says).
MANIFEST_OBJ := $(call objects,common/manifest.cpp)
COMMON_OBJ := $(filter-out $(MANIFEST_OBJ),$(call objects,$(filter-out common/gpu_limits_main.cpp common/arch_check_main.cpp,$(wildcard common/*.cpp common/*.cu))))
# The launch trace loads CUPTI at run time, first from the toolkit it was built with
# (common/launch_trace.hpp).
$(call objects,common/launch_trace.cpp): CPPFLAGS += -DLAB_CUDA_HOME=\"$(CUDA_HOME)\"

# --- per-lab rules ------------------------------------------------------------------
# $(call lab_sources,LAB): the driver's files, i.e. every source in labs/LAB except the
# student files, and the shared CPU references it names (reference_files under common/);
# driver.cpp holds main() and is left out of the test binaries.
lab_student_files = $(call manifest,$(1),student_files)
lab_sources = $(filter-out $(addprefix labs/$(1)/,$(call lab_student_files,$(1))),$(wildcard labs/$(1)/*.cu labs/$(1)/*.cpp)) \
              $(filter common/%,$(call manifest,$(1),reference_files))
lab_impl_sources = $(addprefix $(if $(filter solution,$(2)),solutions,labs)/$(1)/,$(call lab_student_files,$(1)))
lab_bin = $(BUILD)/bin/$(1)-$(2)
lab_shows_toolchain = $(filter yes,$(call manifest,$(1),run.toolchain))
asks_for_help = $(filter --help,$(ARGS))
# The newest sweep of this lab, else the sample measured on a current GPU.
lab_csv = $(or $(CSV),$(lastword $(sort $(wildcard results/$(1)/sweep-*.csv))),$(firstword $(wildcard labs/$(1)/sample/*.csv)))

# Trusted objects come first on every link line: where a student file and a trusted one both
# hold the same inline function (weak), the linker keeps the first, the trusted copy.
define lab_rules
$(call lab_bin,$(1),student): $(call objects,$(call lab_sources,$(1))) $(COMMON_OBJ) $(call objects,$(call lab_impl_sources,$(1),student))
	@mkdir -p $$(@D)
	$$(call link,$$^ $(call manifest,$(1),libraries))
$(call lab_bin,$(1),solution): $(call objects,$(call lab_sources,$(1))) $(COMMON_OBJ) $(call objects,$(call lab_impl_sources,$(1),solution))
	@mkdir -p $$(@D)
	$$(call link,$$^ $(call manifest,$(1),libraries))

# The lab's binary, compiled on every CPU (BUILD_JOBS): a first `make labN` compiles the driver
# core too. (The grader builds a student's binary with `make LAB-graded`, one job each.) Asked
# first whether it is up to date, so that a run does not start with make saying so.
$(1)-build:
	@$$(MAKE) -q --no-print-directory $(call lab_bin,$(1),$(IMPL)) || $$(MAKE) --no-print-directory $$(BUILD_JOBS) $(call lab_bin,$(1),$(IMPL))
# `make labN` allows a case the time the grader allows (the manifest's time_limit, when it names
# one; the driver's own default otherwise): one owner, the manifest. With run.toolchain = yes
# (lab0) it first shows the toolchain and the GPU: nvcc's version, then `make limits`, which
# stops here with a plain message where there is no GPU. Asked for the options (ARGS=--help),
# it runs the program alone: the help needs no GPU, and a missing one must not hide it.
$(1): $(1)-build $(if $(call lab_shows_toolchain,$(1)),$(BUILD)/bin/gpu-limits)
	$(if $(call lab_shows_toolchain,$(1)),$$(if $$(asks_for_help),,$(NVCC) --version))
	$(if $(call lab_shows_toolchain,$(1)),$$(if $$(asks_for_help),,$(BUILD)/bin/gpu-limits))
	$(call lab_bin,$(1),$(IMPL)) $(if $(call manifest,$(1),time_limit),--time-limit $(call manifest,$(1),time_limit)) $(call manifest,$(1),run.default) $$(ARGS)
$(1)-bench: $(1)-build
	$(call lab_bin,$(1),$(IMPL)) $(call manifest,$(1),bench.args) $$(ARGS)
# A new sweep into a dated file; RESUME=file finishes an interrupted one (mk/sweep.sh --resume).
$(1)-sweep: $(1)-build $(BUILD)/bin/gpu-limits
	@mkdir -p results/$(1)
	mk/sweep.sh $(1) $(call lab_bin,$(1),$(IMPL)) $$(if $$(RESUME),$$(RESUME) --resume,results/$(1)/sweep-$$$$(date +%Y%m%d-%H%M%S).csv)
$(1)-plots:
	mk/plot.sh $(1) "$(call lab_csv,$(1))" results/$(1)
$(1)-report:
	mk/report.sh $(1) "$(call lab_csv,$(1))" results/$(1)
$(1)-profile: $(1)-build
	mk/profile.sh $(1) $(call lab_bin,$(1),$(IMPL)) $$(ARGS)
# compute-sanitizer's memcheck, racecheck and synccheck on the sanitizer case. synccheck: a
# barrier that not every thread of its block reaches, the mistake of a kernel whose threads past
# the end of the data return early or skip a branch; every lab has barriers where that can happen.
$(1)-memcheck $(1)-racecheck $(1)-synccheck: $(1)-%: $(1)-build
	mk/sanitize.sh $$* $(call lab_bin,$(1),$(IMPL)) $(call manifest,$(1),case.$(call manifest,$(1),sanitize.case).args)
.PHONY: $(1) $(1)-build $(1)-bench $(1)-sweep $(1)-plots $(1)-report $(1)-profile $(1)-memcheck $(1)-racecheck $(1)-synccheck
endef
$(foreach lab,$(LABS),$(eval $(call lab_rules,$(lab))))

# --- GPU limits ---------------------------------------------------------------------------
$(BUILD)/bin/gpu-limits: $(call objects,common/gpu_limits_main.cpp) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(call link,$^)
limits: $(BUILD)/bin/gpu-limits
	$(BUILD)/bin/gpu-limits
.PHONY: limits

# --- tests --------------------------------------------------------------------------------
# One Catch2 binary per folder of tests/: tests/common tests the helpers, tests/LAB the
# lab's CPU reference and, on a GPU, every solution rung.
TEST_DIRS := $(sort $(patsubst tests/%/,%,$(dir $(wildcard tests/*/*.cpp tests/*/*.cu))))
test_sources = $(wildcard tests/$(1)/*.cpp tests/$(1)/*.cu) tests/catch_main.cpp \
    $(if $(filter $(1),$(LABS)),$(filter-out labs/$(1)/driver.cpp,$(call lab_sources,$(1))) $(call lab_impl_sources,$(1),solution))
# The student distribution has no solutions/: its labs build and test the student side only.
# (Stripped: foreach leaves a blank for every lab without one, and a blank is not empty to $(if).)
LABS_WITH_SOLUTION := $(strip $(foreach lab,$(LABS),$(if $(wildcard solutions/$(lab)/.),$(lab))))

# Catch2's header, compiled once (GCC's precompiled header, CATCH_PCH.gch) and included first
# in every test .cpp: its text was most of each test file's compile, 36 times over.
CATCH_PCH := $(BUILD)/pch/catch.hpp
$(CATCH_PCH).gch: tests/catch.hpp
	@mkdir -p $(@D)
	cp $< $(CATCH_PCH)
	$(CXX) -std=c++17 $(CXXFLAGS) $(WARNINGS) $(CPPFLAGS) -x c++-header $(CATCH_PCH) -o $@

define test_rules
$(BUILD)/tests/$(1): $(call objects,$(call test_sources,$(1))) $(COMMON_OBJ) $(MANIFEST_OBJ)
	@mkdir -p $$(@D)
	$$(call link,$$^ $$(CATCH2_LIBS) $(if $(filter $(1),$(LABS)),$(call manifest,$(1),libraries)))
$(call objects,$(wildcard tests/$(1)/*.cpp)): $(CATCH_PCH).gch
$(call objects,$(wildcard tests/$(1)/*.cpp)): CPPFLAGS += -include $(CATCH_PCH)
endef
$(foreach dir,$(TEST_DIRS),$(eval $(call test_rules,$(dir))))

TEST_BINARIES := $(addprefix $(BUILD)/tests/,$(filter-out $(filter-out $(LABS_WITH_SOLUTION),$(LABS)),$(TEST_DIRS)))
LAB_BINARIES := $(foreach lab,$(LABS),$(call lab_bin,$(lab),student)) \
                $(foreach lab,$(LABS_WITH_SOLUTION),$(call lab_bin,$(lab),solution))

check-catch2:
	@$(if $(CATCH2_FOUND),true,echo "Catch2 was not found: install it with 'sudo apt-get install catch2' (README.md, Prerequisites)" >&2; exit 1)
test-build: check-catch2 $(TEST_BINARIES) $(LAB_BINARIES) $(BUILD)/bin/gpu-limits
# What the tests need is installed first (mk/deps.sh), then a fresh make builds and runs them:
# it finds the Catch2 just installed, which this one, started before, could not.
test:
	@mk/deps.sh ensure
	@$(MAKE) --no-print-directory $(BUILD_JOBS) test-build
	BUILD=$(BUILD) tests/run.sh
.PHONY: check-catch2 test-build test

# --- grading and the student distribution (grading/README.md) ---------------------------------
# mk/grader.mk (the grader's tool, make labN-check) ships in the student tarball too;
# mk/grading.mk (make dist, the grader's tests) stays in the instructor's copy.
include mk/grader.mk
-include mk/grading.mk

# --- every architecture's resources, without a GPU (tests/scripts/arch.sh) -------------------
include mk/arch.mk

# --- housekeeping ---------------------------------------------------------------------------
# What the tests (Catch2), the figures (gnuplot), the grader's sandbox (bubblewrap) and its
# tests of the planted-bug patches (patch) need; python3 opens archive submissions; zip and
# bsdtar (libarchive-tools) make the archives of tests/scripts/grading-archives.sh. The list is
# mk/deps.sh's; `make test` installs what is missing where that needs no password.
deps:
	mk/deps.sh install
.PHONY: deps

clean:
	rm -rf $(BUILD)
.PHONY: clean

help:
	@echo "Labs: $(LABS)"
	@echo
	@echo "  make labN                 build your labs/labN and run its default case"
	@echo "  make labN ARGS='--m 512'  ... with options added (make labN ARGS=--help lists them)"
	@echo "  make labN-build           only build your labs/labN (make labN builds it too)"
	@$(if $(LABS_WITH_SOLUTION),echo "  make labN IMPL=solution   the same with the reference solution (instructor copy)",true)
	@echo "  make labN-bench           the lab's benchmark case (lab1: 4096^3 against cuBLAS)"
	@echo "  make labN-sweep           run the lab's experiment into results/labN/sweep-DATE.csv"
	@echo "  make labN-plots           draw the figures of the newest sweep (or the sample) as PNG"
	@echo "  make labN-report          write results/labN/report.md: results, figures, the questions"
	@echo "  make labN-profile         profile the lab's case with Nsight Compute (ncu)"
	@echo "  make labN-memcheck        run a small case under compute-sanitizer (also -racecheck, -synccheck)"
	@echo "  make labN-check           before submitting: grade your labs/labN on its public cases, as the grader does"
	@echo "  make limits               print this GPU's launch limits"
	@echo "  make test                 build everything and run the tests"
	@echo "  make deps                 install what the tests, figures and grader need (make test does it where it can)"
	@$(if $(GRADING_HELP),printf '%s\n' "$$GRADING_HELP",true)
	@echo "  make clean                remove build/"
	@echo
	@echo "Building for compute capabilities: $(CUDA_ARCH) (set CUDA_ARCH to change)"
.PHONY: help

-include $(shell find $(BUILD)/obj $(BUILD)/arch -name '*.d' 2>/dev/null)
