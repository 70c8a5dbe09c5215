# Whether this bubblewrap knows --size (0.8 and later), which sizes the sandbox's private /tmp:
# prints yes or no. Sourced by grading/sandbox.sh, which asks before each run unless its caller
# said (SANDBOX_BWRAP_SIZE), and by grade.sh, which asks once and says so to all its runs: the
# question cost three processes a run.
bwrap_knows_size() { if bwrap --help 2>&1 | grep -q -- '--size'; then echo yes; else echo no; fi; }
