# $(call manifest,LAB,KEY): the value of KEY in labs/LAB/manifest (empty when absent), read by
# the one shell reader of manifests, mk/manifest.sh (the C++ reader is common/manifest.cpp).
manifest = $(strip $(shell source mk/manifest.sh && manifest_get '$(1)' '$(2)'))
