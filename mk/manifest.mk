# $(call manifest,LAB,KEY): the value of KEY in labs/LAB/manifest (empty when absent).
# The same file is read by the grader (common/manifest.cpp) and the shell (mk/manifest.sh).
manifest = $(strip $(shell sed -n 's/^[[:space:]]*$(subst .,\.,$(2))[[:space:]]*=[[:space:]]*//p' labs/$(1)/manifest))
