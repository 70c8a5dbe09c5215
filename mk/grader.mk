# The grader's tool and what grading/grade.sh asks of make in a student's work folder, and
# `make labN-check` (grading/self-check.sh: the public part of the grade, before submitting).
# Included by the Makefile; the student tarball has this file too (make dist ships the grader's
# C++ sources and scripts, without solutions, hidden cases or reference outputs), while
# mk/grading.mk, the instructor's rules, stays home.
#
#   make grader       build/bin/grader, the C++ half of grading/grade.sh
#   make labN-check   grade your labs/labN files on their public cases, as grade.sh does

GRADER_LIB := $(filter-out grading/grader_main.cpp grading/affinity_guard.cpp,$(wildcard grading/*.cpp))
GRADER := $(BUILD)/bin/grader
# The guard every sandboxed command runs under (grading/sandbox.sh): no thread of it may widen its
# CPU set. A program of its own, with nothing of the grader's in it.
AFFINITY_GUARD := $(BUILD)/bin/affinity-guard

# The grader's sources and its tests include the grader's headers by name.
$(BUILD)/obj/grading/%: CPPFLAGS += -Igrading

$(GRADER): $(call objects,grading/grader_main.cpp $(GRADER_LIB)) $(COMMON_OBJ) $(MANIFEST_OBJ)
	@mkdir -p $(@D)
	$(call link,$^)

$(AFFINITY_GUARD): grading/affinity_guard.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 $(CXXFLAGS) $(WARNINGS) -o $@ $<

# What grading/grade.sh needs to know of make: the architectures to build for, and nvcc.
grading-print-arch:
	@echo $(CUDA_ARCH)
grading-print-nvcc:
	@echo $(NVCC)

# The trusted objects of LAB (its driver's sources and common/): grade.sh builds them once and
# copies them into every student's work folder, so each student build compiles only the
# student's files.
grading-trusted-objects-%:
	@$(MAKE) --no-print-directory $(call objects,$(call lab_sources,$*)) $(COMMON_OBJ)

# The binary the grader runs for a student (make LAB-graded, in the student's work folder):
# the student's files with the trusted driver, but without the lab's CPU reference
# (reference_files: grading compares with the reference run's outputs) and without a symbol
# table, so the student's code can reach neither.
graded_sources = $(filter-out $(call manifest,$(1),reference_files),$(call lab_sources,$(1)))
define graded_rules
$(BUILD)/bin/$(1)-graded: $(call objects,$(call graded_sources,$(1))) $(COMMON_OBJ) $(call objects,$(call lab_impl_sources,$(1),student))
	@mkdir -p $$(@D)
	$$(call link,$$^ $(call manifest,$(1),libraries) -Xlinker --strip-all)
$(1)-graded: $(BUILD)/bin/$(1)-graded
# Prerequisites, not a recursive make: one make per student build reads the Makefile once.
grading-preprocess-$(1): $(patsubst %,$(BUILD)/pre/labs/$(1)/%.ii,$(call lab_student_files,$(1)))
grading-ptx-$(1): $(patsubst %,$(BUILD)/ptx/labs/$(1)/%.ptx,$(filter %.cu,$(call lab_student_files,$(1))))
.PHONY: $(1)-graded grading-preprocess-$(1) grading-ptx-$(1)
endef
$(foreach lab,$(LABS),$(eval $(call graded_rules,$(lab))))

# The student files of LAB preprocessed, as the compiler saw them (grade.sh looks for an
# assembler .incbin in them, which no spelling of the source can hide).
$(BUILD)/pre/%.cu.ii: %.cu
	@mkdir -p $(@D)
	$(NVCC) -std=c++17 $(CPPFLAGS) $(lab_include) -E $< -o $@
$(BUILD)/pre/%.cpp.ii: %.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 $(CPPFLAGS) $(lab_include) -E $< -o $@

# The PTX of the student files, for every architecture built, one after another: grade.sh
# matches a part's construct rule (forbidden_ptx) in what the compiler made, which no spelling of
# the source changes (an atomic max written as atomicMax or as cuda::atomic_ref::fetch_max is one
# atom.max). Every architecture, not the first: the GPU runs the code of its own (or the PTX of
# the last), and a construct may exist for some only (__reduce_max_sync is redux.sync from sm_80
# on; code under `#if __CUDA_ARCH__ >= 800` is absent from sm_75's PTX).
$(BUILD)/ptx/%.cu.ptx: %.cu
	@mkdir -p $(@D)
	rm -f $@.part
	$(foreach arch,$(CUDA_ARCH),$(NVCC) -std=c++17 $(NVCCFLAGS) $(CPPFLAGS) $(lab_include) \
	    $(addprefix -Xcompiler ,$(lab_host_flags)) -arch=compute_$(arch) -ptx $< -o $@.$(arch) && \
	    cat $@.$(arch) >>$@.part && rm -f $@.$(arch) &&) mv $@.part $@

# The public part of the grade of your labs/LAB files (grading/self-check.sh).
LAB_CHECKS := $(addsuffix -check,$(LABS))
$(LAB_CHECKS): %-check:
	BUILD=$(BUILD) CUDA_ARCH="$(CUDA_ARCH)" grading/self-check.sh $*

grader: $(GRADER) $(AFFINITY_GUARD)

.PHONY: grader grading-print-arch grading-print-nvcc $(LAB_CHECKS)
