#!/bin/bash
# The dry run predicts the real run: for each case, hibernate --test
# --dry-run and hibernate --test (or --resume) against a fake configfs
# tree (plain files: a real run writes only those, so an accepted case
# harms nothing) must exit with the same status, the one wanted.  Then the
# JSON outputs, parsed by a strict parser (UTF-8 decoding errors fail).
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
mkdir -p "$T/run"
CFS=$T/cfs

fake_tree() {
	local a
	rm -rf "$CFS"
	mkdir -p "$CFS/profiles/p" "$CFS/results"
	echo idle >"$CFS/state"
	echo "suspend2 0.1 image-format 1" >"$CFS/version"
	printf 'compressors: none lzo lz4 zstd\n%swriters: swap swapfile file bdev\nchecksums: none crc32c\npowerdown: shutdown platform reboot%s\nactions: hibernate test resume invalidate\n' "${FAKE_LEVELS-levels: zstd
}" "${FAKE_POWERDOWN:+ $FAKE_POWERDOWN}" >"$CFS/capabilities"
	: >"$CFS/profile"
	: >"$CFS/action"
	fake_profile "$CFS" p
	echo tested >"$CFS/results/status"
	echo yes >"$CFS/results/verified"
}

# strict_json FILE: one JSON document, strictly UTF-8.
strict_json() {
	python3 -c 'import json, sys
json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))' "$1"
}

# same NAME WANT [ARGS...]: --test dry run and real run of profile p with
# configuration $T/c.conf exit with WANT, and the real run ran no hook.
same() {
	local name=$1 want=$2 drc rrc
	shift 2
	fake_tree
	rm -f "$T/hooks"
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p -n "$@" \
		>"$T/dry.out" 2>"$T/dry.err"
	drc=$?
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p "$@" \
		>"$T/real.out" 2>"$T/real.err"
	rrc=$?
	if [[ $drc == "$want" && $rrc == "$want" ]]; then
		pass "$name: dry run and real run exit $want ($(head -c 150 "$T/real.err" | head -n 1))"
	else
		fail "$name: dry run exit $drc, real run exit $rrc, wanted $want"
		sed 's/^/    /' "$T/dry.err" "$T/real.err" | head -10
	fi
	if [[ $want != 0 && -e $T/hooks ]]; then
		fail "$name: a refused run ran a hook"
	fi
}

