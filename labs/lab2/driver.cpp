// Lab 2's program: the lab (lab2.cu) run by the shared driver core.
#include "lab2.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab2(), argc, argv); }
