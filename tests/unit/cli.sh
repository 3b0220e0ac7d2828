#!/bin/bash
# The real binary against a fake configfs tree (attributes as plain files).
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
mkdir -p "$T/run"

fake_tree() {
	local d=$1 a
	rm -rf "$d"
	mkdir -p "$d/profiles/p" "$d/results"
	echo idle >"$d/state"
	echo "suspend2 0.1 image-format 1" >"$d/version"
	printf 'compressors: none lzo lz4\nwriters: swap\nchecksums: none crc32c\npowerdown: shutdown platform reboot\nactions: hibernate test resume invalidate\n' >"$d/capabilities"
	: >"$d/profile"
	: >"$d/action"
	fake_profile "$d" p
	echo tested >"$d/results/status"
	echo yes >"$d/results/verified"
	echo p >"$d/results/profile"
	echo 7250 >"$d/results/offline_ms"
	echo 120000 >"$d/results/time_write_us"
	echo "0.52 0.31 0.12" >"$d/results/avenrun_saved"
	echo "1.52 0.41 0.15" >"$d/results/avenrun_thaw"
	echo "0.52 0.31 0.12" >"$d/results/avenrun_restored"
}

snapshot() {
	(cd "$1" && find . -printf '%p %y %s %m\n' | sort &&
		find . -type f -exec md5sum {} + | sort)
}

touch "$T/target"
cat >"$T/h.conf" <<CONF
[default]
target = $T/target
compressor = lz4
image_size_limit = 1M
pre_hibernate = echo pre >>$T/hooks
post_resume = echo post >>$T/hooks

[p]
io_depth = 99
CONF

CFS=$T/cfs
fake_tree "$CFS"
snapshot "$CFS" >"$T/before"

# --dry-run leaves the tree exactly as it was.
expect_rc "dry run without --force fails the target check" 1 \
	"$HIB" -c "$T/h.conf" --configfs "$CFS" -p p -n
expect_rc "dry run with --force exits 0" 0 \
	"$HIB" -c "$T/h.conf" --configfs "$CFS" -p p -n -f
snapshot "$CFS" >"$T/after"
check "dry run leaves the configfs tree untouched" cmp -s "$T/before" "$T/after"
check "dry run prints the writes" grep -qx "$CFS/profiles/p/image_size_limit = 1048576" "$T/out"
check "dry run prints the action" grep -qx "$CFS/action = hibernate" "$T/out"
check "dry run lists the hooks" grep -q "would run pre_hibernate hook" "$T/out"
check "dry run ran no hook" test ! -e "$T/hooks"

# A full --test cycle against the fake tree.
expect_rc "--test against the fake tree" 0 \
	"$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --test -f
check "profile key written" grep -qx 99 "$CFS/profiles/p/io_depth"
check "size written in bytes" grep -qx 1048576 "$CFS/profiles/p/image_size_limit"
check "profile selected" grep -qx p "$CFS/profile"
check "action written" grep -qx test "$CFS/action"
check "report has load averages" grep -q "load average at thaw *1.52 0.41 0.15" "$T/out"
check "hooks ran in order" test "$(tr '\n' ' ' <"$T/hooks")" = "pre post "

expect_rc "--test --json" 0 \
	"$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --test -f --json
check "--json output parses" python3 -m json.tool "$T/out" /dev/null
check "--json avenrun" test "$(jq -c .avenrun.thaw "$T/out")" = "[1.52,0.41,0.15]"

echo no >"$CFS/results/verified"
expect_rc "--test not verified exits 5" 5 \
	"$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --test -f -q
echo yes >"$CFS/results/verified"

# Exit codes.
expect_rc "usage error exits 2" 2 "$HIB" --bogus
check "usage error hints at --help" grep -q "Try 'hibernate --help'" "$T/err"
printf '[default]\ncompresor = lz4\n' >"$T/bad.conf"
expect_rc "config error exits 3" 3 "$HIB" -c "$T/bad.conf" --configfs "$CFS" -n
check "config error names file:line and suggests" \
	grep -q "bad.conf:2: unknown key 'compresor' (did you mean 'compressor'?)" "$T/err"
expect_rc "missing -c file exits 3" 3 "$HIB" -c "$T/nosuch.conf" --configfs "$CFS" -n
expect_rc "unknown profile exits 3" 3 "$HIB" -c "$T/h.conf" --configfs "$CFS" -p nosuch -n
expect_rc "--set error exits 2" 2 "$HIB" -c "$T/h.conf" --configfs "$CFS" -n --set io_depth=0
expect_rc "compressor not offered exits 3" 3 \
	"$HIB" -c "$T/h.conf" --configfs "$CFS" -p p -n -f --set compressor=zstd

# The kernel refuses a key: a directory where the attribute should be.
rm "$CFS/profiles/p/io_depth" && mkdir "$CFS/profiles/p/io_depth"
hooks_before=$(wc -l <"$T/hooks")
expect_rc "kernel refusal exits 4" 4 \
	"$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --test -f
