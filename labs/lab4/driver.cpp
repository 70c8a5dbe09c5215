// Lab 4's program: the lab (lab4.cu) run by the shared driver core.
#include "lab4.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab4(), argc, argv); }
