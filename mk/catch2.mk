# Catch2: version 3 (Ubuntu 24.04, the GPU machines) is a compiled library, version 2
# (Debian 12) a single header. tests/catch.hpp includes whichever is there.
hash := \#
has_header = $(shell printf '$(hash)include <$(1)>\n' | $(CXX) -std=c++17 -x c++ -E - >/dev/null 2>&1 && echo yes)
# Looked for on first use only (each look runs the compiler): the grader's many student builds
# never ask. $(call once,NAME,VALUE) sets NAME to VALUE the first time NAME is expanded.
once = $(eval $(1) := $(2))$($(1))
CATCH2_V3 = $(call once,CATCH2_V3,$$(call has_header,catch2/catch_test_macros.hpp))
CATCH2_V2 = $(call once,CATCH2_V2,$$(call has_header,catch2/catch.hpp))
CATCH2_LIBS = $(if $(CATCH2_V3),-lCatch2)
CATCH2_FOUND = $(or $(CATCH2_V3),$(CATCH2_V2))
