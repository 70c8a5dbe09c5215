#!/usr/bin/env bash
# mk/profile.sh (make LAB-profile) with a stand-in ncu that prints the command line it was
# given, so no GPU or Nsight Compute is needed: ncu gets --clock-control none, the manifest's
# metrics comma-separated, its launch filter where it has one (lab3), the binary, the
# manifest's case, --no-yardstick and then the caller's ARGS; without ncu, without a case, for
# an unknown lab or a binary that is not there, a clear message and the documented status.
#
# Exit 0: passed; anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/empty"
printf '#!/bin/sh\necho "ncu-args: $*"\n' >"$tmp/bin/ncu"
printf '#!/bin/sh\nexit 0\n' >"$tmp/driver"
chmod +x "$tmp/bin/ncu" "$tmp/driver"

# The command line the stand-in ncu received for LAB, with the caller's ARGS.
ncu_args() {
    local lab=$1
    shift
    PATH=$tmp/bin:$PATH bash mk/profile.sh "$lab" "$tmp/driver" "$@" 2>/dev/null | sed -n 's/^ncu-args: //p'
}

for lab in lab3 lab5; do
    manifest=labs/$lab/manifest
    metrics=$(manifest_value "$manifest" profile.metrics | tr -s ' ' ',')
    filter=$(manifest_value "$manifest" profile.filter)
    want="--clock-control none --metrics $metrics${filter:+ $filter} $tmp/driver $(manifest_value "$manifest" profile.args) --no-yardstick --part x"
    got=$(ncu_args "$lab" --part x)
    check "$lab: ncu gets the manifest's metrics, filter and case, then the caller's ARGS" test "$got" == "$want"
    [[ $got == "$want" ]] || printf '      got:  %s\n      want: %s\n' "$got" "$want"
done
check "lab3 profiles only some launches of each kernel (one launch per k)" grep -q -- "--filter-mode per-launch-config" <<<"$(ncu_args lab3)"

# Without ncu on PATH (and none in /usr/local/cuda/bin on a machine without the toolkit's
# Nsight Compute), exit 1 and where to get it. PATH keeps only what bash and the script need.
if [[ ! -x /usr/local/cuda/bin/ncu ]]; then
    for tool in dirname cat sed awk grep tr; do ln -s "$(command -v $tool)" "$tmp/empty/$tool"; done
    check_run 1 "Nsight Compute (ncu) was not found" -- env PATH="$tmp/empty" "$BASH" mk/profile.sh lab3 "$tmp/driver"
fi
check_run 2 "no lab 'lab99'" -- env PATH="$tmp/bin:$PATH" bash mk/profile.sh lab99 "$tmp/driver"
check_run 2 "is not an executable file" -- env PATH="$tmp/bin:$PATH" bash mk/profile.sh lab3 "$tmp/missing"
check_run 2 "usage:" -- bash mk/profile.sh lab3
finish
