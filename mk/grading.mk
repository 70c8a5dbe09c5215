# The grader (grading/README.md) and the student distribution. Included by the Makefile.
#
#   make grader              build/bin/grader, the C++ half of grading/grade.sh
#   make dist                dist/<course>-student.tar.gz: the course without solutions/,
#                            the grader, hidden cases or reference outputs (mk/dist.sh)
#   make grading-gpu-test    on a GPU machine: grade the reference solution, the starter and
#                            the planted-bug variants and check every expected score
#   make grading-bench N=50  on a GPU machine: grade N copies of the solution (BUGS=20: a fifth of
#                            them planted bugs), print phase times

GRADER_LIB := $(filter-out grading/grader_main.cpp,$(wildcard grading/*.cpp))
GRADER := $(BUILD)/bin/grader

# The grader's sources and its tests include the grader's headers by name.
$(BUILD)/obj/grading/%: CPPFLAGS += -Igrading
$(BUILD)/obj/tests/grading/%: CPPFLAGS += -Igrading

$(GRADER): $(call objects,grading/grader_main.cpp $(GRADER_LIB)) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(call link,$^)

# tests/grading's Catch2 binary tests the grader's library, so it links it.
$(BUILD)/tests/grading: $(call objects,$(GRADER_LIB))

# The script tests (tests/scripts/grading-*.sh) drive the grader.
test-build: $(GRADER)

grader: $(GRADER)

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
.PHONY: $(1)-graded
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
grading-preprocess-%:
	@$(MAKE) --no-print-directory $(patsubst %,$(BUILD)/pre/labs/$*/%.ii,$(call lab_student_files,$*))

# The PTX of the student files, for the first architecture built: grade.sh matches a part's
# construct rule (forbidden_ptx) in what the compiler made, which no spelling of the source
# changes (an atomic max written as atomicMax or as cuda::atomic_ref::fetch_max is one atom.max).
$(BUILD)/ptx/%.cu.ptx: %.cu
	@mkdir -p $(@D)
	$(NVCC) -std=c++17 $(NVCCFLAGS) $(CPPFLAGS) $(lab_include) $(addprefix -Xcompiler ,$(lab_host_flags)) \
	    -arch=compute_$(firstword $(CUDA_ARCH)) -ptx $< -o $@
grading-ptx-%:
	@$(MAKE) --no-print-directory $(patsubst %,$(BUILD)/ptx/labs/$*/%.ptx,$(filter %.cu,$(call lab_student_files,$*)))

dist:
	mk/dist.sh $(or $(DIST),dist/$(notdir $(CURDIR))-student.tar.gz)

grading-gpu-test: $(GRADER) $(BUILD)/bin/gpu-limits
	BUILD=$(BUILD) bash tests/scripts/grading-gpu.sh

grading-bench: $(GRADER) $(BUILD)/bin/gpu-limits
	grading/bench.sh $(or $(N),50)

.PHONY: grader grading-print-arch grading-print-nvcc dist grading-gpu-test grading-bench

# Lines `make help` adds for the instructor's copy (the student distribution has no grader).
define GRADING_HELP
  make dist                 write the student tarball (no solutions, grader or hidden cases)
  make grader               build the grader's tool; grading/grade.sh grades submissions (grading/README.md)
  make grading-gpu-test     on a GPU: grade the solution, the starter and the planted-bug variants
  make grading-bench N=50   time grading N copies of a submission
endef
export GRADING_HELP
