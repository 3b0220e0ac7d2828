#!/bin/bash
# Permissions, with the real binary: who may run it (as nobody, through
# setpriv), which configuration files may give it hooks, and a lock file
# that is a symbolic link.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
mkdir -p "$T/run"
CFS=$T/cfs
mkdir -p "$CFS/profiles/default" "$CFS/results"
echo idle >"$CFS/state"
: >"$CFS/action"
: >"$CFS/profile"
fake_profile "$CFS" default
echo tested >"$CFS/results/status"
echo yes >"$CFS/results/verified"
touch "$T/target"

# conf FILE MODE [HOOK]: a profile whose pre_hibernate hook touches a
# marker, with FILE's mode set to MODE.
conf() {
	printf '[default]\ntarget = %s\npre_hibernate = %s\n' "$T/target" \
		"${3:-touch $T/marker}" >"$1"
	chmod "$2" "$1"
}

# cycle NAME RC CONF: a --test against the fake tree exits RC.
cycle() {
	rm -f "$T/marker"
	: >"$CFS/action"
	expect_rc "$1" "$2" "$HIB" -c "$3" --configfs "$CFS" --test -f -q
}

conf "$T/world.conf" 0666
cycle "world-writable config with hooks exits 7" 7 "$T/world.conf"
check "world-writable: message names file, mode and fix" \
	grep -q "$T/world.conf: refused: $T/world.conf is owned by .*mode 0666 (writable by group and others).*chmod go-w $T/world.conf; nothing was read from it" "$T/err"
check "world-writable: the hook did not run" test ! -e "$T/marker"
check "world-writable: no action written" test ! -s "$CFS/action"

conf "$T/group.conf" 0664
cycle "group-writable config with hooks exits 7" 7 "$T/group.conf"
check "group-writable: message says so" \
	grep -q "mode 0664 (writable by its group)" "$T/err"
check "group-writable: the hook did not run" test ! -e "$T/marker"

conf "$T/ok.conf" 0644
cycle "0644 config with hooks runs" 0 "$T/ok.conf"
check "0644: the hook ran" test -e "$T/marker"
check "0644: action written" grep -qx test "$CFS/action"

# Without hooks too: what it says (a target) is root's to overwrite.
printf '[default]\ntarget = %s\n' "$T/target" >"$T/nohooks.conf"
chmod 0666 "$T/nohooks.conf"
cycle "world-writable config without hooks exits 7" 7 "$T/nohooks.conf"

# A module given by path is loaded by root: the config naming it and the
# .ko must be root's alone too.
: >"$T/s2.ko"
chmod 0644 "$T/s2.ko"
printf '[default]\ntarget = %s\nmodule = %s\n' "$T/target" "$T/s2.ko" >"$T/modw.conf"
chmod 0666 "$T/modw.conf"
cycle "world-writable config naming a module path exits 7" 7 "$T/modw.conf"
check "module path: message names the config and the fix" \
	grep -q "$T/modw.conf: refused: $T/modw.conf is owned by .*mode 0666.*chmod go-w $T/modw.conf; nothing was read from it" "$T/err"
check "module path: no action written" test ! -s "$CFS/action"
chmod 0644 "$T/modw.conf"
chmod 0646 "$T/s2.ko"
cycle "world-writable .ko exits 7" 7 "$T/modw.conf"
check "world-writable .ko: message names the .ko" \
	grep -q "refusing to load $T/s2.ko: $T/s2.ko is owned by .*mode 0646" "$T/err"
chmod 0644 "$T/s2.ko"
cycle "0644 config and 0644 .ko run" 0 "$T/modw.conf"

rm -f "$T/marker"
expect_rc "dry run of a world-writable config exits 7, as the real run" 7 \
	"$HIB" -c "$T/world.conf" --configfs "$CFS" --test -f -n
check "dry run says the configuration is refused" \
	grep -q "^# check: configuration $T/world.conf: refused: " "$T/out"
check "dry run ran no hook" test ! -e "$T/marker"