# conf WRITER TARGET [MORE LINES]: $T/c.conf with profile p.
conf() {
	local w=$1 t=$2
	shift 2
	{
		printf '[default]\nwriter = %s\ntarget = %s\n' "$w" "$t"
		printf 'pre_hibernate = echo pre >>%s\n' "$T/hooks"
		printf '[p]\n'
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$T/c.conf"
	chmod 0644 "$T/c.conf"
}

dd if=/dev/zero of="$T/full" bs=64k count=4 status=none
truncate -s 256K "$T/sparse"
printf 'ab' >"$T/two"
fallocate -l 256K "$T/falloc" 2>/dev/null || cp "$T/sparse" "$T/falloc"
dd if=/dev/zero of="$T/noswap" bs=64k count=4 status=none
# Image files are root's alone (else refused with exit 7, trust.sh).
chmod 0600 "$T/full" "$T/sparse" "$T/two" "$T/falloc" "$T/noswap"

conf file "$T/full"
same "file target written in full, too small for the image" 1 --test
check "too small: the message says not enough room" grep -q "not enough room on $T/full" "$T/real.err"
same "file target written in full, --force" 0 --test -f
conf file "$T/sparse"
same "sparse file target" 1 --test
check "sparse file: the message says hole" grep -q "has a hole at byte 0" "$T/real.err"
conf file "$T/falloc"
same "fallocated file target" 1 --test
check "fallocated file: the message says unwritten" grep -q "unwritten" "$T/real.err"
conf file "$T/two"
same "two-byte file target" 1 --test
if [[ -d /dev/shm && -w /dev/shm ]]; then
	dd if=/dev/zero of=/dev/shm/hib-dryrun-$$ bs=64k count=4 status=none
	chmod 0600 /dev/shm/hib-dryrun-$$
	conf file /dev/shm/hib-dryrun-$$
	same "file target on tmpfs" 1 --test
	check "tmpfs: the message says tmpfs" grep -q "is on tmpfs" "$T/real.err"
	rm -f /dev/shm/hib-dryrun-$$
fi

# The root filesystem's device (or the disk holding it), with force = 1:
# a real run against a fake tree writes plain files only.
rootdev=$(awk '$5 == "/" { print $3; exit }' /proc/self/mountinfo)
rootnode=
if [[ -n $rootdev && -e /sys/dev/block/$rootdev ]]; then
	rootnode=/dev/$(basename "$(readlink -f "/sys/dev/block/$rootdev")")
fi
if [[ -b $rootnode ]]; then
	conf bdev "$rootnode" "force = 1"
	same "bdev target: the mounted root device, force = 1" 1 --test
	check "mounted root: the message says mounted on /" \
		grep -q "is mounted on /[;)]\|is mounted on /$" "$T/real.err"
	conf bdev "$rootnode" "force = 1" "overwrite_in_use = $rootnode"
	same "bdev target: the mounted root device, overwrite_in_use cannot confirm it" 1 --test
	check "mounted root, overwrite_in_use: the message says why" \
		grep -q "it holds a mounted filesystem, which the image would destroy: no overwrite_in_use" "$T/real.err"
	conf bdev "$rootnode" "overwrite_in_use = $rootnode"
	same "bdev target: confirmed but force = 0" 1 --test
	conf bdev "$rootnode" "force = 1" "overwrite_in_use = /dev/null"
	same "bdev target: overwrite_in_use names another device" 1 --test
else
	skip "root is not on a block device here: the bdev cases on a mounted device"
fi

# --suspend-then-hibernate: HIBERNATE_SYSROOT moves /sys/power/state to
# a plain file, so that no case here can suspend this machine.
mkdir -p "$T/sys/power"
printf 'freeze disk\n' >"$T/sys/power/state"
conf file "$T/full"
same "suspend-then-hibernate, no 'mem' in /sys/power/state" 1 --suspend-then-hibernate -f
check "no mem: the message says so, and that plain hibernate works" \
	grep -q "does not offer 'mem': this kernel or machine cannot suspend to RAM; nothing was changed (plain hibernate still works)" "$T/real.err"
check "no mem: nothing written there" grep -qx 'freeze disk' "$T/sys/power/state"
printf 'freeze mem disk\n' >"$T/sys/power/state"
"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p -n --suspend-then-hibernate -f \
	>"$T/probe.out" 2>"$T/probe.err"
if grep -q "no RTC here can wake the machine\|needs CAP_WAKE_ALARM" "$T/probe.err"; then
	same "suspend-then-hibernate, no wake alarm possible here" 1 --suspend-then-hibernate -f
	check "no alarm: the message says why" grep -q "no RTC here\|CAP_WAKE_ALARM" "$T/real.err"
else
	same "suspend-then-hibernate, woken before the alarm" 0 \
		--suspend-then-hibernate -f --set hibernate_delay=3600
	check "the dry run says what it would do" \
		grep -q "would suspend to RAM with a wake alarm 3600 s ahead (hibernate_delay)" "$T/dry.out"
	check "the real run wrote mem to /sys/power/state" \
		test "$(head -c 3 "$T/sys/power/state")" = mem
	check "back before the alarm: says so, no hibernation" \
		grep -q "before the wake alarm (3600 s): not hibernating" "$T/real.err"
	check "back before the alarm: no action written, no hook run" \
		test ! -s "$CFS/action" -a ! -e "$T/hooks"
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --suspend-then-hibernate -f \
		--json --set hibernate_delay=3600 >"$T/j.out" 2>/dev/null
	check "--json: the wake before the alarm, as one object" python3 -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
assert d["hibernated"] is False and d["hibernate_delay_s"] == 3600' "$T/j.out"
fi
# powerdown = suspend (suspend to both): the kernel powers off when it
# cannot suspend to RAM, so hibernate refuses first, in a dry run too.
printf 'freeze disk\n' >"$T/sys/power/state"
conf file "$T/full" "powerdown = suspend"
same "powerdown = suspend, no 'mem' in /sys/power/state" 1 -f
check "powerdown = suspend, no mem: the message says so" \
	grep -q "profile 'p': powerdown = suspend: .*does not offer 'mem': this kernel or machine cannot suspend to RAM; nothing was changed" "$T/real.err"
check "powerdown = suspend, no mem: no action written" test ! -s "$CFS/action"
printf 'freeze mem disk\n' >"$T/sys/power/state"
same "powerdown = suspend, a module without it" 3 -f
check "a module without suspend: the message names the choices" \
	grep -q "key 'powerdown': 'suspend' is not offered by the module" "$T/real.err"
FAKE_POWERDOWN=suspend same "powerdown = suspend, mem offered" 0 -f
check "the dry run checked the suspend to RAM" \
	grep -q "check: suspend to RAM after writing the image: possible" "$T/dry.out"
check "the real run wrote powerdown = suspend" \
	grep -qx suspend "$CFS/profiles/p/powerdown"
FAKE_POWERDOWN=suspend same "powerdown = suspend with --suspend-then-hibernate" 2 \
	--suspend-then-hibernate -f
check "suspend-then-hibernate and powerdown = suspend: the message says why" \
	grep -q "powerdown = suspend, which would go back to RAM with no alarm after the image; nothing was changed" "$T/real.err"
check "... and nothing was suspended" grep -qx 'freeze mem disk' "$T/sys/power/state"
for d in 0 9 -1 18446744073709551626; do
	conf file "$T/full" "hibernate_delay = $d"
	same "hibernate_delay = $d" 3 --suspend-then-hibernate -f
done
conf file "$T/full" "hibernate_delay = 86401"
same "hibernate_delay beyond a day" 3 --suspend-then-hibernate -f
check "hibernate_delay: file:line and the range" \
	grep -q "c.conf:6: key 'hibernate_delay': expected a value from 10 to 86400" "$T/real.err"

# A swap file on ext4 with 1 KiB blocks whose first page starts between
# two pages of the device: the module cannot write its signature there as
# one page.  Needs root and a loop device; 1 KiB files go first until the
# swap file starts on an odd block.
e1k=no
if [[ $(id -u) != 0 ]]; then
	skip "not root: the swap file on 1 KiB blocks (a loop mount)"
elif have mkfs.ext4 "the swap file on 1 KiB blocks" &&
	have filefrag "the swap file on 1 KiB blocks"; then
	if truncate -s 16M "$T/e1k.img" && mkfs.ext4 -q -F -b 1024 "$T/e1k.img" &&
		mkdir -p "$T/e1k" && mount -o loop "$T/e1k.img" "$T/e1k" 2>/dev/null; then
		e1k=yes
	else
		skip "no loop device here: the swap file on 1 KiB blocks"
	fi
fi
if [[ $e1k == yes ]]; then
	for i in 1 2 3 4; do
		rm -f "$T/e1k/swap"
		dd if=/dev/zero of="$T/e1k/swap" bs=64k count=8 status=none && sync
		chmod 0600 "$T/e1k/swap"
		start=$(filefrag -v -b1024 "$T/e1k/swap" | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4 }')
		[[ $start =~ ^[0-9]+$ ]] && ((start % 4)) && break
		dd if=/dev/zero of="$T/e1k/pad$i" bs=1k count=1 status=none && sync
	done
	if [[ $start =~ ^[0-9]+$ ]] && ((start % 4)); then
		conf swapfile "$T/e1k/swap"
		same "swap file whose first page is not one page of the device" 1 --test -f
		check "1 KiB blocks: the message says 4 KiB blocks" \
			grep -q "has its page at byte 0 on no whole page of the device .*4 KiB blocks" "$T/real.err"
	else
		fail "could not make a swap file starting on an odd 1 KiB block (start '$start')"
	fi
	umount "$T/e1k"
fi

# Targets no boot can read an image back from, refused by the dry run as
# by the real run, --force or not: a loop device (none in the initramfs,
# its backing file on a filesystem not mounted there); zram and brd are
# RAM (test_check's test_dev_volatile).  A bdev target, so that the old
# code's real run got as far as the cycle; the backing file is sparse.
lo=
if [[ $(id -u) != 0 ]]; then
	skip "not root: a loop device target"
elif truncate -s 64G "$T/lo.img" && lo=$(losetup -f --show "$T/lo.img" 2>/dev/null); then
	conf bdev "$lo"
	same "loop device target" 1 --test
	check "loop device: the message names the backing file and what to use" \
		grep -q "target $lo: it is a loop device ([a-z0-9]*) over $T/lo.img, which no boot could read an image back from: the initramfs sets up no loop devices.*use the backing file itself" "$T/real.err"
	check "loop device: the dry run's check says FAILED" \
		grep -q "^# check: target $lo: it is a loop device .*: FAILED" "$T/dry.out"
	# target = DEVICE:PAGE, as hibernate.conf(5) has it: --resume and
	# --invalidate read the anchor there (a loop device harms nothing
	# then), by path or UUID=; only swapfile writes an image to one.
	mkswap -q "$lo" >/dev/null 2>&1
	uuid=$(blkid -s UUID -o value "$lo")
	conf swap "$lo:1"
	same "target = DEVICE:PAGE, --invalidate" 0 --invalidate
	check "target = DEVICE:PAGE: written to configfs as it is" \
		grep -qx "$lo:1" "$CFS/profiles/p/target"
	conf swap "UUID=$uuid:1"
	same "target = UUID=...:PAGE, --invalidate" 0 --invalidate
	check "target = UUID=...:PAGE: the device resolved for configfs" \
		grep -qx "$lo:1" "$CFS/profiles/p/target"
	conf swap "$lo:1"
	same "target = DEVICE:PAGE, --test with the swap writer" 1 --test -f
	check "DEVICE:PAGE with swap: says the writer needs the device" \
		grep -q "key 'target': $lo:1 is a resume location (DEVICE:PAGE): the swap writer needs the device itself to write an image" "$T/real.err"
	losetup -d "$lo"
else
	skip "no loop device here: a loop device target"
fi

# A swap file with a hole past its first page: swapon(2) refuses it, so
# swap_on_demand's dry run must too (the first page alone was checked).
truncate -s 1M "$T/holes"
mkswap -q "$T/holes" >/dev/null 2>&1
chmod 600 "$T/holes"
if [[ $(filefrag "$T/holes" 2>/dev/null) == *"1 extent found"* ]]; then
	conf swapfile "$T/holes" "swap_on_demand = yes"
	same "swap_on_demand, swap file with holes" 1 --test -f
	check "swap file with holes: the message says swapon refuses it and dd" \
		grep -q "has a hole at byte 4096 .*swapon(2) refuses a swap file with holes; make it again written in full: dd if=/dev/zero" "$T/real.err"
else
	skip "mkswap wrote more than the first page here: swap file with holes"
fi

conf swapfile /dev/nosuch-hib:3
same "target = DEVICE:PAGE on a missing device" 1 --invalidate
check "DEVICE:PAGE on a missing device: says which device" \
	grep -q "key 'target': resume location /dev/nosuch-hib:3: device /dev/nosuch-hib: No such file or directory" "$T/real.err"

conf swap "$T/noswap" "swap_on_demand = yes"
same "swap_on_demand, no swap signature" 1 --test -f
check "no signature: the message says mkswap" grep -q "mkswap" "$T/real.err"

conf swap "$T/full" "compressor = brotli"
same "compressor the module does not know" 3 --test -f
# Levels: the module is handed the level as the profile says it, once
# checked against the library's range (names.h); a name it does not offer
# is refused with or without one.
conf swap "$T/full" "compressor = zstd:-3"
same "compressor zstd:-3" 0 --test -f
check "zstd:-3: written to the profile as is" grep -qx 'zstd:-3' "$CFS/profiles/p/compressor"
conf swap "$T/full" "compressor = zstd:23"
same "compressor zstd:23, past the library's levels" 3 --test -f
check "zstd:23: file:line and the range" \
	grep -q "c.conf:6: key 'compressor': expected a zstd level from -131072 to 22, got 'zstd:23'" "$T/real.err"
# A module loaded before levels existed has no levels line: refused, in
# a dry run too, rather than refused by the kernel after the hooks.
FAKE_LEVELS=
conf swap "$T/full" "compressor = zstd:1"
same "compressor zstd:1, the module takes no levels" 3 --test -f
check "no levels: says so and what to do" \
	grep -q "c.conf:6: key 'compressor': 'zstd' takes no level in the loaded module (levels: none); a module loaded before levels existed takes none: unload it, or set the compressor without a level" "$T/real.err"
unset FAKE_LEVELS
conf swap "$T/full" "compressor = lz4:1"
same "compressor lz4:1, a level where none is taken" 3 --test -f
conf swap "$T/full" "compressor = lz4hc:9"
same "compressor lz4hc:9, lz4hc not offered here" 3 --test -f
check "lz4hc:9 not offered: says what is" \
	grep -q "key 'compressor': 'lz4hc' is not offered by the module (it offers: none lzo lz4 zstd)" "$T/real.err"
conf swap "$T/full" "checksum = sha1"
same "checksum the module does not know" 3 --test -f
conf swap "$T/full" "writer = nfs"
same "writer the module does not know" 3 --test -f
conf swap "$T/full" "image_size_limit = 8388608T"
same "image_size_limit = 2^63" 3 --test -f
check "2^63: file:line and the range" \
	grep -q "c.conf:6: key 'image_size_limit': expected a value from 0 to 9223372036854775807" "$T/real.err"
conf swap "$T/full" "image_size_limit = 9223372036854775807"
same "image_size_limit = 2^63 - 1" 0 --test -f
conf swap "$T/full" "resume_location = /dev/vda"
same "resume_location without a page" 3 --resume -f
check "resume_location: says what it expected" \
	grep -q "c.conf:6: key 'resume_location': expected DEVICE:PAGE" "$T/real.err"
conf swap "$T/full" "resume_location = /dev/nosuch-hib:12"
same "resume_location on a missing device" 1 --resume -f
conf swap "$T/full" "[acpi]" "ac_profile = nosuch"
same "[acpi] names a missing profile" 3 --test -f
check "[acpi]: file:line and the name" \
	grep -q "c.conf:7: key 'ac_profile': no profile 'nosuch'" "$T/real.err"

# Hooks run only after every key was written and accepted: a key the
# "kernel" refuses (a directory where the attribute is) runs no hook.
conf swap "$T/full" "io_depth = 99"
fake_tree
rm "$CFS/profiles/p/io_depth" && mkdir "$CFS/profiles/p/io_depth"
rm -f "$T/hooks"
expect_rc "refused key exits 4" 4 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f
check "refused key: no hook ran" test ! -e "$T/hooks"
fake_tree
expect_rc "accepted profile: hooks run" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f
check "accepted profile: the pre hook ran" grep -qx pre "$T/hooks"

# JSON.
conf swap "$T/full"
# A target on a logical volume the initramfs did not activate: the dry
# run asks lvm (a fake one here) whether it exists, changes nothing, and
# plans the target the real run writes; without lvm it says so.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "$@" >>%s\nexit 0\n' "$T/lvm-args" >"$T/bin/lvm"
chmod 755 "$T/bin/lvm"
cp "$T/c.conf" "$T/c.conf.before-lvm"
conf swap /dev/mapper/s2testvg-swap--1
fake_tree
rm -f "$T/lvm-args"
expect_rc "--invalidate --dry-run on an inactive logical volume" 0 env PATH="$T/bin:$PATH" "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --invalidate -n --json
check "inactive logical volume: the dry run only asks lvm lvs" test "$(cat "$T/lvm-args" 2>/dev/null)" = "lvs --noheadings -o lv_name s2testvg/swap-1"
check "inactive logical volume: the planned target is the volume's path" \
	test "$(jq -c "[.steps[] | select(.path == \"$CFS/profiles/p/target\")][0].value" "$T/out")" = '"/dev/mapper/s2testvg-swap--1"'
rm -f "$T/lvm-args"
expect_rc "--resume --dry-run, resume_location on an inactive logical volume" 0 env PATH="$T/bin:$PATH" "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n --set resume_location=/dev/s2testvg/swap:0
check "resume_location on an inactive volume: lvm asked about its device" test "$(cat "$T/lvm-args" 2>/dev/null)" = "lvs --noheadings -o lv_name s2testvg/swap"
expect_rc "--invalidate --dry-run on a logical volume, no lvm here" 1 env PATH=/nonexistent "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --invalidate -n
check "no lvm: the warning says so" grep -q "no lvm command here to activate s2testvg/swap-1" "$T/err"
mv "$T/c.conf.before-lvm" "$T/c.conf"

fake_tree
expect_rc "--dry-run --json" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f -n --json
check "--dry-run --json is strict JSON" strict_json "$T/out"
check "--dry-run --json: the action write is the last step" \
	test "$(jq -c '.steps[-1]' "$T/out")" = "{\"do\":\"write\",\"path\":\"$CFS/action\",\"value\":\"test\"}"
check "--dry-run --json: exit_status 0" test "$(jq .exit_status "$T/out")" = 0
conf file "$T/sparse"
expect_rc "--dry-run --json of a refused target" 1 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -n --json
check "refused --dry-run --json is strict JSON" strict_json "$T/out"
check "refused --dry-run --json: exit_status 1" test "$(jq .exit_status "$T/out")" = 1
printf '[default]\ntarget = /x\ncompresor = lz4\n\xff\n' >"$T/bad.conf"
expect_rc "--dry-run --json of a bad configuration" 3 "$HIB" -c "$T/bad.conf" --configfs "$CFS" -n --json
check "bad configuration: strict JSON with the errors" strict_json "$T/out"
check "bad configuration: two errors listed" test "$(jq '.config_errors | length' "$T/out")" = 2
expect_rc "--status --json without the module" 1 "$HIB" --configfs "$T/nosuch" --status --json
check "--status --json without the module is strict JSON" strict_json "$T/out"
check "--status --json without the module: loaded false" test "$(jq .loaded "$T/out")" = false
# A task name cut inside a character, invalid bytes, and an error the
# reader cuts at its buffer's end in the middle of a character.
fake_tree
printf 'caf\xc3\n\xe2\x82\n\xff\xfeok \xe2\x82\xac\n' >"$CFS/results/refused_tasks"
python3 -c 'import sys; sys.stdout.buffer.write(b"ee" + "\u00e9".encode() * 300)' >"$CFS/results/error"
expect_rc "--status --json with invalid UTF-8 in results" 0 "$HIB" --configfs "$CFS" --status --json
check "invalid UTF-8 in results: strict JSON" strict_json "$T/out"
check "invalid bytes become U+FFFD, valid characters stay" python3 -c 'import json, sys
r = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))["results"]
assert r["refused_tasks"] == ["caf\ufffd", "\ufffd\ufffd", "\ufffd\ufffdok \u20ac"], r["refused_tasks"]' "$T/out"
check "a cut error ends on a character boundary" python3 -c 'import json, sys
r = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))["results"]
assert r["error"] == "ee" + "\u00e9" * 254, repr(r["error"][-5:])' "$T/out"
