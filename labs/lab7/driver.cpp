// Lab 7's program: the lab (lab7.cu) run by the shared driver core.
#include "lab7.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab7(), argc, argv); }
