#!/bin/bash
# hibernate --install-systemd: the drop-in carries the options given and
# a command path root alone may change; hibernate --system-sleep runs the
# system-sleep hooks as systemd-sleep would.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
D=$T/etc/systemd/system/systemd-hibernate.service.d/suspend2.conf
S=$T/etc/systemd/system/systemd-suspend-then-hibernate.service.d/suspend2.conf
Y=$T/etc/systemd/system/systemd-hybrid-sleep.service.d/suspend2.conf
REAL=$(realpath "$HIB")

# The options that were given, with absolute paths.
mkdir -p "$T/cfs"
touch "$T/h.conf" "$T/s2.ko"
(cd "$T" && "$HIB" --install-systemd -p sys -c h.conf --module ./s2.ko \
	--configfs cfs --set compressor=lz4 -f) >"$T/out" 2>"$T/err"
check "--install-systemd with options exits 0" test $? = 0
check "ExecStart carries -c, --module, --configfs, --set, --force, -p" \
	grep -qx "ExecStart=$REAL -c $T/h.conf --module $T/s2.ko --configfs $T/cfs --set compressor=lz4 --force -p sys" "$D"
check "the old ExecStart is cleared first" \
	test "$(grep '^ExecStart=' "$D" | head -1)" = "ExecStart="
check "suspend-then-hibernate: the same options, and it sleeps first" \
	grep -qx "ExecStart=$REAL -c $T/h.conf --module $T/s2.ko --configfs $T/cfs --set compressor=lz4 --force --suspend-then-hibernate -p sys" "$S"
check "suspend-then-hibernate: its old ExecStart cleared, hooks around" \
	test "$(grep -c -x -e 'ExecStart=' -e "ExecStartPre=-$REAL --system-sleep pre suspend-then-hibernate" -e "ExecStopPost=-$REAL --system-sleep post suspend-then-hibernate" "$S")" = 3
check "hybrid-sleep: the same options, then powerdown = suspend over the user's" \
	grep -qx "ExecStart=$REAL -c $T/h.conf --module $T/s2.ko --configfs $T/cfs --set compressor=lz4 --set powerdown=suspend --force -p sys" "$Y"
check "hybrid-sleep: its old ExecStart cleared, hooks around" \
	test "$(grep -c -x -e 'ExecStart=' -e "ExecStartPre=-$REAL --system-sleep pre hybrid-sleep" -e "ExecStopPost=-$REAL --system-sleep post hybrid-sleep" "$Y")" = 3
check "system-sleep hooks before" grep -qx "ExecStartPre=-$REAL --system-sleep pre hibernate" "$D"
check "system-sleep hooks after, even after a failure" \
	grep -qx "ExecStopPost=-$REAL --system-sleep post hibernate" "$D"
# Whatever root's umask, the drop-in (run as root) is root's alone, and a
# link planted at the temporary name is not followed.
ln -s "$T/planted" "$D.tmp"
(umask 000 && "$HIB" --install-systemd) >/dev/null 2>&1
check "umask 000: the drop-ins are mode 644" \
	test "$(stat -c %a "$D") $(stat -c %a "$S") $(stat -c %a "$Y")" = "644 644 644"
check "a link at the temporary name was not followed" test ! -e "$T/planted"
# Both drop-ins or neither: the second cannot be written, the first is
# left as it was, and no temporary file stays behind.
rm -rf "$T/etc/systemd"
mkdir -p "$T/etc/systemd/system"
: >"$T/etc/systemd/system/systemd-suspend-then-hibernate.service.d"
expect_rc "--install-systemd, the second drop-in cannot be written" 1 \
	"$HIB" --install-systemd
check "... so the first is not installed alone" test ! -e "$D"
check "... and no temporary file is left" \
	test -z "$(find "$T/etc/systemd" -name '*.tmp')"
