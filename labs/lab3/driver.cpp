// Lab 3's program: the lab (lab3.cu) run by the shared driver core.
#include "lab3.hpp"
#include "lab_main.hpp"

int main(int argc, char** argv) { return run_lab(lab3(), argc, argv); }
