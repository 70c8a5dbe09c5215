// Lab 5's program: the lab (lab5.cu) run by the shared driver core.
#include "lab5.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab5(), argc, argv); }
