# $(call manifest,LAB,KEY): the value of KEY in labs/LAB/manifest (empty when absent), read by
# the one shell reader of manifests, mk/manifest.sh (the C++ reader is common/manifest.cpp).
# It reads every lab's manifest at once into $(BUILD)/manifests.mk (manifest.LAB.KEY := VALUE),
# which make remakes when a manifest changes and then reads afresh (written under a name of its
# own and renamed, so that two makes at once never read half a file): a shell for each lookup
# cost every make about 250 shells and 5 s before its first rule.
MANIFEST_VARS := $(BUILD)/manifests.mk
$(MANIFEST_VARS): $(wildcard labs/*/manifest) mk/manifest.sh
	@mkdir -p $(@D)
	@source mk/manifest.sh && manifest_make_vars $(LABS) >$@.$$$$.partial && mv $@.$$$$.partial $@
include $(MANIFEST_VARS)
manifest = $(strip $(manifest.$(1).$(2)))
