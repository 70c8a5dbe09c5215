// Lab 3 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// GPU tests run the same lab.
#pragma once
#include "lab_case.hpp"

LabInfo lab3();
