#!/usr/bin/env bash
# mk/deps.sh install|ensure: the Debian packages the tests, the figures and the grader need.
#   install  (make deps)  installs them all with apt-get
#   ensure   (make test)  installs the missing ones where that needs no password (as root, or
#                         through sudo -n), and otherwise stops with the one line to run
# The README's two commands, `make lab1` and `make test`, then work on a fresh machine with the
# CUDA toolkit.
set -uo pipefail
cd "$(dirname "$0")/.."

# package: how this machine shows it has it
declare -A HAS=(
    [catch2]="catch2_header"                # the tests (Catch2 2.x on Debian 12, 3.x on Ubuntu 24.04)
    [gnuplot-nox]="command -v gnuplot"      # the figures
    [bubblewrap]="command -v bwrap"         # the grader's sandbox
    [patch]="command -v patch"              # the planted-bug variants
    [python3]="command -v python3"          # archive submissions
    [zip]="command -v zip"                  # tests/scripts/grading-archives.sh
    [libarchive-tools]="command -v bsdtar"  # tests/scripts/grading-archives.sh
)
catch2_header() {
    local header
    for header in catch2/catch_test_macros.hpp catch2/catch.hpp; do
        printf '#include <%s>\n' "$header" | "${CXX:-g++}" -std=c++17 -x c++ -E - >/dev/null 2>&1 && return 0
    done
    return 1
}

as_root() {
    if ((EUID == 0)); then
        "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        return 2
    fi
}
apt_install() {  # apt_install PACKAGE...: once more after refreshing the lists, which a fresh machine may lack
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
        { as_root apt-get update -qq >/dev/null 2>&1 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; }
}

case ${1-} in
    install)
        ((EUID == 0)) && exec apt-get install -y "${!HAS[@]}"
        exec sudo apt-get install -y "${!HAS[@]}" ;;
    ensure)
        missing=()
        for package in "${!HAS[@]}"; do eval "${HAS[$package]}" >/dev/null 2>&1 || missing+=("$package"); done
        ((${#missing[@]})) || exit 0
        echo "make test needs Debian's ${missing[*]}: installing them with apt-get" >&2
        apt_install "${missing[@]}" && exit 0
        echo "make test needs Debian's ${missing[*]}, which could not be installed without a password; run:" >&2
        echo "    sudo apt-get install -y ${missing[*]}" >&2
        exit 1 ;;
    *)
        echo "usage: mk/deps.sh install|ensure" >&2
        exit 2 ;;
esac