# The program of a hook, named by absolute path.
printf '#!/bin/sh\ntouch %s\n' "$T/marker" >"$T/hook"
chmod 0757 "$T/hook"
conf "$T/prog.conf" 0644 "$T/hook --now"
cycle "world-writable hook program exits 7" 7 "$T/prog.conf"
check "hook program: message names it" \
	grep -q "$T/hook is owned by .*mode 0757 (writable by others).*chmod go-w $T/hook" "$T/err"
check "hook program: it did not run" test ! -e "$T/marker"
chmod 0755 "$T/hook"
cycle "0755 hook program runs" 0 "$T/prog.conf"
check "0755 hook program ran" test -e "$T/marker"

# Another user's program, reached through shell quoting or a word that
# runs another program: the check must not be dodged (exit 7, file:line).
chown 65534 "$T/hook"
for h in "$T/hook'' x" "\"$T/hook\"" "\\$T/hook" "exec $T/hook" \
	"$T/hook\$IFS" "env $T/hook" "X=1 $T/hook"; do
	conf "$T/q.conf" 0644 "$h"
	cycle "hook program \"$h\" exits 7" 7 "$T/q.conf"
	check "hook \"$h\": did not run" test ! -e "$T/marker"
	check "hook \"$h\": message names file:line" \
		grep -q "refusing to run the hooks of $T/q.conf: $T/q.conf:3: pre_hibernate: " "$T/err"
done
conf "$T/q.conf" 0644 "$T/nosuch --now"
cycle "missing hook program exits 7" 7 "$T/q.conf"
check "missing hook program: message" \
	grep -q "$T/q.conf:3: pre_hibernate: the program $T/nosuch: No such file" "$T/err"
chown 0 "$T/hook"

# Whoever may change a directory above the program, or a symbolic link on
# the way to it, may swap the program: each must be root's alone too.
mkdir -p "$T/hd/sub"
cp "$T/hook" "$T/hd/sub/prog"
chmod 0755 "$T/hd/sub/prog"
conf "$T/hd.conf" 0644 "$T/hd/sub/prog --now"
chmod 0777 "$T/hd"
cycle "hook program under a world-writable directory exits 7" 7 "$T/hd.conf"
check "... naming the directory" grep -q "$T/hd.conf:3: pre_hibernate: $T/hd is owned by .*mode 0777" "$T/err"
check "... the hook did not run" test ! -e "$T/marker"
chmod 0755 "$T/hd"
cycle "hook program under root's directories runs" 0 "$T/hd.conf"
ln -s "$T/hd/sub/prog" "$T/hd/link"
chown -h 65534 "$T/hd/link"
conf "$T/hl.conf" 0644 "$T/hd/link"
cycle "hook program through another user's symbolic link exits 7" 7 "$T/hl.conf"
check "... naming the link" grep -q "$T/hd/link is a symbolic link owned by uid 65534" "$T/err"
chown -h 0 "$T/hd/link"
cycle "hook program through root's symbolic link runs" 0 "$T/hl.conf"
chmod 0775 "$T/hd/sub"
cycle "hook program through a link into a group-writable directory exits 7" 7 "$T/hl.conf"
check "... naming the directory the link leads to" grep -q "$T/hd/sub is owned by .*mode 0775" "$T/err"
chmod 0755 "$T/hd/sub"
# The same for a module given by path.
cp "$T/s2.ko" "$T/hd/sub/s2.ko"
chmod 0644 "$T/hd/sub/s2.ko"
printf '[default]\ntarget = %s\nmodule = %s\n' "$T/target" "$T/hd/sub/s2.ko" >"$T/hm.conf"
chmod 0757 "$T/hd/sub"
cycle "module under a world-writable directory exits 7" 7 "$T/hm.conf"
check "... naming the directory" grep -q "refusing to load $T/hd/sub/s2.ko: $T/hd/sub is owned by .*mode 0757" "$T/err"
chmod 0755 "$T/hd/sub"
cycle "module under root's directories loads" 0 "$T/hm.conf"