check "refusal names key, line and errno" \
	grep -q "h.conf:9: key 'io_depth' = '99': the kernel refused it: Is a directory" "$T/err"
check "refusal runs no hook (the profile is written before the hooks)" \
	test "$(wc -l <"$T/hooks")" = "$hooks_before"
fake_tree "$CFS"

# A failing pre hook aborts before anything is written.
printf '[default]\ntarget = %s\npre_hibernate = exit 1\n[p]\n' "$T/target" >"$T/fail.conf"
: >"$CFS/action"
expect_rc "failing pre hook exits 5" 5 \
	"$HIB" -c "$T/fail.conf" --configfs "$CFS" -p p --test -f
check "failing pre hook wrote no action" test ! -s "$CFS/action"

# Busy: the lock is held, or a cycle runs.
# One process holds the lock so that killing it by its pid frees it.
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w")
fcntl.flock(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(30)' "$T/run/hibernate.lock" >"$T/locked" &
holder=$!
# Wait (up to 60 s on a loaded machine) until the holder has the lock.
for _ in $(seq 300); do [[ -s $T/locked ]] && break; sleep 0.2; done
expect_rc "held lock exits 6" 6 "$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --test -f
check "busy message" grep -q "busy: another hibernate is running" "$T/err"
expect_rc "held lock, dry run exits 6" 6 "$HIB" -c "$T/h.conf" --configfs "$CFS" -p p -n -f
kill "$holder"
wait "$holder" 2>/dev/null
echo writing >"$CFS/state"
expect_rc "running cycle exits 6" 6 "$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --test -f
echo idle >"$CFS/state"

# Status and profile list.
expect_rc "--status" 0 "$HIB" --configfs "$CFS" --status
check "--status shows state" grep -q "^state: *idle" "$T/out"
expect_rc "--status --json" 0 "$HIB" --configfs "$CFS" --status --json
check "--status --json parses" python3 -m json.tool "$T/out" /dev/null
expect_rc "--status without module exits 1" 1 "$HIB" --configfs "$T/nosuch" --status
expect_rc "--list-profiles" 0 "$HIB" -c "$TOP/etc/hibernate.conf" --list-profiles
check "--list-profiles names" test "$(tr '\n' ' ' <"$T/out")" = "default battery ac "
expect_rc "shipped hibernate.conf parses" 0 \
	"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" -p battery -n -f --set target="$T/target"

# --resume and --invalidate against the fake tree.
expect_rc "--invalidate" 0 "$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --invalidate -f
check "--invalidate writes the action" grep -qx invalidate "$CFS/action"
expect_rc "--resume dry run" 0 "$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --resume -n -f
check "--resume dry run prints resume" grep -qx "$CFS/action = resume" "$T/out"

# --install-systemd writes the systemd-hibernate.service drop-in.
D=$T/etc/systemd/system/systemd-hibernate.service.d
expect_rc "--install-systemd" 0 "$HIB" --install-systemd -p battery
check "--install-systemd writes ExecStart with the profile" \
	grep -qx "ExecStart=$HIB -p battery" "$D/suspend2.conf"
check "--install-systemd clears the old ExecStart" \
	grep -qx "ExecStart=" "$D/suspend2.conf"
S=$T/etc/systemd/system/systemd-suspend-then-hibernate.service.d
check "--install-systemd: suspend-then-hibernate too, sleeping first" \
	grep -qx "ExecStart=$HIB --suspend-then-hibernate -p battery" "$S/suspend2.conf"
check "--install-systemd: its hooks too" \
	grep -qx "ExecStartPre=-$HIB --system-sleep pre suspend-then-hibernate" "$S/suspend2.conf"
check "--install-systemd: hybrid-sleep too, with powerdown = suspend" \
	grep -qx "ExecStart=$HIB --set powerdown=suspend -p battery" \
	"$T/etc/systemd/system/systemd-hybrid-sleep.service.d/suspend2.conf"
rm -rf "$T/etc/systemd"
expect_rc "--install-systemd --dry-run" 0 "$HIB" --install-systemd -n
check "--install-systemd --dry-run writes nothing" test ! -e "$T/etc/systemd"
expect_rc "--install-systemd bad profile" 2 "$HIB" --install-systemd -p 'a;b'
expect_rc "--install-systemd with --test" 2 "$HIB" --install-systemd --test

# HIBERNATE_SYSROOT moves the lock: never for a run on the live configfs,
# where the moved lock would not keep out another hibernate.
expect_rc "HIBERNATE_SYSROOT refused against the live configfs" 2 \
	"$HIB" -c "$T/h.conf" -p p -n -f
check "... and says why" grep -q "HIBERNATE_SYSROOT is set" "$T/err"
expect_rc "a relative HIBERNATE_SYSROOT is refused" 2 \
	env HIBERNATE_SYSROOT=rel "$HIB" --install-systemd -n
expect_rc "an over-long HIBERNATE_SYSROOT is refused" 2 \
	env HIBERNATE_SYSROOT="/$(printf 'a%.0s' {1..1100})" "$HIB" --install-systemd -n
