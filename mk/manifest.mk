# $(call manifest,LAB,KEY): the value of KEY in labs/LAB/manifest (empty when absent), read by
# the one shell reader of manifests, mk/manifest.sh (the C++ reader is common/manifest.cpp).
# It reads every lab's manifest at once into $(MANIFEST_VARS) (manifest.LAB.KEY := VALUE),
# which make remakes when a manifest changes and then reads afresh (written under a name of its
# own and renamed, so that two makes at once never read half a file): a shell for each lookup
# cost every make about 250 shells and 5 s before its first rule. One file per course tree: the
# tests share a BUILD folder between the course and copies of it with other labs (the grader's
# test lab), and a copy's file, newer than this tree's manifests, was read here as this tree's.
MANIFEST_VARS := $(BUILD)/manifests/$(subst /,_,$(CURDIR)).mk
$(MANIFEST_VARS): $(wildcard labs/*/manifest) mk/manifest.sh
	@mkdir -p $(@D)
	@source mk/manifest.sh && manifest_make_vars $(LABS) >$@.$$$$.partial && mv $@.$$$$.partial $@
include $(MANIFEST_VARS)
manifest = $(strip $(manifest.$(1).$(2)))
