# Shared by the shell tests: each check prints a TAP line, "ok - name" or
# "not ok - name"; tests/unit/run numbers and counts them.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HIB=$TOP/build/hibernate

# The profile tunables, in order: the rows of S2_TUNABLES in names.h, the
# one list the module, hibernate and these fake configfs trees share.
TUNABLES=$(awk '/^#define S2_TUNABLES/ { on = 1; next }
	on && /^[[:space:]]*X\(/ { split($0, f, /[(,]/); print f[2] }
	on && !/\\$/ { on = 0 }' "$TOP/kernel/suspend2/names.h")

# fake_profile DIR NAME: profile NAME of the fake configfs tree DIR, a
# plain empty file for each tunable.
fake_profile() {
	local a
	mkdir -p "$1/profiles/$2"
	for a in $TUNABLES; do
		: >"$1/profiles/$2/$a"
	done
}

pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
# skip WHY: a TAP line for checks this machine cannot run (not root, no
# loop device): numbered like any test, counted neither passed nor failed.
skip() { echo "ok - # SKIP $*"; }

# have TOOL WHAT: TOOL is installed.  Else a failure naming WHAT went
# unchecked: make deps (scripts/deps) installs every tool the tests use.
have() {
	command -v "$1" >/dev/null && return 0
	fail "$1 is not installed: $2 not checked (make deps installs it)"
	return 1
}

# can_strace WHAT: strace is installed (else a failure) and may trace
# here (else a skip: a container may forbid ptrace).
can_strace() {
	have strace "$1" || return 1
	strace -qq -o /dev/null true 2>/dev/null && return 0
	skip "strace cannot trace here (ptrace not permitted): $1"
	return 1
}

# check NAME COMMAND...: pass when the command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# expect_rc NAME RC COMMAND...: pass when the command exits with RC.
expect_rc() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [[ $rc == "$want" ]]; then
		pass "$name"
	else
		fail "$name (exit $rc, wanted $want)"
		sed 's/^/    /' "$T/out" "$T/err" | head -20
	fi
}

# Not under /tmp, nor under the tree (a clone may be under /tmp): a key
# directory is refused under a directory others may write, sticky or not
# (keyfile_parents_trusted()), so every directory above $T must be root's
# (or the user's running the tests) and writable by no one else: /run for
# root, else the user's runtime directory or home (as test_keyfile.c).
if [ "$(id -u)" = 0 ]; then
	scratch=/run/suspend2-unit
else
	scratch=${XDG_RUNTIME_DIR:-$HOME}/suspend2-unit
fi
mkdir -p "$scratch" && chmod 0755 "$scratch"
T=$(mktemp -d "$scratch/sh-XXXXXX")
trap 'rm -rf "$T"' EXIT
