// The entry point of every lab's driver: `int main(int argc, char** argv) { return run_lab(
// lab1_info(), argc, argv); }`. It parses the shared options and the lab's own, finds the
// GPU, makes the case and runs its parts (part_loop.hpp); with --cases FILE it runs every
// case of the file in this one process, one after another, each into its own folder of --out.
#pragma once
#include "lab_case.hpp"

int run_lab(const LabInfo& lab, int argc, char** argv);
