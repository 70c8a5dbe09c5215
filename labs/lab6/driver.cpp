// Lab 6's program: the lab (lab6.cu) run by the shared driver core.
#include "lab6.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab6(), argc, argv); }
