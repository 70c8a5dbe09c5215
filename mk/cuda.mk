# Where CUDA is, and which GPUs to build for.
#
# CUDA_ARCH lists compute capabilities without the dot. By default it is the GPU that is
# present (nvidia-smi reports it); with no GPU visible (a CI machine, a login node) it is
# PORTABLE_ARCHS, every architecture CUDA 13 supports from Turing to Blackwell, plus PTX
# of the newest so a future GPU can still run the code. Override: make CUDA_ARCH="86 90".
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
ifeq ($(strip $(NVCC)),)
$(error nvcc was not found: install the CUDA toolkit and put its bin/ on PATH (README.md, Prerequisites))
endif
# The toolkit's folder, as nvcc itself reports it: the nvcc on PATH may be a wrapper script
# (Debian's nvidia-cuda-toolkit, /usr/local/bin/nvcc on some images) that lives elsewhere. NVCC
# then names the real compiler, so the grader finds the toolkit's headers and its sanitizer.
ifndef CUDA_HOME
CUDA_HOME := $(realpath $(patsubst TOP=%,%,$(filter TOP=%,$(shell $(NVCC) --dryrun -E -x cu /dev/null 2>&1))))
endif
ifeq ($(strip $(CUDA_HOME)),)
$(error $(NVCC) did not say where the CUDA toolkit is (nvcc --dryrun prints no TOP=): set CUDA_HOME)
endif
override NVCC := $(or $(wildcard $(CUDA_HOME)/bin/nvcc),$(NVCC))
PORTABLE_ARCHS := 75 80 86 89 90 100 120
DETECTED_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | grep -E '^[0-9]+\.[0-9]+$$' | tr -d . | sort -u)
CUDA_ARCH ?= $(or $(DETECTED_ARCH),$(PORTABLE_ARCHS))
GENCODE := $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
           -gencode arch=compute_$(lastword $(CUDA_ARCH)),code=compute_$(lastword $(CUDA_ARCH))
