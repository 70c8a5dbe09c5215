// Lab 0's program: the lab (lab0.cu) run by the shared driver core.
#include "lab0.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab0(), argc, argv); }
