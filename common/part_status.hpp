// How a part of a lab ended, in one spelling shared by the drivers (which write it into
// results.tsv and print it in the check column) and the grader (which reads it back).
#pragma once
#include <string>

enum class PartStatus {
    ran,              // it launched work and wrote an output: a check decides whether it is right
    not_implemented,  // it launched nothing (a TODO left as it is)
    refused,          // a launch broke a limit of this GPU, or failed to start
    crashed,          // a kernel faulted; the CUDA context is lost
    timeout,          // a kernel ran past the time limit and was stopped
    error,            // the part's host code threw, or its launches broke the lab's rule
    skipped,          // the part does not apply to this case (PartRun::skip, decided by the trusted driver
                      // from the case's options alone: lab6's one-block sorts for arrays above 1024)
};

// "ran", "not implemented", "refused", "crashed", "timeout", "error".
const char* status_name(PartStatus status);
// The status a name spells; false for anything else.
bool parse_status(const std::string& name, PartStatus& status);
