// Lab 1's program: the lab (lab1.cu) run by the shared driver core.
#include "lab1.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab1(), argc, argv); }