# A symbolic link where the lock file goes: refused, its target untouched.
rm -f "$T/run/hibernate.lock"
ln -s "$T/victim" "$T/run/hibernate.lock"
cycle "symlink lock file exits 7" 7 "$T/ok.conf"
check "symlink lock: message" \
	grep -q "refusing the lock file $T/run/hibernate.lock: it is a symbolic link" "$T/err"
check "symlink lock: target not created" test ! -e "$T/victim"
check "symlink lock: no hook ran" test ! -e "$T/marker"
echo precious >"$T/victim"
cycle "symlink lock file to an existing file exits 7" 7 "$T/ok.conf"
check "symlink lock: target unchanged" test "$(cat "$T/victim")" = precious
expect_rc "symlink lock file, dry run exits 7" 7 \
	"$HIB" -c "$T/ok.conf" --configfs "$CFS" --test -f -n
rm -f "$T/run/hibernate.lock"

# Not root, for real: the owner of the process is nobody.
if [[ $(id -u) != 0 ]]; then
	skip "not root: the checks as a plain user (setpriv needs root)"
	exit 0
fi
have setpriv "the checks as a plain user" || exit 0
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}
chmod 0755 "$T"
for a in "" --test --resume --invalidate; do
	# shellcheck disable=SC2086
	expect_rc "not root: hibernate ${a:-(hibernate)} exits 7" 7 \
		env -u HIBERNATE_SYSROOT setpriv --reuid=65534 \
		--regid=65534 --clear-groups -- "$HIB" $a -c /nonexistent
	check "not root: hibernate ${a:-(hibernate)} says why" grep -qx \
		"hibernate: must be run as root (it freezes every process and writes the memory image)" "$T/err"
done
# --install-systemd freezes nothing: its message says what it does need root for.
expect_rc "not root: hibernate --install-systemd exits 7" 7 \
	env -u HIBERNATE_SYSROOT setpriv --reuid=65534 --regid=65534 \
	--clear-groups -- "$HIB" --install-systemd
check "not root: hibernate --install-systemd says why" grep -qx \
	"hibernate: --install-systemd must be run as root: it writes /etc/systemd/system/systemd-hibernate.service.d/suspend2.conf (and the same for systemd-suspend-then-hibernate.service and systemd-hybrid-sleep.service) and runs systemctl daemon-reload (--dry-run prints the drop-ins)" "$T/err"
expect_rc "not root: --help" 0 nobody "$HIB" --help
expect_rc "not root: --version" 0 nobody "$HIB" --version
expect_rc "not root: --list-profiles" 0 nobody "$HIB" \
	-c "$TOP/etc/hibernate.conf" --list-profiles
expect_rc "not root: --install-systemd --dry-run" 0 nobody "$HIB" \
	--install-systemd -n
nobody env -u HIBERNATE_SYSROOT "$HIB" -c "$T/ok.conf" --test -n -f \
	>"$T/out" 2>"$T/err"
rc=$?
if [[ $rc != 7 ]] && grep -q "^# check: running as root: no" "$T/out"; then
	pass "not root: --dry-run is not refused, says root is needed"
else
	fail "not root: --dry-run (exit $rc)"
	sed 's/^/    /' "$T/out" "$T/err" | head -20
fi

# A user's own files, with their own --configfs tree: their hooks run.
U=$T/user
mkdir -p "$U/run"
cp -r "$CFS" "$U/cfs"
conf "$U/h.conf" 0644 "touch $U/marker"
chown -R 65534:65534 "$U"
expect_rc "not root: own config and tree, hooks run" 0 nobody env \
	HIBERNATE_SYSROOT="$U" "$HIB" -c "$U/h.conf" \
	--configfs "$U/cfs" --test -f -q
check "not root: own hook ran" test -e "$U/marker"
# Root refuses a config someone else owns.
rm -f "$T/marker"
conf "$T/theirs.conf" 0644
chown 65534 "$T/theirs.conf"
cycle "root: config owned by another user exits 7" 7 "$T/theirs.conf"
check "root: other owner: chown root in the message" \
	grep -q "owned by uid 65534, mode 0644 (not root).*chown root $T/theirs.conf" "$T/err"
