#!/usr/bin/env bash
# Lab 6's table of passes over memory (handouts/lab6-sorting-networks.md): every cell of a row
# whose second column is a formula (1 + Σ_{j=1}^{k−10} (...)) is that formula at the column's
# L = 2^k, computed here (tests/scripts/lib/handouts.py, pass-table). Needs python3 (make deps).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null || { echo "python3 is not installed (make deps)"; exit 77; }
python3 tests/scripts/lib/handouts.py pass-table handouts/lab6-sorting-networks.md
