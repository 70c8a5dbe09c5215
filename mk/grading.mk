# The grader (grading/README.md) and the student distribution. Included by the Makefile.
#
#   (make grader, labN-check and the rules grade.sh uses in a work folder: mk/grader.mk,
#   which the student tarball has too)
#   make dist                dist/<course>-student.tar.gz: the course without solutions/,
#                            the grader, hidden cases or reference outputs (mk/dist.sh)
#   make grading-gpu-test    on a GPU machine: grade the reference solution, the starter and
#                            every planted-bug variant and check every expected score (make
#                            test grades the quick class: tests/scripts/grading-gpu.sh)
#   make selfcheck-test      on a GPU machine: make labN-check of every lab in the unpacked
#                            student tarball, with the reference solution's files, must give
#                            full public points (make test checks labs 2 and 7:
#                            tests/scripts/selfcheck-tarball.sh)
#   make grading-bench N=50  on a GPU machine: grade N copies of the solution (BUGS=20: a fifth of
#                            them planted bugs), print phase times
#   make handouts-rubric     rewrite the rubric block of each handout's "How it is graded"
#                            section from what the grader makes of its manifest

# The grader's tests include its headers by name (the grader itself: mk/grader.mk).
$(BUILD)/obj/tests/grading/%: CPPFLAGS += -Igrading

# tests/grading's Catch2 binary tests the grader's library, so it links it.
$(BUILD)/tests/grading: $(call objects,$(GRADER_LIB))

# The script tests (tests/scripts/grading-*.sh) drive the grader.
test-build: $(GRADER) $(AFFINITY_GUARD)

dist:
	mk/dist.sh $(or $(DIST),dist/$(notdir $(CURDIR))-student.tar.gz)

grading-gpu-test: $(GRADER) $(AFFINITY_GUARD) $(BUILD)/bin/gpu-limits
	BUILD=$(BUILD) CLASS=$(or $(CLASS),full) bash tests/scripts/grading-gpu.sh

selfcheck-test: $(BUILD)/bin/gpu-limits
	BUILD=$(BUILD) GPU=$$($(BUILD)/bin/gpu-limits >/dev/null 2>&1 && echo yes || echo no) \
	    SELFCHECK_LABS=$(or $(SELFCHECK_LABS),all) bash tests/scripts/selfcheck-tarball.sh

grading-bench: $(GRADER) $(AFFINITY_GUARD) $(BUILD)/bin/gpu-limits
	grading/bench.sh $(or $(N),50)

# The rubric block of each lab's handout (the manifest's `handout`): the cases, the points and
# curves, the sanitizer deductions and the total, as `grader rubric` prints them from the plan
# the grader scores with (grading/rubric_markdown.cpp). tests/scripts/handout-rubric.sh fails
# when a block differs from it.
handouts-rubric: $(GRADER)
	@$(foreach lab,$(LABS),python3 tests/scripts/lib/handouts.py rubric write $(GRADER) $(lab) $(call manifest,$(lab),handout) &&) true

.PHONY: dist grading-gpu-test selfcheck-test grading-bench handouts-rubric

# Lines `make help` adds for the instructor's copy (the student distribution has no grader).
define GRADING_HELP
  make dist                 write the student tarball (no solutions, grader or hidden cases)
  make grader               build the grader's tool; grading/grade.sh grades submissions (grading/README.md)
  make grading-gpu-test     on a GPU: grade the solution, the starter and every planted-bug variant
  make selfcheck-test       on a GPU: make labN-check of every lab in the student tarball, full marks
  make grading-bench N=50   time grading N copies of a submission
  make handouts-rubric      rewrite each handout's rubric block from its manifest (after changing the points)
endef
export GRADING_HELP
