// How a driver reaches its lab's CPU reference without naming it. The reference's own object
// (a lab's reference_files, labs/MANIFEST.md) installs its entry point as it loads:
//
//     static ReferenceHook<MatmulReferenceFunction>::Install install(&entry_point);
//
// and the driver calls ReferenceHook<...>::get(). The binaries students run and the grader's
// reference run link the reference in; the binaries the grader runs for students leave it out
// (make LAB-graded), so a submission cannot call it to fake its results: there, get() stops
// with a clear message (grading runs with --check none and never asks for it).
#pragma once
#include "fail.hpp"

template <typename Function>
class ReferenceHook {
public:
    struct Install {
        explicit Install(Function* f) { entry_ = f; }
    };
    static Function* get() {
        if (!entry_)
            fail(exit_code::bad_usage, "this build holds no CPU reference (the grader's build for a submission): run it "
                                       "with --check none");
        return entry_;
    }

private:
    static inline Function* entry_ = nullptr;
};