# A rename that fails half way says what is installed, and leaves no
# temporary file.
rm -rf "$T/etc/systemd"
mkdir -p "$S"
"$HIB" --install-systemd >/dev/null 2>"$T/err"
check "--install-systemd, the second rename fails: exit 1" test $? = 1
check "... says the first is installed and what to do" \
	grep -q "the drop-in before it is installed: run --install-systemd again" "$T/err"
check "... and no temporary file is left" \
	test -z "$(find "$T/etc/systemd" -name '*.tmp')"
rm -rf "$T/etc/systemd"
mkdir -p "$Y"
"$HIB" --install-systemd >/dev/null 2>"$T/err"
check "--install-systemd, the third rename fails: exit 1" test $? = 1
check "... says the two before it are installed" \
	grep -q "the drop-ins before it are installed: run --install-systemd again" "$T/err"
rm -rf "$T/etc/systemd"
expect_rc "--install-systemd without options" 0 "$HIB" --install-systemd
check "no options: none added" grep -qx "ExecStart=$REAL -p default" "$D"
# The copies shipped under /usr/share/suspend2/systemd/ are what
# --install-systemd writes for /usr/sbin/hibernate, comments aside.
for u in systemd-hibernate systemd-suspend-then-hibernate systemd-hybrid-sleep; do
	check "shipped $u drop-in: as --install-systemd writes it" \
		diff <(grep -v '^#' "$TOP/etc/systemd/$u.service.d/suspend2.conf") \
		<(grep -v '^#' "$T/etc/systemd/system/$u.service.d/suspend2.conf" |
			sed "s|$REAL|/usr/sbin/hibernate|g")
done

# The hybrid-sleep drop-in adds a --set, and hibernate takes at most 16.
sets=()
for i in $(seq 16); do sets+=(--set "hook_timeout=$i"); done
rm -rf "$T/etc/systemd"
"$HIB" --install-systemd "${sets[@]}" >/dev/null 2>"$T/err"
check "--install-systemd with 16 --set: exit 2" test $? = 2
check "... says at most 15, and why" \
	grep -q "at most 15 --set (the hybrid-sleep drop-in adds powerdown=suspend)" "$T/err"
check "... and installs nothing" test ! -e "$T/etc/systemd/system"
expect_rc "--install-systemd with 15 --set" 0 "$HIB" --install-systemd "${sets[@]:2}"
check "... the hybrid one carries 16, which hibernate takes" \
	test "$(grep '^ExecStart=.' "$Y" | grep -o -- '--set' | wc -l)" = 16

# systemd would read a blank or a % in a value: quoted and escaped.
expect_rc "--install-systemd, a value with blanks and %" 0 \
	"$HIB" --install-systemd -n --set 'target=/a b%"$'
check "quoted for systemd" grep -qF 'ExecStart='"$REAL"' --set "target=/a b%%\"$$" -p default' "$T/out"

# Run through a symbolic link: the file itself is named.
ln -s "$HIB" "$T/hibernate-link"
expect_rc "--install-systemd through a link" 0 "$T/hibernate-link" --install-systemd -n
check "the link is resolved" grep -qx "ExecStart=$REAL -p default" "$T/out"

# A copy in a directory others may write: never what root runs.
mkdir -m 0777 "$T/open"
cp "$HIB" "$T/open/hibernate"
"$T/open/hibernate" --install-systemd -n >"$T/out" 2>"$T/err"
rc=$?
if [[ -x /usr/sbin/hibernate ]]; then
	check "untrusted copy: the install path instead" \
		grep -qx "ExecStart=/usr/sbin/hibernate -p default" "$T/out"
else
	check "untrusted copy: refused (exit 7)" test $rc = 7
	check "untrusted copy: says why and the fix" \
		grep -q "^hibernate: --install-systemd: systemd would run $T/open/hibernate as root at every hibernation, but $T/open is .*chmod go-w $T/open" "$T/err"
fi
chmod 0755 "$T/open"
expect_rc "copy in a directory root alone writes" 0 "$T/open/hibernate" --install-systemd -n
check "that copy is used" grep -qx "ExecStart=$T/open/hibernate -p default" "$T/out"

