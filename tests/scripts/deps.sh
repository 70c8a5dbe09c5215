#!/usr/bin/env bash
# mk/deps.sh ensure, which `make test` runs first: what is missing is installed with apt-get
# (here as root, through a stand-in apt-get that records its arguments), and nothing is run when
# nothing is missing.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
work=$(mktemp -d /tmp/deps-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
((EUID == 0)) || { echo "needs root (it installs as root): skipped"; exit 77; }

mkdir -p "$work/bin"
cat >"$work/bin/apt-get" <<'STUB'
#!/usr/bin/env bash
echo "$*" >>"$(dirname "$0")/../apt.log"
STUB
# A compiler that finds no Catch2 header, as on a machine without it.
printf '#!/usr/bin/env bash\nexit 1\n' >"$work/bin/no-catch2-c++"
chmod +x "$work/bin/apt-get" "$work/bin/no-catch2-c++"

PATH=$work/bin:$PATH CXX=$work/bin/no-catch2-c++ mk/deps.sh ensure >"$work/out.txt" 2>&1
check "a missing Catch2 is installed (status $?)" grep -q 'install .*catch2' "$work/apt.log"
check "it says what it installs" grep -q "make test needs Debian's .*catch2.*: installing them with apt-get" "$work/out.txt"
rm -f "$work/apt.log"
if mk/deps.sh ensure >"$work/out2.txt" 2>&1 && [[ ! -s $work/out2.txt ]]; then
    PATH=$work/bin:$PATH mk/deps.sh ensure >/dev/null 2>&1
    check "nothing is installed when nothing is missing" test ! -e "$work/apt.log"
fi
finish
