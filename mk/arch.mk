# Each kernel's resources on every architecture of the README's list (PORTABLE_ARCHS), for
# tests/scripts/arch.sh. Included by the Makefile.
#
#   BUILD/arch/sm_XX/SOURCE.ptx    SOURCE's PTX for compute_XX, as the build makes it for sm_XX
#   BUILD/arch/sm_XX/SOURCE.ptxas  ptxas's report (-v) on compiling that PTX for sm_XX: each
#                                  kernel's registers, static shared memory, stack and spills
#   BUILD/bin/arch-check           reads both and checks every kernel against every architecture's
#                                  launch limits (common/arch_check_main.cpp)
#
# Device code only, one architecture at a time: no host compilation, no link. The host code is
# the same for every architecture, and the build compiles it.
define arch_rules
$(BUILD)/arch/sm_$(1)/%.cu.ptx: %.cu
	@mkdir -p $$(@D)
	$$(NVCC) -std=c++17 -arch=compute_$(1) $$(nvcc_source_flags) -MMD -MP -ptx $$< -o $$@
$(BUILD)/arch/sm_$(1)/%.cu.ptxas: $(BUILD)/arch/sm_$(1)/%.cu.ptx
	$$(NVCC) -arch=sm_$(1) $$(NVCCFLAGS) -Xptxas -v -cubin $$< -o /dev/null 2>$$@.partial || { cat $$@.partial >&2; rm -f $$@.partial; exit 1; }
	@mv $$@.partial $$@
.PRECIOUS: $(BUILD)/arch/sm_$(1)/%.cu.ptx  # arch-check reads the PTX too: make must not delete it
endef
$(foreach arch,$(PORTABLE_ARCHS),$(eval $(call arch_rules,$(arch))))

ARCH_CHECK := $(BUILD)/bin/arch-check
$(ARCH_CHECK): $(call objects,common/arch_check_main.cpp) $(COMMON_OBJ) $(MANIFEST_OBJ)
	@mkdir -p $(@D)
	$(call link,$^)
test-build: $(ARCH_CHECK)