# The drop-in is one systemd accepts.
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$T/unit"
	printf '[Unit]\nDescription=t\n[Service]\nType=oneshot\nExecStart=/bin/true\n' \
		>"$T/unit/s2test.service"
	mkdir -p "$T/unit/s2test.service.d"
	cp "$D" "$T/unit/s2test.service.d/"
	SYSTEMD_LOG_LEVEL=err systemd-analyze verify --man=no "$T/unit/s2test.service" \
		>"$T/out" 2>&1
	if grep -qi "ExecStart\|ExecStartPre\|ExecStopPost\|bad\|invalid" "$T/out"; then
		fail "systemd-analyze verify finds fault with the drop-in: $(head -3 "$T/out")"
	else
		pass "systemd-analyze verify accepts the drop-in"
	fi
else
	skip "no systemd-analyze here (a system without systemd): the drop-in as systemd reads it"
fi

# --system-sleep: every executable of the directories, /etc hiding a
# name of /usr/lib, a link to /dev/null masking one, with "pre" or "post"
# and "hibernate", SYSTEMD_SLEEP_ACTION=hibernate.
not_in() { ! grep -q "$1" "$2"; }
E=$T/etc/systemd/system-sleep
L=$T/usr/lib/systemd/system-sleep
mkdir -p "$E" "$L"
export SLEEP_LOG=$T/sleep.log
hook() {
	printf '#!/bin/sh\necho "%s $1 $2 $SYSTEMD_SLEEP_ACTION" >>"$SLEEP_LOG"\nexit %s\n' \
		"$2" "${3:-0}" >"$T/$1"
	chmod 0755 "$T/$1"
}
hook usr/lib/systemd/system-sleep/10nvidia nvidia
hook usr/lib/systemd/system-sleep/20tlp tlp-lib
hook etc/systemd/system-sleep/20tlp tlp-etc
hook usr/lib/systemd/system-sleep/30masked masked
ln -s /dev/null "$E/30masked"
printf 'echo not executable >>"$SLEEP_LOG"\n' >"$L/40plain"
expect_rc "--system-sleep pre" 0 "$HIB" --system-sleep pre
check "pre: the hooks, with pre hibernate" \
	test "$(sort "$SLEEP_LOG" | tr '\n' '|')" = "nvidia pre hibernate hibernate|tlp-etc pre hibernate hibernate|"
: >"$SLEEP_LOG"
expect_rc "--system-sleep post" 0 "$HIB" --system-sleep post
check "post: the same hooks, with post hibernate" \
	test "$(sort "$SLEEP_LOG" | tr '\n' '|')" = "nvidia post hibernate hibernate|tlp-etc post hibernate hibernate|"
# A failing hook is reported; the others still run.
hook usr/lib/systemd/system-sleep/50fails fails 3
: >"$SLEEP_LOG"
expect_rc "--system-sleep, a hook fails: exit 1" 1 "$HIB" --system-sleep post
check "the failure is named" grep -q "system-sleep hook $L/50fails post hibernate failed (status 3)" "$T/err"
check "the others ran" grep -q "^nvidia post" "$SLEEP_LOG"
rm "$L/50fails"
# Root runs them: one that others may write is not run.
hook usr/lib/systemd/system-sleep/60open open
chmod 0777 "$L/60open"
: >"$SLEEP_LOG"
expect_rc "--system-sleep, a hook others may write: exit 7" 7 "$HIB" --system-sleep pre
check "that hook did not run" not_in "^open" "$SLEEP_LOG"
check "the fix is named" grep -q "chmod go-w $L/60open" "$T/err"
chmod 0755 "$L/60open"
rm "$L/60open"
# As systemd-sleep: a hook the kernel cannot exec (no "#!") fails; /bin/sh
# never reads it as a script.
printf 'echo noshebang >>"$SLEEP_LOG"\n' >"$L/70noshebang"
chmod 0755 "$L/70noshebang"
: >"$SLEEP_LOG"
expect_rc "--system-sleep, a hook without #!: exit 1" 1 "$HIB" --system-sleep pre
check "that hook failed as exec does (127)" \
	grep -q "system-sleep hook $L/70noshebang pre hibernate failed (status 127)" "$T/err"
check "/bin/sh did not run it" not_in "^noshebang" "$SLEEP_LOG"
rm "$L/70noshebang"
# The verb, as systemd-sleep passes it; SYSTEMD_SLEEP_ACTION as systemd
# sets it, hibernate for the two halves of suspend-then-hibernate run once.
: >"$SLEEP_LOG"
expect_rc "--system-sleep pre hybrid-sleep" 0 "$HIB" --system-sleep pre hybrid-sleep
check "hybrid-sleep: the verb and the action" \
	test "$(sort "$SLEEP_LOG" | tr '\n' '|')" = "nvidia pre hybrid-sleep hybrid-sleep|tlp-etc pre hybrid-sleep hybrid-sleep|"
: >"$SLEEP_LOG"
expect_rc "--system-sleep post suspend-then-hibernate" 0 "$HIB" --system-sleep post suspend-then-hibernate
check "suspend-then-hibernate: the verb, the action hibernate" \
	test "$(sort "$SLEEP_LOG" | tr '\n' '|')" = "nvidia post suspend-then-hibernate hibernate|tlp-etc post suspend-then-hibernate hibernate|"
: >"$SLEEP_LOG"
expect_rc "--system-sleep pre hibernate" 0 "$HIB" --system-sleep pre hibernate
check "hibernate given: as without it" \
	test "$(sort "$SLEEP_LOG" | tr '\n' '|')" = "nvidia pre hibernate hibernate|tlp-etc pre hibernate hibernate|"
: >"$SLEEP_LOG"
expect_rc "--system-sleep pre suspend: exit 2" 2 "$HIB" --system-sleep pre suspend
check "... names the verbs it takes, runs nothing" \
	sh -c "grep -q \"expected hibernate, hybrid-sleep or suspend-then-hibernate after the phase, got 'suspend'\" '$T/err' && ! test -s '$SLEEP_LOG'"
expect_rc "--system-sleep pre hibernate extra: exit 2" 2 "$HIB" --system-sleep pre hibernate extra
: >"$SLEEP_LOG"
expect_rc "--system-sleep pre -v: an option, not the verb" 0 "$HIB" --system-sleep pre -v
check "... the hooks ran for hibernate, verbosely" \
	sh -c "test \"\$(sort '$SLEEP_LOG' | tr '\n' '|')\" = 'nvidia pre hibernate hibernate|tlp-etc pre hibernate hibernate|' && grep -q 'system-sleep hook: .*10nvidia pre hibernate' '$T/err'"
expect_rc "--system-sleep with another phase: exit 2" 2 "$HIB" --system-sleep suspend
expect_rc "--system-sleep with --test: exit 2" 2 "$HIB" --system-sleep pre --test

# A profile that cannot work yet: the drop-in is written, with a warning.
expect_rc "--install-systemd, profile without a target" 0 \
	"$HIB" --install-systemd -c "$TOP/etc/hibernate.conf" -p battery
check "warns: no target" grep -q "^hibernate: warning: profile 'battery' of $TOP/etc/hibernate.conf has no target: systemctl hibernate will fail" "$T/err"
expect_rc "--install-systemd, no such profile" 0 \
	"$HIB" --install-systemd -c "$TOP/etc/hibernate.conf" -p nosuch
check "warns: no such profile" grep -q "^hibernate: warning: .*no profile 'nosuch'.*systemctl hibernate will fail until it exists" "$T/err"
expect_rc "--install-systemd, --set target" 0 \
	"$HIB" --install-systemd -c "$TOP/etc/hibernate.conf" --set target=/dev/vdb
check "no warning with --set target" not_in warning "$T/err"
